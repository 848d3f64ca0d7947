import { describe, expect, it } from "vitest";
import { accountURL } from "./account";

describe("accountURL", () => {
  it("names the page to come back to, as a path of the console's own", () => {
    const u = new URL(accountURL("https://id.example", { pathname: "/dashboard/customers/c1", search: "?tab=users" }));
    expect(u.origin + u.pathname).toBe("https://id.example/ui/account");
    expect(u.searchParams.get("back")).toBe("/dashboard/customers/c1?tab=users");
  });
  it("keeps the path short enough for the account page to take", () => {
    const u = new URL(accountURL("https://id.example", { pathname: "/portal/" + "x".repeat(600), search: "" }));
    expect(u.searchParams.get("back")!.length).toBe(512);
  });
});
