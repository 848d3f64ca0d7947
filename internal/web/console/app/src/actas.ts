// Support impersonation in the console app (D-impersonation): the support
// user's subject token is exchanged at the identity provider's token
// endpoint (RFC 8693) with the support user's own access token as
// actor_token; the tab then works with the token of the user, whose sub is
// the user and whose act names the support user, and keeps the support
// user's token aside to come back to when the impersonation ends.
import { accessToken, settings } from "./auth";
import { tr } from "./i18n";

const store = window.sessionStorage;
const supportKey = "support_access_token";

const accessTokenType = "urn:ietf:params:oauth:token-type:access_token";

// exchangeImpersonation exchanges subjectToken for the user's token and
// switches the tab to it; it answers an error message, or "" once switched.
export async function exchangeImpersonation(subjectToken: string, subjectTokenType: string): Promise<string> {
  const actor = accessToken();
  if (!actor) return tr("impersonation.sessionEnded");
  const { issuer, consoleClient } = settings();
  const form = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    client_id: consoleClient,
    subject_token: subjectToken,
    subject_token_type: subjectTokenType,
    actor_token: actor,
    actor_token_type: accessTokenType,
    requested_token_type: accessTokenType,
  });
  const resp = await fetch(issuer + "/oauth/v2/token", { method: "POST", body: form }).catch(() => null);
  const body = (await resp?.json().catch(() => ({}))) as { access_token?: string; error_description?: string } | undefined;
  if (!resp?.ok || !body?.access_token) {
    return tr("impersonation.notStartedBy", { reason: body?.error_description ?? tr("stepup.noAnswer") });
  }
  store.setItem(supportKey, actor);
  store.setItem("access_token", body.access_token);
  window.location.assign("/portal");
  return "";
}

// endImpersonation ends the impersonation the tab works with (its grant is
// revoked at once) and takes the tab back to the support user's own token.
export async function endImpersonation(): Promise<void> {
  const token = accessToken();
  if (token) {
    await fetch("/api/v1/me/impersonation", { method: "DELETE", headers: { Authorization: "Bearer " + token } }).catch(() => undefined);
  }
  const own = store.getItem(supportKey);
  store.removeItem(supportKey);
  if (own) store.setItem("access_token", own);
  else store.removeItem("access_token");
  window.location.assign("/dashboard");
}

// Actor is who acts for the signed-in user (/api/v1/auth/me's actor).
export interface Actor {
  userId: string;
  email: string;
  impersonationId: string;
  expiresAt?: string;
}

// fetchActor answers who acts for the tab's user, or null.
export async function fetchActor(): Promise<Actor | null> {
  const token = accessToken();
  if (!token) return null;
  const resp = await fetch("/api/v1/auth/me", { headers: { Authorization: "Bearer " + token } }).catch(() => null);
  if (!resp?.ok) return null;
  const body = (await resp.json().catch(() => ({}))) as { actor?: Actor | null };
  return body.actor ?? null;
}

// ActorInstance is an instance of the impersonated user's customer whose
// tenant web app the support user can open as the user.
export interface ActorInstance {
  id: string;
  name: string;
  url: string;
}

// fetchActorInstances answers the instances of customer customerId, read
// with the support user's own token (the user's role may not list them),
// or none.
export async function fetchActorInstances(customerId: string): Promise<ActorInstance[]> {
  const own = store.getItem(supportKey);
  if (!own || !customerId) return [];
  const q = new URLSearchParams({ customerId, limit: "20" });
  const resp = await fetch("/api/v1/instances?" + q.toString(), { headers: { Authorization: "Bearer " + own } }).catch(() => null);
  if (!resp?.ok) return [];
  const body = (await resp.json().catch(() => ({}))) as { items?: ActorInstance[] };
  return (body.items ?? []).filter((i) => /^https?:\/\//.test(i.url));
}

// actAsURL is the address that opens an instance's tenant web app as the
// impersonated user: the app signs in with the impersonation.
export function actAsURL(instanceURL: string, impersonationId: string): string {
  return instanceURL.replace(/\/+$/, "") + "/?" + new URLSearchParams({ act_as: impersonationId }).toString();
}
