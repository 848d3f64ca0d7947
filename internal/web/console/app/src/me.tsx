// The caller's role and permissions, read once when the app starts (R4.1-me,
// D-me-permissions): the app offers only the actions the role holds.
import { createContext, useContext } from "react";
import { graphql } from "./gql";
import type { MeQuery } from "./gql/graphql";

export const MeDocument = graphql(`
  query Me {
    me {
      userId
      email
      name
      role
      customerId
      scope { source mode customerIds instanceIds }
      actions { action access }
    }
  }
`);

export type Action = MeQuery["me"]["actions"][number]["action"];

export interface Caller {
  me: MeQuery["me"];
  email: string;
  name: string;
  internal: boolean;
  // can: the role holds the action at read or full access; canWrite: full.
  can: (a: Action) => boolean;
  canWrite: (a: Action) => boolean;
}

export function caller(me: MeQuery["me"], email: string, name: string): Caller {
  const access = new Map(me.actions.map((a) => [a.action, a.access]));
  return {
    me,
    email,
    name,
    internal: !me.customerId,
    can: (a) => access.has(a),
    canWrite: (a) => access.get(a) === "full",
  };
}

// readsTenants: the role may read tenants, to manage them or only to
// trigger their migrations (infra_ops; D-tenant-reads).
export function readsTenants(c: Caller): boolean {
  return c.can("MANAGE_TENANT") || c.can("TRIGGER_MIGRATION");
}

export const CallerContext = createContext<Caller | null>(null);

export function useCaller(): Caller {
  const c = useContext(CallerContext);
  if (!c) throw new Error("useCaller outside CallerContext");
  return c;
}
