import { describe, expect, it } from "vitest";
import { testCaller } from "./testcaller";
import { SECTIONS } from "./shell";
import { billed } from "./pages/usage";

const me = testCaller;

describe("permissions", () => {
  it("tells read from full access", () => {
    const c = me("reader", null, [["MANAGE_TENANT", "read"]]);
    expect(c.can("MANAGE_TENANT")).toBe(true);
    expect(c.canWrite("MANAGE_TENANT")).toBe(false);
    expect(c.can("CREATE_CUSTOMER")).toBe(false);
  });

  it("offers only the sections the role may read", () => {
    const viewer = me("viewer", "c1", [["VIEW_USAGE_UNITS", "full"], ["MANAGE_TENANT", "read"]]);
    expect(SECTIONS.filter((s) => s.show(viewer)).map((s) => s.path)).toEqual(["tenants", "usage"]);
    const admin = me("platform_admin", null, [["VIEW_USAGE_UNITS", "full"], ["MANAGE_INSTANCES", "full"], ["MANAGE_INTERNAL_USERS", "full"]]);
    expect(SECTIONS.filter((s) => s.show(admin)).map((s) => s.path)).toEqual(["customers", "instances", "grants", "usage", "internal-users", "internal-groups"]);
    const portalAdmin = me("admin", "c1", [["MANAGE_CUSTOMER_USER", "full"]]);
    expect(SECTIONS.filter((s) => s.show(portalAdmin)).map((s) => s.path)).toEqual(["users", "groups", "support-access"]);
  });
});

describe("billed amounts", () => {
  it("formats an amount and leaves a redacted one to the explanation", () => {
    expect(billed(1234.5, "EUR")).toBe("€1,234.50");
    expect(billed(null, "EUR")).toBeNull();
  });
});
