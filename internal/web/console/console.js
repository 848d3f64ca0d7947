// The console's server-rendered sign-in pages: the login gateway and the
// OAuth callback (the signed-in app is internal/web/console/app). PKCE verifier, state and nonce of the
// console's own flow live in sessionStorage; a tenant app's are only passed
// through (R5.1-state, R5.1-nonce, R5.1-no-tokens).

const $ = (id) => document.getElementById(id);
const store = window.sessionStorage;
// The pages' texts in their language: the server writes the translations
// into the body's data-msg-* attributes (D-languages); English otherwise.
const msg = (key, fallback) => document.body.dataset["msg" + key] || fallback;
const GENERIC_EN = "We could not sign you in with this e-mail address. Check it, or contact your administrator.";
const GENERIC = msg("Generic", GENERIC_EN);

function b64url(bytes) {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function random() { return b64url(crypto.getRandomValues(new Uint8Array(32))); }
async function s256(v) { return b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(v))); }

function showError(msg) {
  const el = $("error");
  el.textContent = msg;
  el.hidden = false;
  el.focus?.();
}

async function postJSON(url, body) {
  const resp = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await resp.json().catch(() => ({}));
  return { ok: resp.ok, status: resp.status, data };
}

function errorText(data, fallback) {
  const detail = data && data.error && data.error.detail && data.error.detail[0];
  // the API's one generic refusal is shown in the page's language
  return (detail === GENERIC_EN ? GENERIC : detail) || fallback;
}

// Starts the console's own flow: a fresh verifier, state and nonce.
async function consolePKCE() {
  const verifier = random(), state = random(), nonce = random();
  store.setItem("pkce_verifier", verifier);
  store.setItem("oauth_state", state);
  store.setItem("oauth_nonce", nonce);
  return { codeChallenge: await s256(verifier), state, nonce };
}

async function go(req) {
  $("busy") && ($("busy").hidden = false);
  const { ok, data } = await postJSON("/api/v1/login/authorize", req);
  if (!ok || !data.url) {
    $("busy") && ($("busy").hidden = true);
    showError(errorText(data, GENERIC));
    return;
  }
  window.location.assign(data.url);
}

function choices(listId, items, onPick) {
  const list = $(listId);
  list.replaceChildren();
  for (const item of items) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = item.label;
    b.addEventListener("click", () => onPick(item));
    list.append(b);
  }
}

// showBrand shows an organization's branding once it is known (after
// resolve-org, D-branding): its logo or display name above the title, and
// its colour on the buttons (a checked #rrggbb with its text colour, set as
// custom properties through the CSSOM); none: the default look.
function showBrand(brand) {
  const main = $("gateway"), el = $("brand");
  el.replaceChildren();
  el.hidden = true;
  main.style.removeProperty("--brand");
  main.style.removeProperty("--brand-text");
  if (!brand) return;
  const hex = /^#[0-9a-f]{6}$/;
  if (hex.test(brand.primaryColor || "") && hex.test(brand.textColor || "")) {
    main.style.setProperty("--brand", brand.primaryColor);
    main.style.setProperty("--brand-text", brand.textColor);
  }
  if (brand.logoUrl) {
    const img = document.createElement("img");
    img.id = "brand-logo";
    img.src = brand.logoUrl;
    img.alt = brand.displayName || "Organization logo";
    el.append(img);
  } else if (brand.displayName) {
    const p = document.createElement("p");
    p.className = "brand-name";
    p.id = "brand-name";
    p.textContent = brand.displayName;
    el.append(p);
  }
  el.hidden = el.childElementCount === 0 && !main.style.getPropertyValue("--brand");
}

// step shows one step of the gateway (email, org or method): a later step
// names the e-mail with a way back, and takes the focus to its heading.
function step(name, email) {
  $("email-step").hidden = name !== "email";
  $("org-step").hidden = name !== "org";
  $("method-step").hidden = name !== "method";
  $("signing-in-as").hidden = name === "email";
  if (name === "email") { $("email").focus(); return; }
  $("chosen-email").textContent = email;
  $(name + "-heading").focus();
}

async function gateway() {
  const main = $("gateway");
  if (!main || !$("email-step")) return;
  const d = main.dataset;
  const tenant = d.flow === "tenant";
  $("change-email").addEventListener("click", () => { $("error").hidden = true; showBrand(null); step("email"); });
  $("email-step").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("error").hidden = true;
    const email = $("email").value.trim();
    if (!email || !email.includes("@")) { showError(msg("EnterEmail", "Enter your e-mail address.")); return; }
    const { ok, data } = await postJSON("/api/v1/login/resolve-org", { email });
    if (!ok) { showError(errorText(data, GENERIC)); return; }
    const base = { email, flow: tenant ? "tenant" : "console", uiLocales: d.uiLocales || "" };
    if (tenant) Object.assign(base, { clientId: d.clientId, redirectUri: d.redirectUri, scope: d.scope,
      codeChallenge: d.codeChallenge, state: d.state, nonce: d.nonce });
    const start = async (extra) => go(Object.assign({}, base, extra, tenant ? {} : await consolePKCE()));
    if (data.type === "not_found" || (data.type === "internal" && tenant)) { showError(GENERIC); return; }
    if (data.type === "internal") { await start({}); return; }
    const pickMethod = async (org) => {
      showBrand(org.brand);
      const all = (data.authMethods.find((m) => m.orgId === org.id) || { methods: [] }).methods;
      // password and passkey lead to the same page of the provider, which offers both
      const methods = all.filter((m) => m.type !== "passkey" || !all.some((x) => x.type === "password"));
      const pick = (m) => start({ orgId: org.id, method: m.type, idpId: m.idpId || "" });
      if (methods.length === 1) { await pick(methods[0]); return; }
      step("method", email);
      choices("method-list", methods.map((m) => ({ label: methodLabel(m), m })), (it) => pick(it.m));
    };
    if (data.orgs.length === 1) { await pickMethod(data.orgs[0]); return; }
    step("org", email);
    choices("org-list", data.orgs.map((o) => ({ label: o.name, o })), (it) => pickMethod(it.o));
  });
}

function methodLabel(m) {
  if (m.type === "sso") return msg("SignInWith", "Sign in with %s").replace("%s", m.name);
  return m.type === "passkey" ? msg("SignInPasskey", "Sign in with a passkey") : msg("SignInPassword", "Sign in with password");
}

function decodeJWT(token) {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(decodeURIComponent(escape(atob(part))));
}

async function fetchMe(token) {
  const resp = await fetch("/api/v1/auth/me", { headers: { Authorization: "Bearer " + token } });
  return { ok: resp.ok, status: resp.status, data: await resp.json().catch(() => ({})) };
}

async function callback() {
  const main = $("callback");
  if (!main) return;
  const d = main.dataset;
  const q = new URLSearchParams(window.location.search);
  const fail = (msg) => { showError(msg); $("restart").hidden = false; };
  const expected = store.getItem("oauth_state");
  store.removeItem("oauth_state");
  if (!expected || q.get("state") !== expected) {
    // Back (or a reload) after signing in brings the used callback again:
    // this tab is signed in already, so return to the app.
    if (!expected && store.getItem("access_token")) { window.location.replace("/dashboard"); return; }
    fail(msg("State", "This sign-in could not be verified (state mismatch). Start again.")); return;
  }
  if (q.get("error")) {
    if (q.get("error") === "login_required") { window.location.replace("/"); return; }
    fail(msg("NotCompleted", "Sign-in was not completed.")); return;
  }
  const body = new URLSearchParams({ grant_type: "authorization_code", code: q.get("code") || "",
    code_verifier: store.getItem("pkce_verifier") || "", client_id: d.consoleClient,
    redirect_uri: window.location.origin + "/callback" });
  store.removeItem("pkce_verifier");
  const resp = await fetch(d.issuer + "/oauth/v2/token", { method: "POST", body });
  const tok = await resp.json().catch(() => ({}));
  if (!resp.ok || !tok.id_token) { fail(msg("CouldNotComplete", "Sign-in could not be completed.")); return; }
  const nonce = store.getItem("oauth_nonce");
  store.removeItem("oauth_nonce");
  if (!nonce || decodeJWT(tok.id_token).nonce !== nonce) { fail(msg("Nonce", "This sign-in could not be verified (nonce mismatch). Start again.")); return; }
  store.setItem("access_token", tok.access_token);
  store.setItem("id_token", tok.id_token);
  const me = await fetchMe(tok.access_token);
  if (!me.ok) { fail(errorText(me.data, msg("NoAccess", "This account has no access to the console."))); return; }
  // A page of this console that started the sign-in (the GraphQL
  // playground) asked to come back: only a path of this origin.
  const back = store.getItem("return_to");
  store.removeItem("return_to");
  if (back && /^\/[^/\\]/.test(back)) { window.location.replace(back); return; }
  window.location.replace(me.data.customerId ? "/portal" : "/dashboard");
}

gateway();
callback();
