import { describe, expect, it } from "vitest";
import { needsStepUp, stepUpCode } from "./stepup";
import { sentence } from "./errors";

describe("step-up", () => {
  it("finds the refusal and what it asks for", () => {
    const errs = [{ message: "x", extensions: { code: stepUpCode, acrValues: "urn:platform:acr:mfa", maxAge: 600 } }];
    expect(needsStepUp(errs)).toEqual({ acrValues: "urn:platform:acr:mfa", maxAge: 600 });
    expect(needsStepUp([{ message: "y", extensions: { code: "FORBIDDEN" } }])).toBeNull();
    expect(sentence(errs[0])).toContain("second factor");
  });
});
