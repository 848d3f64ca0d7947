package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/testkit"
)

// In Chromium: the customer's owner allows support access on its Support
// access page; the platform admin opens a user of the customer, acts as
// the user for a reason (the token exchange from the browser), works in
// the portal as that user under a banner that names who acts, and ends it
// with the banner's End, back in the dashboard as itself; the customer
// sees the ended impersonation.
// spec: D-impersonation
func TestBrowserConsoleAppImpersonation(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)

	owner := mustBrowser(t)
	appSignIn(t, owner, m, "alice@acme.example")
	run(t, owner, open(m, "/portal/support-access", "Support access"), waitTrue(`!!document.querySelector('[data-testid="allow-impersonation"]')`),
		chromedp.Click(`[data-testid="allow-impersonation"]`, chromedp.ByQuery),
		waitTrue(`document.querySelector('[data-testid="allow-impersonation"]').checked`))
	axeCheck(t, owner, axe, "support access")

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/users/"+demoBobID, "Bob Brandt"), clickText("Act as this user"),
		fill("Reason", "ticket 4711: the export fails"), clickText("Start"),
		waitShows(`[data-testid="impersonation-banner"]`, "admin@platform.example is acting as bob@acme.example"),
		waitShows(`[data-testid="role"]`, "member"))
	var loc, banner string
	run(t, ctx, chromedp.Location(&loc), textOf(`[data-testid="impersonation-banner"]`, &banner))
	if !strings.Contains(loc, "/portal") || !strings.Contains(banner, "End") {
		t.Fatalf("impersonating at %s with banner %q", loc, banner)
	}
	axeCheck(t, ctx, axe, "impersonation banner")
	run(t, ctx, chromedp.Click(`[data-testid="impersonation-end"]`, chromedp.ByQuery),
		waitShows(`[data-testid="role"]`, "platform_admin"), waitGone(`[data-testid="impersonation-banner"]`))

	run(t, owner, chromedp.Reload(), waitShows(`[data-testid="impersonations-table"]`, "ticket 4711"),
		waitShows(`[data-testid="impersonation-state"]`, "ended"))

	// the policy is the owner's: the API agrees with the page
	alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, p := adminCall(t, m, alice.AccessToken, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy", nil); code != http.StatusOK ||
		p["allowed"] != true {
		t.Fatalf("policy: %d %v", code, p)
	}
}

// In Chromium, with an approver (D-impersonation-approval): the owner
// names herself approver on Support access; the platform admin's start
// waits, saying for whom, and Continue says it is not approved yet; the
// owner sees the request awaiting her and approves it; Continue then
// collects the subject token and opens the portal as the user under the
// banner.
// spec: D-impersonation-approval
func TestBrowserConsoleAppImpersonationApproval(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)

	owner := mustBrowser(t)
	appSignIn(t, owner, m, "alice@acme.example")
	run(t, owner, open(m, "/portal/support-access", "Support access"), waitTrue(`!!document.querySelector('[data-testid="allow-impersonation"]')`),
		chromedp.Click(`[data-testid="allow-impersonation"]`, chromedp.ByQuery),
		waitTrue(`document.querySelector('[data-testid="allow-impersonation"]').checked`),
		pick("Approver", "alice", "alice@acme.example"),
		waitTrue(`document.querySelector('[data-testid="impersonation-approver"]').value === "alice@acme.example"`))
	axeCheck(t, owner, axe, "support access with an approver")
	alice, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	testkit.Eventually(t, "the approver saved", func() bool {
		_, p := adminCall(t, m, alice.AccessToken, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy", nil)
		return p["approverId"] == demoAliceID && p["allowed"] == true
	})

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/users/"+demoBobID, "Bob Brandt"), clickText("Act as this user"),
		fill("Reason", "ticket 4712: approval asked"), clickText("Start"),
		waitShows(`[data-testid="impersonation-waiting"]`, "Waiting for alice@acme.example to approve"))
	axeCheck(t, ctx, axe, "impersonation awaiting approval")
	run(t, ctx, clickText("Continue"), waitShows(`[data-testid="impersonation-waiting"]`, "alice@acme.example has not approved it yet"))

	run(t, owner, chromedp.Reload(), waitShows(`[data-testid="impersonations-table"]`, "ticket 4712"),
		waitShows(`[data-testid="impersonation-state"]`, "awaiting_approval"))
	axeCheck(t, owner, axe, "a request awaiting approval")
	run(t, owner, chromedp.Click(`[data-testid="impersonation-approve"]`, chromedp.ByQuery),
		waitShows(`[data-testid="impersonation-state"]`, "approved"), waitGone(`[data-testid="impersonation-approve"]`))

	run(t, ctx, clickText("Continue"),
		waitShows(`[data-testid="impersonation-banner"]`, "admin@platform.example is acting as bob@acme.example"),
		waitShows(`[data-testid="role"]`, "member"))
}
