// The tenant web app: it signs in through the console's login gateway with
// its own PKCE, state and nonce (R5.3-flow), exchanges the code itself, hands
// the tokens to its backend for a session, and shows the user's projects
// (projects.js). Opened as /?act_as=<impersonation id> (the console's "Open
// in" while support impersonates a user), it signs in at the identity
// provider with that impersonation instead, and a session that has an
// actor shows who acts for whom with "End" (D-impersonation).

import { msg, showProjects } from "/static/projects.js";

const $ = (id) => document.getElementById(id);
const store = window.sessionStorage;

function b64url(bytes) {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
const s256 = async (v) => b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(v)));

function showError(msg) {
  const el = $("error");
  el.textContent = msg;
  el.hidden = false;
}

async function config() {
  const resp = await fetch("/auth/config");
  if (!resp.ok) throw new Error("configuration unavailable");
  return resp.json();
}

// callbackPath keeps the v3 route when the app was opened under /3/.
function callbackPath() {
  return window.location.pathname.startsWith("/3/") ? "/3/auth/callback" : "/auth/callback";
}

// signIn starts a login. silent=true asks the identity provider directly
// with prompt=none (its session answers, or login_required); otherwise the
// user goes through the console gateway. No urn:idp:iam: scope is sent.
async function signIn(silent, actAs) {
  const cfg = await config();
  const verifier = random(), state = random(), nonce = random();
  const redirect = window.location.origin + callbackPath();
  store.setItem("pkce_verifier", verifier);
  store.setItem("oauth_state", state);
  store.setItem("oauth_nonce", nonce);
  store.setItem("oauth_redirect", redirect);
  store.setItem("oauth_silent", silent ? "1" : "");
  store.setItem("oauth_act_as", actAs ? "1" : "");
  const q = new URLSearchParams({ client_id: cfg.clientId, redirect_uri: redirect, scope: cfg.scope,
    code_challenge: await s256(verifier), code_challenge_method: "S256", state, nonce });
  if (actAs) {
    // the support user's own provider session answers for the impersonation, or access_denied
    q.set("response_type", "code");
    q.set("impersonation", actAs);
    window.location.assign(cfg.issuer + "/oauth/v2/authorize?" + q.toString());
  } else if (silent) {
    q.set("response_type", "code");
    q.set("prompt", "none");
    window.location.assign(cfg.issuer + "/oauth/v2/authorize?" + q.toString());
  } else {
    window.location.assign(cfg.loginUrl + "?" + q.toString());
  }
}

function decodeJWT(token) {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(decodeURIComponent(escape(atob(part))));
}

async function callback() {
  const q = new URLSearchParams(window.location.search);
  const fail = (msg) => { showError(msg); $("restart").hidden = false; };
  const state = store.getItem("oauth_state"), nonce = store.getItem("oauth_nonce");
  const verifier = store.getItem("pkce_verifier"), redirect = store.getItem("oauth_redirect");
  const silent = store.getItem("oauth_silent") === "1", actAs = store.getItem("oauth_act_as") === "1";
  for (const k of ["oauth_state", "oauth_nonce", "pkce_verifier", "oauth_redirect", "oauth_silent", "oauth_act_as"]) store.removeItem(k);
  if (!state || q.get("state") !== state) { fail(msg("State", "This sign-in could not be verified (state mismatch). Start again.")); return; }
  if (q.get("error")) {
    if (silent && q.get("error") === "login_required") { await signIn(false); return; }
    if (actAs) { fail(msg("ActAsRefused", "Support access to this application was refused or has ended.")); return; }
    fail(msg("NotCompleted", "Sign-in was not completed.")); return;
  }
  const cfg = await config();
  const body = new URLSearchParams({ grant_type: "authorization_code", code: q.get("code") || "", code_verifier: verifier || "",
    client_id: cfg.clientId, redirect_uri: redirect || "" });
  const resp = await fetch(cfg.issuer + "/oauth/v2/token", { method: "POST", body });
  const tok = await resp.json().catch(() => ({}));
  if (!resp.ok || !tok.id_token) { fail(msg("CouldNotComplete", "Sign-in could not be completed.")); return; }
  if (!nonce || decodeJWT(tok.id_token).nonce !== nonce) { fail(msg("Nonce", "This sign-in could not be verified (nonce mismatch). Start again.")); return; }
  store.setItem("id_token", tok.id_token);
  store.setItem("access_token", tok.access_token);
  if (tok.refresh_token) store.setItem("refresh_token", tok.refresh_token);
  const session = await fetch("/auth/idp/callback", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ id_token: tok.id_token, access_token: tok.access_token, refresh_token: tok.refresh_token || "",
      nonce, expires_in: tok.expires_in || 0 }) });
  if (!session.ok) { fail(msg("SessionNotStarted", "Your session could not be started.")); return; }
  window.location.replace("/projects");
}

async function app() {
  if (window.location.pathname === "/signed-out") {
    $("status").textContent = msg("SignedOut", "You are signed out.");
    const b = $("sign-in");
    b.hidden = false;
    b.addEventListener("click", () => signIn(false));
    return;
  }
  const actAs = new URL(window.location.href).searchParams.get("act_as");
  if (actAs !== null) {
    if (/^[A-Za-z0-9_-]{1,64}$/.test(actAs)) { $("status").textContent = msg("SigningIn", "Signing you in…"); await signIn(false, actAs); }
    else showError(msg("ActAsRefused", "Support access to this application was refused or has ended."));
    return;
  }
  const resp = await fetch("/auth/session");
  if (resp.status === 401) {
    // the provider's session may still be alive: try a silent sign-in once per visit
    const url = new URL(window.location.href);
    if (url.searchParams.get("signin") === "interactive") { await signIn(false); return; }
    $("status").textContent = msg("SigningIn", "Signing you in…");
    await signIn(true);
    return;
  }
  if (!resp.ok) { showError(msg("NoSession", "Could not load your session.")); return; }
  const { user, actor } = await resp.json();
  if (window.location.pathname !== "/projects") { window.location.replace("/projects"); return; }
  if (actor) showActing(actor, user);
  $("who").textContent = user.email;
  $("user-name").textContent = user.name;
  $("user-email").textContent = user.email;
  $("status").hidden = true;
  $("projects").hidden = false;
  const out = $("sign-out");
  out.hidden = false;
  out.addEventListener("click", async () => {
    const r = await fetch("/auth/logout", { method: "POST", headers: { "X-Requested-With": "fetch" } });
    const data = await r.json().catch(() => ({}));
    store.clear();
    window.location.assign(data.endSessionUrl || "/");
  });
  await showProjects();
}

// showActing shows who acts for the user, with "End": ending revokes the
// impersonation at the provider and ends this session.
function showActing(actor, user) {
  $("acting-text").textContent = msg("ActingAs", "{actor} is acting as {user}", { actor: actor.email || actor.sub, user: user.email });
  $("acting").hidden = false;
  const end = $("acting-end");
  end.addEventListener("click", async () => {
    end.disabled = true;
    const r = await fetch("/auth/impersonation/end", { method: "POST", headers: { "X-Requested-With": "fetch" } });
    store.clear();
    if (!r.ok && r.status !== 401) { showError(msg("EndFailed", "The impersonation could not be ended ({status}).", { status: r.status })); return; }
    window.location.assign("/signed-out");
  });
}

if (document.body.dataset.page === "callback") callback();
else app();
