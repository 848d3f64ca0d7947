package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The owner sets the organization's security policy in the console app
// (D-org-policy): a minimum password length below the platform's is refused
// at its field; lifetimes and the length saved are there after a reload.
//
// spec: D-org-policy
func TestBrowserConsoleAppSecurityPolicy(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "alice@acme.example")
	run(t, ctx, open(m, "/portal?tab=sso", "Acme Construction"), waitShows(`main`, "Security policy"))
	axeCheck(t, ctx, axe, "security policy")

	run(t, ctx, fill("Minimum password length", "10"), press("Save security policy"),
		waitShows(`main`, "PasswordMinLength must be between the platform's minimum, 12, and 128"))
	axeCheck(t, ctx, axe, "security policy refused")

	run(t, ctx, fill("Minimum password length", "16"), fill("Idle timeout (minutes)", "15"), fill("Session lifetime (minutes)", "480"),
		press("Save security policy"), waitShows(`[data-testid="policy-saved"]`, "Saved."))
	var idle string
	run(t, ctx, chromedp.Reload(), waitShows(`main`, "Security policy"),
		waitTrue(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.startsWith("Minimum password length"));
			return !!l && document.getElementById(l.htmlFor).value === "16"; })()`),
		chromedp.Evaluate(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.startsWith("Idle timeout"));
			return document.getElementById(l.htmlFor).value; })()`, &idle))
	if idle != "15" {
		t.Fatalf("idle timeout after reload: %q", idle)
	}
}
