// The /projects page: the signed-in user's tenants and projects, a table of
// master records with paging, and the cx upload form with its validation
// report. Every write carries the X-Requested-With header, which the data
// API asks of requests signed in by the session cookie (CSRF).

const $ = (id) => document.getElementById(id);

// msg answers a text in the page's language (D-languages): the server writes
// the translations into the body's data-msg-* attributes; {name} takes vars.
export function msg(key, fallback, vars = {}) {
  const text = document.body.dataset["msg" + key] || fallback;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}
const CSRF = { "X-Requested-With": "tenant-web-app" };

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

// plural counts in the page's language: the message of one, or of many.
function plural(n, key, one, many) {
  return n === 1 ? msg(key + "One", one, { n }) : msg(key + "Many", many, { n });
}

function option(value, label) {
  const o = el("option", label);
  o.value = value;
  return o;
}

// errorText turns a 7.1 error object into one line.
function errorText(body, status) {
  const detail = body && body.error && Array.isArray(body.error.detail) ? body.error.detail.join(" ") : "";
  return detail || msg("RequestFailed", "The request failed ({status}).", { status });
}

async function getJSON(url) {
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await resp.json().catch(() => null);
  if (!resp.ok) throw new Error(errorText(body, resp.status));
  return body;
}

function tenantCard(t) {
  const card = el("section", null, "tenant");
  card.dataset.tenant = t.id;
  card.append(el("h2", t.name));
  const list = el("ul");
  for (const p of t.projects) list.append(el("li", p.name));
  if (!t.projects.length) list.append(el("li", msg("NoProjects", "No projects yet.")));
  card.append(list);
  const facts = [];
  if (t.masters.length) facts.push(t.masters.map((m) => `${m.name} (${m.recordCount})`).join(", "));
  if (t.schedules.length) facts.push(plural(t.schedules.length, "Schedules", "{n} schedule", "{n} schedules"));
  if (facts.length) card.append(el("p", facts.join(" · "), "muted"));
  return card;
}

// --- master records -------------------------------------------------------

const records = { tenants: [], tenant: "", master: "", project: "", sort: "", page: 1, pageSize: 25, deleted: false, seq: 0,
  slugs: new Map() };
const PAGE_SIZES = [5, 10, 25, 50, 100];
const SORTS = ["", "-createdAt", "slug", "-slug", "refId", "-refId"];

// The listing's state lives in the URL, so a reload or a shared link keeps
// the tenant, master, filters, sort and page.
function readURL() {
  const q = new URLSearchParams(window.location.search);
  return { tenant: q.get("tenant") || "", master: q.get("master") || "", project: q.get("project") || "",
    sort: SORTS.includes(q.get("sort") || "") ? q.get("sort") || "" : "",
    page: Math.max(1, parseInt(q.get("page") || "1", 10) || 1),
    pageSize: PAGE_SIZES.includes(Number(q.get("pageSize"))) ? Number(q.get("pageSize")) : 25,
    deleted: q.get("deleted") === "true" };
}

function writeURL() {
  const q = new URLSearchParams();
  if (records.tenant) q.set("tenant", records.tenant);
  if (records.master) q.set("master", records.master);
  if (records.project) q.set("project", records.project);
  if (records.sort) q.set("sort", records.sort);
  if (records.deleted) q.set("deleted", "true");
  if (records.pageSize !== 25) q.set("pageSize", String(records.pageSize));
  if (records.page > 1) q.set("page", String(records.page));
  const next = window.location.pathname + (q.toString() ? "?" + q : "");
  if (next !== window.location.pathname + window.location.search) window.history.replaceState(null, "", next);
}

function fillProjects() {
  const t = records.tenants.find((x) => x.id === records.tenant);
  const projects = t ? t.projects : [];
  $("records-project").replaceChildren(option("", msg("AllProjects", "All projects")), ...projects.map((p) => option(p.id, p.name)));
  if (!projects.some((p) => p.id === records.project)) records.project = "";
  $("records-project").value = records.project;
}

function fieldsText(fields) {
  return Object.entries(fields || {})
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`)
    .join(" · ");
}

function fillMasters() {
  const t = records.tenants.find((x) => x.id === records.tenant);
  const names = t ? t.masters.map((m) => m.name) : [];
  $("master-name").replaceChildren(...names.map((n) => option(n, n)));
  if (!names.includes(records.master)) records.master = names[0] || "";
  $("master-name").value = records.master;
}

async function loadRecords() {
  const seq = ++records.seq; // answers of superseded requests are dropped
  const table = $("records-table").tBodies[0];
  const err = $("records-error");
  err.hidden = true;
  if (!records.master) {
    table.replaceChildren();
    $("records-summary").textContent = msg("NoMasters", "This tenant has no masters.");
    $("records-prev").disabled = $("records-next").disabled = true;
    return;
  }
  const q = new URLSearchParams({ tenantID: records.tenant, page: String(records.page), pageSize: String(records.pageSize) });
  if (records.deleted) q.set("includeDeleted", "true");
  if (records.project) q.set("projectID", records.project);
  if (records.sort) q.set("sort", records.sort);
  let page;
  try {
    page = await getJSON(`/api/v1/master-record/${encodeURIComponent(records.master)}?${q}`);
  } catch (e) {
    if (seq !== records.seq) return;
    err.textContent = e.message;
    err.hidden = false;
    table.replaceChildren();
    return;
  }
  if (seq !== records.seq) return;
  records.page = page.page;
  writeURL();
  const tenant = records.tenants.find((x) => x.id === records.tenant);
  const projects = new Map((tenant ? tenant.projects : []).map((p) => [p.id, p.name]));
  for (const r of page.rows) records.slugs.set(r.id, r.slug); // parents named by slug once seen on any page
  const slugs = records.slugs;
  table.replaceChildren(...page.rows.map((r) => {
    const tr = el("tr", null, r.isDeleted ? "deleted" : "");
    tr.dataset.id = r.id;
    const slug = el("td", r.slug);
    if (r.isDeleted) slug.append(el("span", msg("Deleted", "deleted"), "badge"));
    tr.append(slug, el("td", r.refId), el("td", r.parentID ? slugs.get(r.parentID) || r.parentID : "—"),
      el("td", projects.get(r.projectID) || r.projectID || "—"), el("td", r.createdAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")),
      el("td", fieldsText(r.customFields), "fields"));
    return tr;
  }));
  const pages = Math.max(page.totalPages, 1);
  $("records-summary").textContent = page.total === 1
    ? msg("RecordsOne", "{n} record · page {page} of {pages}", { n: page.total, page: page.page, pages })
    : msg("RecordsMany", "{n} records · page {page} of {pages}", { n: page.total, page: page.page, pages });
  $("records-prev").disabled = page.page <= 1;
  $("records-next").disabled = page.page >= page.totalPages;
}

function setupRecords(tenants) {
  const want = readURL();
  records.tenants = tenants;
  records.tenant = tenants.some((t) => t.id === want.tenant) ? want.tenant : (tenants.length ? tenants[0].id : "");
  Object.assign(records, { master: want.master, project: want.project, sort: want.sort, page: want.page,
    pageSize: want.pageSize, deleted: want.deleted });
  $("master-tenant").replaceChildren(...tenants.map((t) => option(t.id, t.name)));
  $("master-tenant").value = records.tenant;
  fillMasters();
  fillProjects();
  $("records-sort").value = records.sort;
  $("records-page-size").value = String(records.pageSize);
  $("records-deleted").checked = records.deleted;
  $("master-tenant").addEventListener("change", () => {
    records.tenant = $("master-tenant").value;
    records.page = 1;
    fillMasters();
    fillProjects();
    loadRecords();
  });
  $("records-project").addEventListener("change", () => { records.project = $("records-project").value; records.page = 1; loadRecords(); });
  $("records-sort").addEventListener("change", () => { records.sort = $("records-sort").value; records.page = 1; loadRecords(); });
  $("master-name").addEventListener("change", () => { records.master = $("master-name").value; records.page = 1; loadRecords(); });
  $("records-page-size").addEventListener("change", () => { records.pageSize = Number($("records-page-size").value); records.page = 1; loadRecords(); });
  $("records-deleted").addEventListener("change", () => { records.deleted = $("records-deleted").checked; records.page = 1; loadRecords(); });
  $("records-prev").addEventListener("click", () => { records.page = Math.max(1, records.page - 1); loadRecords(); });
  $("records-next").addEventListener("click", () => { records.page += 1; loadRecords(); });
  $("records-form").addEventListener("submit", (e) => e.preventDefault());
  return loadRecords();
}

// --- cx upload ------------------------------------------------------------

function fillSchedules(tenants) {
  const select = $("upload-schedule");
  const chosen = select.value;
  const opts = [];
  for (const t of tenants.filter((x) => x.canUpload)) {
    for (const s of t.schedules) opts.push(option(s.id, `${t.name} · ${s.name} (${plural(s.rowCount, "Rows", "{n} row", "{n} rows")})`));
  }
  select.replaceChildren(...opts);
  if (chosen && opts.some((o) => o.value === chosen)) select.value = chosen;
  $("upload-form").hidden = opts.length === 0;
  $("upload-denied").hidden = opts.length !== 0;
}

function showReport(status, body, httpStatus) {
  const result = $("upload-result");
  const table = $("upload-errors");
  const warnings = $("upload-warnings");
  result.hidden = false;
  result.dataset.status = status;
  table.hidden = true;
  table.tBodies[0].replaceChildren();
  warnings.replaceChildren();
  const message = $("upload-message");
  if (status === "applied" || status === "valid") {
    const s = body.summary;
    const counts = msg("Counts", "{created} created, {updated} updated, {unchanged} unchanged", s);
    const rows = plural(s.received, "Rows", "{n} row", "{n} rows");
    message.textContent = status === "applied"
      ? msg("Saved", "Saved: {rows} received — {counts}.", { rows, counts })
      : msg("Valid", "Valid (dry run, nothing saved): {rows} would give {counts}.", { rows, counts });
  } else if (status === "invalid") {
    const n = body.summary ? body.summary.errors : body.errors.length;
    message.textContent = n === 1 ? msg("InvalidOne", "Nothing was saved: the upload breaks {n} rule.", { n })
      : body.truncated ? msg("InvalidTruncated", "Nothing was saved: the upload breaks {n} rules (the first {listed} are listed).", { n, listed: body.errors.length })
      : msg("InvalidMany", "Nothing was saved: the upload breaks {n} rules.", { n });
    table.tBodies[0].replaceChildren(...body.errors.map((e) => {
      const tr = el("tr");
      tr.append(el("td", e.index >= 0 ? e.index + 1 : msg("Stored", "stored")), el("td", e.rowId || "—"), el("td", e.field || "—"),
        el("td", e.code, "code"), el("td", e.message), el("td", e.cycle ? e.cycle.join(" → ") : ""));
      return tr;
    }));
    table.hidden = false;
  } else {
    const code = body && Array.isArray(body.errors) && body.errors[0] ? ` [${body.errors[0].code}]` : "";
    message.textContent = msg("NotSaved", "Nothing was saved: {detail}", { detail: errorText(body, httpStatus) + code });
  }
  for (const w of (body && body.warnings) || []) warnings.append(el("li", msg("Warning", "Warning: {message}", { message: w.message }), "warning"));
}

async function submitUpload(event) {
  event.preventDefault();
  const file = $("upload-file").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("scheduleId", $("upload-schedule").value);
  form.append("file", file, file.name);
  const dry = $("upload-dry-run").checked;
  const button = $("upload-submit");
  button.disabled = true;
  $("upload-result").dataset.status = "pending";
  try {
    const resp = await fetch(`/api/v1/cx/upload${dry ? "?dryRun=true" : ""}`, { method: "POST", headers: CSRF, body: form });
    const body = await resp.json().catch(() => null);
    if (resp.ok) showReport(body.status, body, resp.status);
    else if (resp.status === 422 && body && body.errors && body.errors.some((e) => "index" in e)) showReport("invalid", body, resp.status);
    else showReport("error", body, resp.status);
    if (resp.ok && body.status === "applied") {
      const fresh = await getJSON("/api/v1/me/tenants").catch(() => null);
      if (fresh) fillSchedules(fresh.tenants);
    }
  } catch (e) {
    showReport("error", { error: { detail: [e.message] } }, 0);
  } finally {
    button.disabled = false;
  }
}

function setupUpload(tenants) {
  fillSchedules(tenants);
  $("upload-form").addEventListener("submit", submitUpload);
}

// showProjects fills the page for the signed-in user.
export async function showProjects() {
  let me;
  try {
    me = await getJSON("/api/v1/me/tenants");
  } catch (e) {
    me = { user: null, tenants: [] };
    $("records-error").textContent = msg("TenantsFailed", "Your tenants could not be loaded: {message}", { message: e.message });
    $("records-error").hidden = false;
  }
  if (me.user) $("user-role").textContent = ` · ${me.user.role}`;
  const box = $("tenants");
  box.replaceChildren(...me.tenants.map(tenantCard));
  if (!me.tenants.length) box.textContent = msg("NoTenants", "You have no tenants yet.");
  setupUpload(me.tenants);
  await setupRecords(me.tenants);
}
