// What the support tools offer on a user's page (D-support-tools): each
// action only to a role that holds it at full access, and only where it
// applies to the user as it is. The server decides again on every request.
import type { Caller } from "./me";

export interface Supported {
  id: string;
  role: string;
  status: string;
  authenticatorApp: boolean;
  passkeys: number;
}

export interface SupportActions {
  sessions: boolean; // read the user's sessions
  signOut: boolean; // sign the user out of one session or all
  unlock: boolean;
  resetSecondFactor: boolean;
  resendInvitation: boolean;
  revokeInvitation: boolean;
}

// supportActions answers what caller is offered on user's page; internal:
// the user is an internal user (platform_admin's, MANAGE_INTERNAL_USERS).
// A customer's owner is only platform_admin's to touch (D-owner-protect),
// and one's own second factor is reset on the account page.
export function supportActions(caller: Caller, user: Supported, internal: boolean): SupportActions {
  const read = internal ? caller.can("MANAGE_INTERNAL_USERS") : caller.can("MANAGE_CUSTOMER_USER");
  const manage = internal ? caller.canWrite("MANAGE_INTERNAL_USERS") : caller.canWrite("MANAGE_CUSTOMER_USER");
  const owner = !internal && user.role === "owner" && caller.me.role !== "platform_admin";
  const secure = (internal ? caller.canWrite("MANAGE_INTERNAL_USERS") : caller.canWrite("SUSPEND_USER")) && !owner;
  const invited = user.status === "invited";
  return {
    sessions: read,
    signOut: secure,
    unlock: secure && user.status === "locked",
    resetSecondFactor: secure && user.id !== caller.me.userId && (user.authenticatorApp || user.passkeys > 0),
    resendInvitation: manage && invited,
    revokeInvitation: manage && invited && !owner,
  };
}

// secondFactors names what a user signs in with beside the password.
export function secondFactors(u: { authenticatorApp: boolean; passkeys: number }): string {
  const parts: string[] = [];
  if (u.authenticatorApp) parts.push("authenticator app with recovery codes");
  if (u.passkeys > 0) parts.push(u.passkeys === 1 ? "1 passkey" : `${u.passkeys} passkeys`);
  return parts.length ? parts.join(", ") : "none";
}

// describeAgent names the browser and system of a User-Agent in a few
// words ("Firefox on Linux"); the whole string is shown beside it.
export function describeAgent(ua: string): string {
  if (!ua.trim()) return "Unknown browser";
  const browser =
    /Edg(e|A|iOS)?\//.test(ua) ? "Edge" :
    /OPR\/|Opera/.test(ua) ? "Opera" :
    /Firefox\/|FxiOS\//.test(ua) ? "Firefox" :
    /HeadlessChrome\//.test(ua) ? "Headless Chrome" :
    /Chrome\/|CriOS\/|Chromium\//.test(ua) ? "Chrome" :
    /Version\/[\d.]+.*Safari\//.test(ua) ? "Safari" :
    ua.split(/[\s/]/)[0] || "Unknown browser";
  const system =
    /iPhone|iPad|iPod/.test(ua) ? "iOS" :
    /Android/.test(ua) ? "Android" :
    /Windows/.test(ua) ? "Windows" :
    /CrOS/.test(ua) ? "ChromeOS" :
    /Mac OS X|Macintosh/.test(ua) ? "macOS" :
    /Linux/.test(ua) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}

// signInMethods reads a session's amr in words.
export function signInMethods(amr: readonly string[]): string {
  const has = (m: string) => amr.includes(m);
  if (has("fed")) return has("mfa") ? "single sign-on with two-step verification" : "single sign-on";
  if (has("hwk")) return has("pwd") ? "password and passkey" : "passkey";
  if (has("otp")) return "password and one-time code";
  if (has("pwd")) return "password";
  return amr.join(" ") || "—";
}
