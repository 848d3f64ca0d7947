import type { OperationContext } from "@urql/core";

const contexts = new Map<string, Partial<OperationContext>>();

// lists tells urql's document cache which types a list query shows, so a
// mutation of that type refetches it even while the list is empty. The
// context object is the same for the same names (a new one would refetch).
export function lists(...typenames: string[]): Partial<OperationContext> {
  const key = typenames.join(",");
  let c = contexts.get(key);
  if (!c) {
    c = { additionalTypenames: typenames };
    contexts.set(key, c);
  }
  return c;
}
