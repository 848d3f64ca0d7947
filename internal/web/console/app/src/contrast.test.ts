import { describe, expect, it } from "vitest";
import { checkColor, contrast } from "./contrast";

describe("the branding colour check", () => {
  it("computes WCAG contrast", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
  });
  it("picks the text colour that contrasts more, as the server does", () => {
    expect(checkColor("#0b5d1e")).toMatchObject({ valid: true, text: "#ffffff", ok: true });
    expect(checkColor("#FFD700")).toMatchObject({ valid: true, text: "#111827", ok: true });
  });
  it("refuses colours no text reaches 4.5:1 on", () => {
    const c = checkColor("#777777");
    expect(c.valid).toBe(true);
    expect(c.ok).toBe(false);
    expect(c.ratio).toBeLessThan(4.5);
  });
  it("refuses what is not #rrggbb", () => {
    for (const s of ["red", "#fff", "red;background:url(x)", "#0b5d1e;x", ""]) {
      expect(checkColor(s).valid).toBe(false);
    }
  });
});
