// Step-up in the console app (D-step-up): the console's most dangerous
// actions (deleting a customer, transferring ownership, resolving a
// database URI) answer INSUFFICIENT_USER_AUTHENTICATION until the token
// shows a recent sign-in with a second factor. The app then signs in
// again through the gateway's step-up flow, asking the identity provider
// for what the answer named (acr_values, max_age), and once back retries
// the refused mutation, exactly as it was sent (its trusted document's
// hash and variables).
import { mapExchange, type Operation } from "@urql/core";
import { accessToken, startStepUp } from "./auth";
import { tr } from "./i18n";

const store = window.sessionStorage;
const retryKey = "step_up_retry";
const outcomeKey = "step_up_outcome";

export const stepUpCode = "INSUFFICIENT_USER_AUTHENTICATION";

interface Retry {
  hash: string;
  variables: unknown;
  at: number;
}

// needsStepUp finds the step-up refusal among a result's errors.
export function needsStepUp(errors: readonly { message?: string; extensions?: Record<string, unknown> }[]): { acrValues: string; maxAge: number } | null {
  for (const e of errors) {
    if (e.extensions?.code === stepUpCode) {
      return { acrValues: String(e.extensions.acrValues ?? ""), maxAge: Number(e.extensions.maxAge ?? 0) };
    }
  }
  return null;
}

// remember keeps a refused mutation to retry after the step-up.
export function remember(op: Operation): void {
  const hash = (op.query as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!hash) return;
  const r: Retry = { hash, variables: op.variables, at: Date.now() };
  store.setItem(retryKey, JSON.stringify(r));
}

// stepUpOnRefusal starts the step-up when a mutation is refused for want
// of a recent second factor.
export const stepUpOnRefusal = mapExchange({
  onResult(r) {
    const want = r.operation.kind === "mutation" && r.error ? needsStepUp(r.error.graphQLErrors) : null;
    if (want) {
      remember(r.operation);
      void startStepUp(want.acrValues, want.maxAge);
    }
    return r;
  },
});

// retryAfterStepUp sends the mutation kept before the step-up once, with
// the new token, and records how it went for stepUpOutcome. A kept
// mutation older than ten minutes is dropped: the person has moved on.
export async function retryAfterStepUp(): Promise<void> {
  const raw = store.getItem(retryKey);
  store.removeItem(retryKey);
  if (!raw) return;
  let r: Retry;
  try {
    r = JSON.parse(raw) as Retry;
  } catch {
    return;
  }
  if (!r.hash || Date.now() - r.at > 10 * 60 * 1000) return;
  const resp = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + (accessToken() ?? "") },
    body: JSON.stringify({ variables: r.variables, extensions: { persistedQuery: { version: 1, sha256Hash: r.hash } } }),
  }).catch(() => null);
  const body = (await resp?.json().catch(() => null)) as { errors?: { message: string; extensions?: Record<string, unknown> }[] } | null;
  if (!resp?.ok || !body || (body.errors && body.errors.length > 0)) {
    const again = body?.errors && needsStepUp(body.errors);
    store.setItem(outcomeKey, again
      ? tr("stepup.noSecondFactor")
      : tr("stepup.notDone", { reason: body?.errors?.[0]?.message ?? tr("stepup.noAnswer") }));
    return;
  }
  store.setItem(outcomeKey, tr("stepup.done"));
}

// stepUpOutcome answers, once, how the retried action went ("" for none).
export function stepUpOutcome(): string {
  const s = store.getItem(outcomeKey) ?? "";
  store.removeItem(outcomeKey);
  return s;
}
