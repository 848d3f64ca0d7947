import { describe, expect, it } from "vitest";
import { parseRoute, withQuery } from "./router";

describe("routes in the URL", () => {
  it("splits base, segments and query", () => {
    const r = parseRoute("/dashboard/customers/c1?tab=users&after=x");
    expect(r.base).toBe("/dashboard");
    expect(r.segments).toEqual(["customers", "c1"]);
    expect(r.query.get("tab")).toBe("users");
  });

  it("changes parameters and drops empty ones", () => {
    expect(withQuery("/portal/usage?meter=api&after=abc", { after: null, from: "2025-01" })).toBe("/portal/usage?meter=api&from=2025-01");
    expect(withQuery("/portal/usage?meter=api", { meter: "" })).toBe("/portal/usage");
  });
});
