// The console's own sign-in (R5.2-flow): the gateway and /callback are
// server-rendered pages; the app only reads the access token they left in
// session storage, re-authenticates silently once (prompt=none, R5.2-silent)
// when it is missing or refused, and on sign-out ends its grant at the console
// and then the session at the identity provider.

const store = window.sessionStorage;

export interface Settings {
  issuer: string;
  consoleClient: string;
}

export function settings(): Settings {
  const root = document.getElementById("root");
  return { issuer: root?.dataset.issuer ?? "", consoleClient: root?.dataset.consoleClient ?? "" };
}

export function accessToken(): string | null {
  return store.getItem("access_token");
}

export interface Identity {
  email: string;
  name: string;
}

// identity reads the e-mail and name from the id_token the callback checked.
export function identity(): Identity {
  const tok = store.getItem("id_token");
  if (!tok) return { email: "", name: "" };
  try {
    const part = tok.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(part), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { email?: string; name?: string };
    return { email: claims.email ?? "", name: claims.name ?? "" };
  } catch {
    return { email: "", name: "" };
  }
}

function b64url(bytes: ArrayBuffer | Uint8Array): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function random(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function pkce() {
  const verifier = random(), state = random(), nonce = random();
  store.setItem("pkce_verifier", verifier);
  store.setItem("oauth_state", state);
  store.setItem("oauth_nonce", nonce);
  const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { codeChallenge: challenge, state, nonce };
}

// signingOut is set once the user signs out: no sign-in starts after it.
let signingOut = false;

// startSignIn goes to the identity provider: silently once from its session,
// to the gateway when that was already tried. orgId switches organization
// for a user of several (the gateway's organization step, skipped).
export async function startSignIn(org?: { orgId: string; method: string; idpId: string }): Promise<void> {
  if (signingOut) return; // a request refused while signing out must not sign in again
  store.removeItem("access_token");
  const back = window.location.pathname + window.location.search;
  if (!org && store.getItem("silent_tried")) {
    store.removeItem("silent_tried");
    window.location.replace("/");
    return;
  }
  store.setItem("return_to", back);
  const body = org
    ? { flow: "console", email: identity().email, ...org, ...(await pkce()) }
    : { flow: "console-silent", ...(await pkce()) };
  if (!org) store.setItem("silent_tried", "1");
  const resp = await fetch("/api/v1/login/authorize", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await resp.json().catch(() => ({}))) as { url?: string };
  if (signingOut) return;
  window.location.assign(resp.ok && data.url ? data.url : "/");
}

// startStepUp signs in again for one of the console's most dangerous
// actions (D-step-up): the gateway's step-up flow asks the identity
// provider for acrValues within maxAge seconds, as the refusal named, and
// the callback comes back to the same page.
export async function startStepUp(acrValues: string, maxAge: number): Promise<void> {
  if (signingOut) return;
  store.setItem("return_to", window.location.pathname + window.location.search);
  const body = { flow: "console-step-up", email: identity().email, acrValues, maxAge, ...(await pkce()) };
  const resp = await fetch("/api/v1/login/authorize", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await resp.json().catch(() => ({}))) as { url?: string };
  window.location.assign(resp.ok && data.url ? data.url : "/");
}

// signedIn clears the one silent attempt after a token worked.
export function signedIn(): void {
  store.removeItem("silent_tried");
}

// signOut ends the tab's grant at the console first (its access token, and
// any copy of it, stops working at once), then the provider's session.
export async function signOut(): Promise<void> {
  const { issuer, consoleClient } = settings();
  const idToken = store.getItem("id_token") ?? "";
  const token = accessToken();
  signingOut = true;
  store.clear();
  if (token) {
    await fetch("/api/v1/auth/logout", { method: "POST", headers: { Authorization: "Bearer " + token } }).catch(() => undefined);
  }
  const u = new URL(issuer + "/oidc/v1/end_session");
  if (idToken) u.searchParams.set("id_token_hint", idToken);
  u.searchParams.set("client_id", consoleClient);
  u.searchParams.set("post_logout_redirect_uri", window.location.origin + "/");
  window.location.assign(u.toString());
}
