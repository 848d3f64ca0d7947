import { describe, expect, it } from "vitest";
import { raisesPrivilege } from "./roles";

describe("raisesPrivilege", () => {
  it("asks for the typed confirmation up to an admin-level customer role", () => {
    expect(raisesPrivilege("member", "admin")).toBe(true);
    expect(raisesPrivilege("viewer", "admin")).toBe(true);
    expect(raisesPrivilege("billing", "admin")).toBe(true);
    expect(raisesPrivilege("admin", "owner")).toBe(true);
  });
  it("asks for it up to any internal role, from no role too", () => {
    expect(raisesPrivilege("reader", "platform_admin")).toBe(true);
    expect(raisesPrivilege("reader", "finance_admin")).toBe(true);
    expect(raisesPrivilege("qa_admin", "account_manager")).toBe(true);
    expect(raisesPrivilege("", "reader")).toBe(true);
  });
  it("does not for a move down or across, nor up to a role below admin", () => {
    expect(raisesPrivilege("admin", "member")).toBe(false);
    expect(raisesPrivilege("member", "viewer")).toBe(false);
    expect(raisesPrivilege("member", "billing")).toBe(false);
    expect(raisesPrivilege("platform_admin", "reader")).toBe(false);
    expect(raisesPrivilege("qa_admin", "infra_ops")).toBe(false);
    expect(raisesPrivilege("admin", "admin")).toBe(false);
  });
});
