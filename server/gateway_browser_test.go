package main

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The console's sign-in page names the application the user signs in to,
// shows the chosen e-mail on the organization step with a way back and
// moves the focus to the step's heading, and Back after signing in returns
// to the app instead of a "state mismatch" error.
func TestBrowserGatewayPolish(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	base := m.Config.ConsoleURL + "/"

	t.Run("AppName", func(t *testing.T) {
		ctx := mustBrowser(t)
		q := url.Values{"client_id": {m.Config.InstanceClientID}, "redirect_uri": {m.Config.InstanceURL + "/auth/callback"},
			"scope": {"openid profile email"}, "code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"},
			"code_challenge_method": {"S256"}, "state": {"s1"}, "nonce": {"n1"}}
		var console, tenant, title string
		if err := chromedp.Run(ctx,
			chromedp.Navigate(base), textOf(`#gateway-title`, &console),
			chromedp.Navigate(base+"?"+q.Encode()), textOf(`#gateway-title`, &tenant),
			chromedp.Title(&title)); err != nil {
			t.Fatal(err)
		}
		if console != "Sign in to the platform console" {
			t.Errorf("console flow heading %q", console)
		}
		if tenant != "Sign in to Acme production" || title != "Sign in to Acme production" {
			t.Errorf("tenant flow heading %q, title %q", tenant, title)
		}
	})

	// spec: R4.1-ro-customer
	t.Run("OrganizationStep", func(t *testing.T) {
		ctx := mustBrowser(t)
		var shown, focused, back string
		var emailVisible bool
		if err := chromedp.Run(ctx, gatewayEmail(base, "dana@partner.example"),
			chromedp.WaitVisible(`#org-step`, chromedp.ByID),
			chromedp.Poll(`document.activeElement && document.activeElement.id === "org-heading"`, nil),
			textOf(`#chosen-email`, &shown),
			chromedp.Evaluate(`document.activeElement.textContent`, &focused),
			shot(t, ctx, "gateway-org-step"),
			chromedp.Click(`#change-email`, chromedp.ByID),
			chromedp.WaitVisible(`#email-step`, chromedp.ByID),
			chromedp.Poll(`document.activeElement && document.activeElement.id === "email"`, nil),
			chromedp.Evaluate(`!document.getElementById("org-step").hidden || !document.getElementById("signing-in-as").hidden`, &emailVisible),
			chromedp.Value(`#email`, &back, chromedp.ByID),
		); err != nil {
			t.Fatal(err)
		}
		if shown != "dana@partner.example" || focused != "Choose your organization" {
			t.Errorf("org step shows %q, focus on %q", shown, focused)
		}
		if emailVisible || back != "dana@partner.example" {
			t.Errorf("the way back left the org step shown (%v) or lost the address (%q)", emailVisible, back)
		}
		// And on from there with another address.
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(`document.getElementById("email").value = ""`, nil),
			chromedp.SendKeys(`#email`, "admin@platform.example", chromedp.ByID),
			chromedp.Click(`#email-step button`, chromedp.ByQuery),
			providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		if role, _, path := profile(ctx, t); role != "platform_admin" || path != "/dashboard" {
			t.Errorf("after changing the address: %s on %s", role, path)
		}
	})

	t.Run("BackAfterSignIn", func(t *testing.T) {
		ctx := mustBrowser(t)
		if err := chromedp.Run(ctx, gatewayEmail(base, "alice@acme.example"), providerPassword(DemoPassword)); err != nil {
			t.Fatal(err)
		}
		if _, _, path := profile(ctx, t); path != "/portal" {
			t.Fatalf("signed in to %s", path)
		}
		var loc, errText string
		if err := chromedp.Run(ctx, chromedp.Evaluate(`window.__before = true; setTimeout(() => history.back(), 0)`, nil),
			// a new document (the marker is gone) at the app with its content;
			// evaluation fails while the page navigates, so it is retried
			chromedp.ActionFunc(func(ctx context.Context) error {
				for {
					var done bool
					err := chromedp.Evaluate(`window.__before === undefined && location.pathname !== "/callback" &&
						document.readyState === "complete" && (document.getElementById("error")?.hidden === false ||
						!!document.querySelector('[data-testid="role"]')?.textContent.trim())`, &done).Do(ctx)
					if err == nil && done {
						return nil
					}
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(100 * time.Millisecond):
					}
				}
			}),
			chromedp.Location(&loc),
			chromedp.Evaluate(`document.getElementById("error")?.hidden === false ? document.getElementById("error").textContent : ""`, &errText),
			shot(t, ctx, "gateway-back")); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(errText, "mismatch") || !strings.HasPrefix(loc, m.Config.ConsoleURL+"/portal") {
			t.Errorf("Back after signing in: %s %q", loc, errText)
		}
	})
}
