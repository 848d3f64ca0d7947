import { describe, expect, it } from "vitest";
import { timeBound } from "./timebound";

describe("a time filter as typed", () => {
  it("is no bound when empty", () => {
    expect(timeBound("")).toBeNull();
    expect(timeBound("  ")).toBeNull();
  });
  it("takes a day from its first instant, and to its last as the end of a range", () => {
    expect(timeBound("2026-05-01")).toBe("2026-05-01T00:00:00.000Z");
    expect(timeBound("2026-05-01", true)).toBe("2026-05-02T00:00:00.000Z");
    expect(timeBound("2026-12-31", true)).toBe("2027-01-01T00:00:00.000Z");
  });
  it("takes a day and a time as that minute, in UTC", () => {
    expect(timeBound("2026-05-01T12:30")).toBe("2026-05-01T12:30:00Z");
    expect(timeBound("2026-05-01 12:30", true)).toBe("2026-05-01T12:30:00Z");
  });
  it("leaves anything else to the server", () => {
    expect(timeBound("yesterday")).toBe("yesterday");
    expect(timeBound("2026-05-01T12:30:00+02:00")).toBe("2026-05-01T12:30:00+02:00");
  });
});
