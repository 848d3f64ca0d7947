import { describe, expect, it } from "vitest";
import { testCaller } from "./testcaller";
import { describeAgent, secondFactors, signInMethods, supportActions } from "./support";

const me = (role: string, customerId: string | null, actions: [string, string][]) => testCaller(role, customerId, actions, "me");

const admin = me("admin", "c1", [["MANAGE_CUSTOMER_USER", "full"], ["SUSPEND_USER", "full"]]);
const reader = me("reader", null, [["MANAGE_CUSTOMER_USER", "read"], ["MANAGE_INTERNAL_USERS", "read"]]);
const platformAdmin = me("platform_admin", null, [["MANAGE_CUSTOMER_USER", "full"], ["SUSPEND_USER", "full"], ["MANAGE_INTERNAL_USERS", "full"]]);
const user = (over: Partial<{ id: string; role: string; status: string; authenticatorApp: boolean; passkeys: number }>) =>
  ({ id: "u2", role: "member", status: "active", authenticatorApp: false, passkeys: 0, ...over });

describe("the support tools offered", () => {
  it("offers each action where it applies, to a role that holds it", () => {
    expect(supportActions(admin, user({ status: "locked", authenticatorApp: true }), false)).toEqual({
      sessions: true, signOut: true, unlock: true, resetSecondFactor: true, resendInvitation: false, revokeInvitation: false,
    });
    expect(supportActions(admin, user({ status: "invited" }), false)).toMatchObject({
      unlock: false, resetSecondFactor: false, resendInvitation: true, revokeInvitation: true,
    });
  });
  it("offers a reading role the sessions only", () => {
    expect(supportActions(reader, user({ status: "locked", passkeys: 2 }), false)).toEqual({
      sessions: true, signOut: false, unlock: false, resetSecondFactor: false, resendInvitation: false, revokeInvitation: false,
    });
    expect(supportActions(reader, user({ status: "invited" }), true).resendInvitation).toBe(false);
  });
  it("leaves the owner to platform_admin", () => {
    const owner = user({ role: "owner", status: "locked", authenticatorApp: true });
    expect(supportActions(admin, owner, false)).toMatchObject({ signOut: false, unlock: false, resetSecondFactor: false });
    expect(supportActions(platformAdmin, owner, false)).toMatchObject({ signOut: true, unlock: true, resetSecondFactor: true });
  });
  it("does not reset one's own second factor", () => {
    expect(supportActions(admin, user({ id: "me", authenticatorApp: true }), false).resetSecondFactor).toBe(false);
  });
  it("decides internal users on managing internal users", () => {
    expect(supportActions(admin, user({ status: "locked" }), true).unlock).toBe(false);
    expect(supportActions(platformAdmin, user({ status: "locked" }), true).unlock).toBe(true);
  });
});

describe("what a user signs in with", () => {
  it("names the second factors", () => {
    expect(secondFactors({ authenticatorApp: true, passkeys: 2 })).toBe("authenticator app with recovery codes, 2 passkeys");
    expect(secondFactors({ authenticatorApp: false, passkeys: 1 })).toBe("1 passkey");
    expect(secondFactors({ authenticatorApp: false, passkeys: 0 })).toBe("none");
  });
  it("names a session's browser and system", () => {
    expect(describeAgent("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe("Firefox on Linux");
    expect(describeAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    expect(describeAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0")).toBe("Edge on Windows");
    expect(describeAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36")).toBe("Chrome on macOS");
    expect(describeAgent("Go-http-client/1.1")).toBe("Go-http-client");
    expect(describeAgent("")).toBe("Unknown browser");
  });
  it("reads a session's sign-in methods", () => {
    expect(signInMethods(["pwd"])).toBe("password");
    expect(signInMethods(["pwd", "otp", "mfa"])).toBe("password and one-time code");
    expect(signInMethods(["hwk", "mfa"])).toBe("passkey");
    expect(signInMethods(["fed"])).toBe("single sign-on");
  });
});
