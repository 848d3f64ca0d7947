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

// sentence says in plain words what a coded error means for the page.
export function sentence(err: GraphErr, what = i18n.t("errors.thisItem")): string {
  switch (codeOf(err)) {
    case "FORBIDDEN":
      return i18n.t("errors.forbidden", { what });
    case "NOT_FOUND":
      return i18n.t("errors.notFound", { what });
    case "UNAUTHENTICATED":
      return i18n.t("errors.unauthenticated");
    case "CONFLICT":
      return capitalize(err.message) + ".";
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
