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
    expect(sentence({ message: "not allowed: customer outside scope", extensions: { code: "FORBIDDEN" } }, "this customer")).toBe(
      "You do not have access to this customer. It is outside the customers or instances you are assigned to.",
    );
    expect(sentence({ message: "internal error", extensions: { code: "INTERNAL_SERVER_ERROR", requestId: "r1" } })).toMatch(/report request r1/);
  });
});

describe("refusals name their real reason", () => {
  it("says an owner protection as such, not as a scope", () => {
    const s = sentence({ message: "not allowed: only platform_admin may suspend or delete a customer's owner", extensions: { code: "FORBIDDEN" } }, "this user");
    expect(s).toBe("Only a platform_admin may suspend, reactivate or delete the customer's owner.");
    expect(s).not.toMatch(/assigned to/);
  });
  it("keeps the scope sentence for an object outside the caller's customers", () => {
    for (const m of ["not allowed: customer outside scope", "not allowed: instance outside scope", "forbidden"]) {
      expect(sentence({ message: m, extensions: { code: "FORBIDDEN" } }, "this customer")).toMatch(/outside the customers or instances you are assigned to/);
    }
  });
  it("shows a reason the app does not know in the server's words", () => {
    expect(sentence({ message: "the customer does not allow support to act as its users", extensions: { code: "FORBIDDEN" } }))
      .toBe("The customer does not allow support to act as its users.");
    expect(sentence({ message: "not allowed: you may not grant the role platform_admin", extensions: { code: "FORBIDDEN" } }))
      .toBe("You may not grant the role platform_admin.");
  });
  it("shows a conflict, such as a missing database URI, as the server says it", () => {
    const m = "no database URI is recorded for this instance; set databaseUri on the instance first";
    const s = sentence({ message: m, extensions: { code: "CONFLICT" } }, "this instance");
    expect(s).toBe("No database URI is recorded for this instance; set databaseUri on the instance first.");
    expect(s).not.toMatch(/focused on/);
  });
  it("names what is missing when the server does, and hides nothing a scope hides", () => {
    expect(sentence({ message: "domain claim not found", extensions: { code: "NOT_FOUND" } })).toBe("Domain claim not found.");
    expect(sentence({ message: "not found", extensions: { code: "NOT_FOUND" } }, "this tenant")).toMatch(/^We could not find this tenant\./);
  });
  it("puts a duplicate customer name at the name's field", () => {
    const p = problems([{ message: `name "globex" is another customer's`, extensions: { code: "CONFLICT" } }], ["name", "domain"]);
    expect(p.fields.name).toBe(`Name "globex" is another customer's`);
    expect(p.general).toEqual([]);
  });
});
