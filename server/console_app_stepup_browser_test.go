package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"
)

// In Chromium, step-up (D-step-up): the platform admin, signed in with a
// password only, asks for an instance's database URI; the console refuses
// it for want of a recent second factor, the app signs in again asking the
// provider for one (acr_values, max_age), the provider has the admin set
// up an authenticator (there is none yet), and back in the app the refused
// action is retried and done.
// spec: D-step-up
func TestBrowserConsoleAppStepUp(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	if err := m.Store.SetInstanceDatabaseURI(context.Background(), DemoInstanceID, "postgres://acme:pw@db.acme.example/app"); err != nil {
		t.Fatal(err)
	}
	ctx := mustBrowser(t)
	appSignIn(t, ctx, m, "admin@platform.example")
	run(t, ctx, chromedp.Navigate(m.Config.ConsoleURL+"/dashboard/instances/"+DemoInstanceID), waitShows(`main`, "Show database URI"),
		clickText("Show database URI"))
	// the provider: the password again, then an authenticator to set up
	var secret string
	run(t, ctx, providerPassword(DemoPassword), waitShows(`#totp-secret`, ""), textOf(`#totp-secret`, &secret))
	code, err := totp.GenerateCode(strings.TrimSpace(secret), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.SendKeys(`#code`, code, chromedp.ByID), chromedp.Submit(`#code`, chromedp.ByID),
		waitShows(`main`, "Continue"), clickText("Continue"),
		waitShows(`[data-testid="step-up-outcome"]`, "Done"), waitShows(`[data-testid="role"]`, "platform_admin"))
	// the retried action is the admin's, in the audit log
	run(t, ctx, open(m, "/dashboard/audit", "Audit log"), waitShows(`main`, "instance.database_uri_resolve"))
}
