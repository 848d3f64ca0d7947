import { describe, expect, it } from "vitest";
import { chooseTab } from "./tabs";

describe("the tab in the URL", () => {
  const offered = ["tenants", "usage", "billing"];
  it("opens an offered tab", () => {
    expect(chooseTab(offered, "billing")).toBe("billing");
  });
  it("opens the first tab when none or one not offered is asked for", () => {
    expect(chooseTab(offered, null)).toBe("tenants");
    expect(chooseTab(offered, "")).toBe("tenants");
    expect(chooseTab(offered, "settings")).toBe("tenants");
  });
  it("follows a renamed tab, if its new name is offered", () => {
    expect(chooseTab(offered, "invoices", { invoices: "billing" })).toBe("billing");
    expect(chooseTab(["usage"], "invoices", { invoices: "billing" })).toBe("usage");
  });
  it("answers empty when nothing is offered", () => {
    expect(chooseTab([], "usage")).toBe("");
  });
});
