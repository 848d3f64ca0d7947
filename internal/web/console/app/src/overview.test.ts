import { describe, expect, it } from "vitest";
import { tiles } from "./overview";

const can = (...held: string[]) => (a: string) => held.includes(a);

describe("overview tiles", () => {
  it("shows the counts the role may read, each linked to its list when the app offers one", () => {
    const counts = { customers: 105, tenants: 3, users: 7, pendingInvitations: 2, lockedUsers: 1 };
    expect(tiles(counts, { internal: true, can: can("MANAGE_TENANT", "MANAGE_CUSTOMER_USER") }, "/dashboard")).toEqual([
      { key: "customers", label: "overview.customers", value: 105, href: "/dashboard/customers" },
      { key: "tenants", label: "overview.tenants", value: 3, href: "/dashboard/tenants" },
      // internal roles reach users through a customer: no list of their own
      { key: "users", label: "overview.users", value: 7, href: undefined },
      { key: "pendingInvitations", label: "overview.pendingInvitations", value: 2, href: undefined },
      { key: "lockedUsers", label: "overview.lockedUsers", value: 1, href: undefined },
    ]);
    expect(tiles(counts, { internal: false, can: can("MANAGE_TENANT", "MANAGE_CUSTOMER_USER") }, "/portal").map((t) => [t.key, t.href])).toEqual([
      ["tenants", "/portal/tenants"], ["users", "/portal/users"], ["pendingInvitations", "/portal/users"], ["lockedUsers", "/portal/users"],
    ]);
  });

  it("leaves out what the server withheld (null), and a count of zero stays", () => {
    const counts = { customers: 1, tenants: 0, users: null, pendingInvitations: null, lockedUsers: null };
    expect(tiles(counts, { internal: false, can: can() }, "/portal")).toEqual([
      { key: "tenants", label: "overview.tenants", value: 0, href: undefined },
    ]);
  });
});
