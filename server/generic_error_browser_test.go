package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The tenant-app half of the one generic error, in Chromium: the tenant web
// app sends the user to the console's login page; there an unknown address
// (not_found) and an internal administrator's address (internal) both show
// exactly the generic error the console's own flow shows for an unknown
// address, and the browser stays on the console (no page of the identity
// provider, no organization or method to choose).
//
// spec: R7.2-generic
func TestBrowserTenantAppGenericError(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := mustBrowser(t)
	shown := func(start, email string) (msg, loc string, steps int) {
		t.Helper()
		if err := chromedp.Run(ctx,
			chromedp.Navigate(start),
			chromedp.WaitVisible(`#email`, chromedp.ByID),
			chromedp.SendKeys(`#email`, email, chromedp.ByID),
			chromedp.Click(`#email-step button`, chromedp.ByQuery),
			chromedp.WaitVisible(`#error`, chromedp.ByID),
			textOf(`#error`, &msg),
			chromedp.Location(&loc),
			chromedp.Evaluate(`document.querySelectorAll('#org-list button, #method-list button').length`, &steps)); err != nil {
			t.Fatalf("%s at %s: %v", email, start, err)
		}
		return strings.TrimSpace(msg), loc, steps
	}
	generic, _, _ := shown(m.Config.ConsoleURL+"/", "nobody@nowhere.example")
	if !strings.Contains(generic, "could not sign you in") {
		t.Fatalf("the console flow's not_found shows %q", generic)
	}
	for _, email := range []string{"nobody@nowhere.example", "admin@platform.example"} {
		msg, loc, steps := shown(m.Config.InstanceURL+"/?signin=interactive", email)
		if !strings.HasPrefix(loc, m.Config.ConsoleURL+"/?") || !strings.Contains(loc, "client_id="+m.Config.InstanceClientID) {
			t.Fatalf("%s: the tenant web app's sign-in is at %s, not the console's login page for the instance", email, loc)
		}
		if msg != generic || steps != 0 {
			t.Errorf("%s in the tenant-app flow shows %q (%d choices), want the one generic error %q", email, msg, steps, generic)
		}
	}
}
