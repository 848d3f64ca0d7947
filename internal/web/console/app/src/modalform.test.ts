import { describe, expect, it } from "vitest";
import { optional, splitList } from "./modalform";
import { granteeChoices } from "./pages/grants";
import { statusFilter } from "./pages/discrepancies";

describe("form values", () => {
  it("sends an empty optional text as null", () => {
    expect(optional("  ")).toBeNull();
    expect(optional(" beta ")).toBe("beta");
  });
  it("reads options one per line or comma separated, without blanks", () => {
    expect(splitList("red\n green,,blue\n\n")).toEqual(["red", "green", "blue"]);
    expect(splitList("")).toEqual([]);
  });
});

describe("grantees", () => {
  it("offers active account managers and QA administrators only, by name", () => {
    const users = [
      { id: "1", email: "zoe@p.example", name: "Zoe", role: "account_manager" },
      { id: "2", email: "ada@p.example", name: "Ada", role: "qa_admin" },
      { id: "3", email: "root@p.example", name: "Root", role: "platform_admin" },
      { id: "4", email: "gone@p.example", name: "Gone", role: "account_manager", suspendedAt: "2026-01-01T00:00:00Z" },
      { id: "5", email: "rita@p.example", name: "Rita", role: "reader" },
    ];
    expect(granteeChoices(users)).toEqual([
      { value: "2", label: "Ada <ada@p.example> · qa admin" },
      { value: "1", label: "Zoe <zoe@p.example> · account manager" },
    ]);
  });
});

describe("discrepancies filter", () => {
  it("shows the open items unless the URL asks for resolved or all", () => {
    expect(statusFilter("")).toBe("open");
    expect(statusFilter("resolved")).toBe("resolved");
    expect(statusFilter("all")).toBeNull();
  });
});
