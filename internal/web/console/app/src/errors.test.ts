import { describe, expect, it } from "vitest";
import { problems, sentence } from "./errors";

describe("problems", () => {
  it("puts a detail at the field it names", () => {
    const p = problems(
      [{ message: "invalid user", extensions: { code: "BAD_USER_INPUT", details: ["email must be an e-mail address", "name is required (at most 200 characters)"] } }],
      ["email", "name", "role"],
    );
    expect(p.fields).toEqual({ email: "Email must be an e-mail address", name: "Name is required (at most 200 characters)" });
    expect(p.general).toEqual([]);
  });

  it("puts a message naming a field at that field", () => {
    const p = problems([{ message: 'domain "x@y" is not an e-mail domain', extensions: { code: "BAD_USER_INPUT" } }], ["name", "domain"]);
    expect(p.fields.domain).toBe('Domain "x@y" is not an e-mail domain');
  });

  it("keeps details of no field in the general message", () => {
    const p = problems(
      [{ message: "invalid user", extensions: { code: "BAD_USER_INPUT", details: ["email must be an e-mail address", "quota reached"] } }],
      ["email"],
    );
    expect(p.fields.email).toBeDefined();
    expect(p.general).toEqual(["Invalid user: quota reached"]);
  });

  it("does not take a field name that is only a prefix of a word", () => {
    const p = problems([{ message: "names must differ", extensions: { code: "BAD_USER_INPUT" } }], ["name"]);
    expect(p.fields).toEqual({});
    expect(p.general).toEqual(["Names must differ."]);
  });

  it("says a refused request in plain words", () => {
    const [forbidden] = problems([{ message: "forbidden", extensions: { code: "FORBIDDEN" } }], []).general;
    expect(forbidden).toMatch(/do not have access/);
    const [missing] = problems([{ message: "not found", extensions: { code: "NOT_FOUND" } }], []).general;
    expect(missing).toMatch(/could not find/);
  });
});

describe("sentence", () => {
  it("names the object and never shows the raw code", () => {
    expect(sentence({ message: "x", extensions: { code: "FORBIDDEN" } }, "this customer")).toBe(
      "You do not have access to this customer. It is outside the customers or instances you are assigned to.",
    );
    expect(sentence({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR", requestId: "r1" } })).toMatch(/report request r1/);
  });
});
