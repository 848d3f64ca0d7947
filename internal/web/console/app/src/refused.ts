import { makeOperation, mapExchange, type OperationResult } from "@urql/core";

// changedNothing: a mutation the server refused (an error, and every field
// of its data null) changed nothing.
export function changedNothing(r: OperationResult): boolean {
  if (r.operation.kind !== "mutation" || !r.error) return false;
  const data = r.data as Record<string, unknown> | null | undefined;
  return !data || Object.values(data).every((v) => v === null || v === undefined);
}

// refusedChangesNothing keeps a refused mutation from refetching the lists
// its additionalTypenames name. urql's document cache forgets an
// invalidated query until its refetch answers, so a refetch begun by a
// refused request would otherwise make the next, accepted one refetch
// nothing, and the list would show the read from before it.
export const refusedChangesNothing = mapExchange({
  onResult(r) {
    if (!changedNothing(r)) return r;
    return { ...r, operation: makeOperation("mutation", r.operation, { ...r.operation.context, additionalTypenames: [] }) };
  },
});
