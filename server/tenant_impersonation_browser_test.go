package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// In Chromium: the platform admin impersonates Bob in the console app; the
// banner offers "Open in" the customer's instance; the tenant web app
// opens as Bob through the admin's own provider session, every page under
// a banner (role=status, fitting 390 px) saying who acts for whom; its End
// signs the tab out and ends the impersonation for the customer too.
// spec: D-impersonation
func TestBrowserTenantAppImpersonation(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	m := w.m
	axe := axeSource(t)

	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, open(m, "/dashboard/users/"+demoBobID, "Bob Brandt"), clickText("Act as this user"),
		fill("Reason", "ticket 4713: the tenant app"), clickText("Start"),
		waitShows(`[data-testid="impersonation-banner"]`, "admin@platform.example is acting as bob@acme.example"),
		waitShows(`[data-testid="impersonation-open-in"]`, "Open in Acme production"))
	axeCheck(t, ctx, axe, "impersonation banner with Open in")

	const banner = "admin@platform.example is acting as bob@acme.example"
	var role, name string
	var fits bool
	run(t, ctx, clickText("Open in Acme production"), waitForPath(ctx, "/projects"),
		waitShows(`#acting-text`, banner), waitShows(`#user-email`, "bob@acme.example"),
		chromedp.AttributeValue(`#acting`, "role", &role, nil, chromedp.ByID),
		chromedp.AttributeValue(`#acting`, "aria-label", &name, nil, chromedp.ByID),
		chromedp.EmulateViewport(390, 844), waitShows(`#acting-end`, "End"),
		// the banner itself fits the narrow screen: its text wraps, its End stays in view
		chromedp.Evaluate(`(() => { const b = document.getElementById('acting'), w = window.innerWidth;
		  return b.scrollWidth <= b.clientWidth && [...b.children].every(e => e.getBoundingClientRect().right <= w); })()`, &fits))
	if role != "status" || name != "Support access" || !fits {
		t.Fatalf("banner role %q, name %q, fits 390 px: %v", role, name, fits)
	}
	// nor does the page around it scroll sideways
	var wider []string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('body *')].filter(e => e.getClientRects().length &&
		  !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className)`, &wider))
	if len(wider) > 0 {
		t.Fatalf("the tenant app is wider than 390 px: %v", wider)
	}
	axeCheck(t, ctx, axe, "tenant app impersonation banner")

	run(t, ctx, chromedp.Click(`#acting-end`, chromedp.ByID), waitForPath(ctx, "/signed-out"),
		waitShows(`#status`, "You are signed out."))
	var hidden bool
	run(t, ctx, chromedp.Evaluate(`document.getElementById('acting').hidden`, &hidden))
	if !hidden {
		t.Fatal("the banner still shows after End")
	}
	_, list := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	if it := list["items"].([]any)[0].(map[string]any); it["state"] != "ended" || it["endedBy"] != demoAdminID {
		t.Fatalf("the customer's list after End in the tenant app: %v", it)
	}
}
