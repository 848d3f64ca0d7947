// Turns GraphQL errors into what a person reads: a message at the form
// field it is about, or one plain sentence for the page. The server's coded
// errors (graph/errors.go) carry extensions.code and, for invalid input,
// the problems as extensions.details, each naming its field first
// ("email must be an e-mail address").
import type { CombinedError } from "@urql/core";
import i18n from "./i18n";

export interface Problems {
  fields: Record<string, string>;
  general: string[];
}

interface GraphErr {
  message: string;
  extensions?: Record<string, unknown>;
}

export function codeOf(err: GraphErr): string {
  const c = err.extensions?.code;
  return typeof c === "string" ? c : "";
}

// OUT_OF_REACH are the reasons of a refusal ("not allowed: <reason>",
// internal/access) that mean the object is outside the caller's customers
// or instances: the page says so in its own words. Any other reason is the
// real one and is shown (D-refusal-reasons): in the app's words where the
// app knows it, else in the server's.
const OUT_OF_REACH = new Set(["customer outside scope", "instance outside scope", "resource of another customer", "scope not resolved"]);
const REASONS: Record<string, string> = {
  "only platform_admin may suspend or delete a customer's owner": "errors.ownerProtected",
  "role holds the action read only": "errors.readOnly",
  "role does not hold the action": "errors.notHeld",
  "platform_admin only": "errors.platformAdminOnly",
  "not while acting for another user": "errors.impersonating",
};

// reasonOf is the reason a refusal gives, without the "not allowed: "
// every authorization refusal begins with.
export function reasonOf(err: GraphErr): string {
  return err.message.replace(/^not allowed: /, "").trim();
}

// sentence says in plain words what a coded error means for the page.
export function sentence(err: GraphErr, what = i18n.t("errors.thisItem")): string {
  switch (codeOf(err)) {
    case "FORBIDDEN": {
      const reason = reasonOf(err);
      if (reason === "" || reason === "forbidden" || OUT_OF_REACH.has(reason)) return i18n.t("errors.forbidden", { what });
      const key = REASONS[reason];
      return key ? i18n.t(key) : asSentence(reason);
    }
    case "NOT_FOUND":
      // the bare "not found" of a scope that hides the object; any other
      // message names what is missing
      if (err.message === "" || err.message === "not found") return i18n.t("errors.notFound", { what });
      return asSentence(err.message);
    case "UNAUTHENTICATED":
      return i18n.t("errors.unauthenticated");
    case "CONFLICT":
      return asSentence(err.message);
    case "INSUFFICIENT_USER_AUTHENTICATION":
      return i18n.t("errors.stepUp");
    case "RATE_LIMITED":
      return i18n.t("errors.rateLimited");
    case "SERVICE_UNAVAILABLE":
      return i18n.t("errors.unavailable");
    case "BAD_USER_INPUT":
      return capitalize(err.message) + ".";
    case "INTERNAL_SERVER_ERROR":
      return i18n.t("errors.internal", { id: String(err.extensions?.requestId ?? "") });
  }
  return capitalize(err.message);
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// asSentence is a server message as a sentence: capitalized, with a full stop.
function asSentence(s: string): string {
  const c = capitalize(s.trim());
  return /[.!?]$/.test(c) ? c : c + ".";
}

// problems sorts the errors of a mutation onto the form's fields: a message
// or detail that begins with a field's name goes to that field (the first
// one wins), every other into general.
export function problems(errors: readonly GraphErr[], fieldNames: readonly string[]): Problems {
  const out: Problems = { fields: {}, general: [] };
  for (const err of errors) {
    const details = err.extensions?.details;
    const parts = Array.isArray(details) && details.length > 0 ? details.map(String) : [err.message];
    const placed = parts.map((p) => {
      const f = fieldNames.find((n) => p === n || p.startsWith(n + " ") || p.startsWith(n + ":"));
      if (f && !out.fields[f]) {
        out.fields[f] = capitalize(p);
        return true;
      }
      return !!f;
    });
    if (placed.every(Boolean)) continue;
    if (Array.isArray(details) && details.length > 0) {
      const rest = parts.filter((_, i) => !placed[i]);
      out.general.push(capitalize(err.message) + ": " + rest.join("; "));
    } else {
      out.general.push(sentence(err));
    }
  }
  return out;
}

// graphErrors lists the GraphQL errors of an urql result; a network or HTTP
// failure becomes one error with a plain message.
export function graphErrors(err: CombinedError | undefined): GraphErr[] {
  if (!err) return [];
  if (err.graphQLErrors.length > 0) return err.graphQLErrors;
  const status = (err.response as Response | undefined)?.status;
  if (status === 401) return [{ message: "unauthenticated", extensions: { code: "UNAUTHENTICATED" } }];
  return [{ message: i18n.t("errors.network") }];
}
