// testCaller is a signed-in caller for unit tests: its role, its customer
// (null for an internal role) and its actions with their access.
import { caller, type Caller } from "./me";

export function testCaller(role: string, customerId: string | null, actions: [string, string][], userId = "u1"): Caller {
  return caller(
    {
      __typename: "Me",
      userId,
      email: "a@b.example",
      name: "A",
      role,
      customerId,
      scope: { __typename: "Scope", source: "", mode: "", customerIds: [], instanceIds: [] },
      actions: actions.map(([action, access]) => ({ __typename: "ActionGrant", action: action as never, access })),
    },
    "a@b.example",
    "A",
  );
}
