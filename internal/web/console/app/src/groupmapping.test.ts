import { describe, expect, it } from "vitest";
import { mappingText, parseMapping } from "./pages/sso";

describe("a provider's group mapping as lines", () => {
  it("round-trips entries", () => {
    const entries = [{ value: "eng", group: "Engineers" }, { value: "CN=Ops,OU=Groups,DC=acme", group: "g-1" }];
    expect(parseMapping(mappingText(entries))).toEqual({ entries, bad: [] });
  });
  it("skips blank lines and trims", () => {
    expect(parseMapping("\n  eng =  Engineers \n\n")).toEqual({ entries: [{ value: "eng", group: "Engineers" }], bad: [] });
  });
  it("reports lines without a value or a group", () => {
    expect(parseMapping("eng\n= Engineers\nops =").bad).toEqual(["eng", "= Engineers", "ops ="]);
  });
});
