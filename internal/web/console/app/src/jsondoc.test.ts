import { describe, expect, it } from "vitest";
import { parseObject, pretty, words } from "./jsondoc";

describe("JSON documents typed into a form", () => {
  it("accepts an object", () => {
    expect(parseObject("settings", ' {"region": "eu", "seats": 3} ')).toEqual({ value: { region: "eu", seats: 3 } });
  });
  it("names the field when the text is not JSON", () => {
    const p = parseObject("settings", "{region: eu}");
    expect(p.value).toBeUndefined();
    expect(p.error).toMatch(/^settings is not valid JSON/);
  });
  it.each([["[]"], ["null"], ['"eu"'], ["3"]])("refuses %s, which is not an object", (text) => {
    expect(parseObject("jwks", text)).toEqual({ error: "jwks must be a JSON object" });
  });
  it("shows a document as indented text that reads back the same", () => {
    const doc = { a: [1, 2], b: { c: true } };
    expect(parseObject("settings", pretty(doc)).value).toEqual(doc);
    expect(pretty(null)).toBe("{}");
  });
});

describe("lists typed as words", () => {
  it("splits on spaces, commas and lines, once each", () => {
    expect(words(" openid, profile\nemail  openid ")).toEqual(["openid", "profile", "email"]);
    expect(words("  ")).toEqual([]);
  });
});
