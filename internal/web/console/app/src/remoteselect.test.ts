import { describe, expect, it } from "vitest";
import { searchVars, withChosen } from "./remoteselect";
import { namedOptions } from "./pickers";

describe("remote select", () => {
  it("asks for the trimmed text, or everything, and names the value it holds", () => {
    expect(searchVars("  glob ", "cust-1")).toEqual({ search: "glob", selected: "cust-1", withSelected: true });
    expect(searchVars("   ", null)).toEqual({ search: null, selected: "", withSelected: false });
  });

  it("keeps the chosen option when the last search did not find it", () => {
    const found = [{ value: "b", label: "Beta" }];
    expect(withChosen(found, { value: "a", label: "Alpha" })).toEqual([{ value: "a", label: "Alpha" }, ...found]);
    expect(withChosen(found, { value: "b", label: "Beta" })).toBe(found);
    expect(withChosen(found, null)).toBe(found);
  });

  it("lists the selected object and the answer once each, an instance with its customer", () => {
    const acme = { id: "i1", name: "North", customer: { name: "Acme" } };
    expect(namedOptions([acme, { id: "i2", name: "South" }], acme)).toEqual([
      { value: "i1", label: "North (Acme)" },
      { value: "i2", label: "South" },
    ]);
    expect(namedOptions([], null)).toEqual([]);
  });

  it("leaves out the customer a transfer starts from, and names an instance of a chosen customer alone", () => {
    const acme = { id: "c1", name: "Acme" };
    const globex = { id: "c2", name: "Globex" };
    expect(namedOptions([acme, globex], acme, ["c1"])).toEqual([{ value: "c2", label: "Globex" }]);
    expect(namedOptions([{ id: "i1", name: "North", customer: { name: "Acme" } }], null, [], false)).toEqual([{ value: "i1", label: "North" }]);
  });
});
