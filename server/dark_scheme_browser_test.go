package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/mail"
)

// One colour scheme that follows the system on every page: with the
// system dark (prefers-color-scheme, emulated through CDP), the console's
// gateway, the provider's sign-in and account pages, the console app, the
// development mailbox and the GraphQL playground are dark and axe-clean,
// at 1280 and 390 px.

// darkPage waits until the page's background is dark (its luminance low):
// the page follows the system's scheme, not a light default.
func darkPage() chromedp.Action {
	return waitTrue(`(() => {
	  const bg = [document.body, document.documentElement].map(e => getComputedStyle(e).backgroundColor).find(c => c !== "rgba(0, 0, 0, 0)");
	  const m = bg && bg.match(/\d+/g);
	  return !!m && Number(m[0]) + Number(m[1]) + Number(m[2]) < 3 * 80;
	})()`)
}

// The sign-in (gateway, the provider's password page and its error), the
// console app's sections for platform_admin and the portal for an owner,
// all dark and axe-clean, at 1280 and 390 px.
func TestBrowserDarkSchemeConsole(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	// axe at both widths on the page as it is
	both := func(page string) {
		t.Helper()
		for _, w := range []int64{390, 1280} {
			run(t, ctx, chromedp.EmulateViewport(w, 900))
			axeCheck(t, ctx, axe, fmt.Sprintf("%s, dark, %d px", page, w))
		}
	}
	run(t, ctx, colorScheme("dark"), chromedp.Navigate(m.Config.ConsoleURL+"/"), chromedp.WaitVisible(`#email`, chromedp.ByID), darkPage())
	both("gateway")
	run(t, ctx, chromedp.SendKeys(`#email`, "admin@platform.example", chromedp.ByID), chromedp.Click(`#email-step button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#password`, chromedp.ByID), darkPage())
	both("sign-in")
	run(t, ctx, chromedp.SendKeys(`#password`, "not the password", chromedp.ByID), chromedp.Submit(`#password`, chromedp.ByID),
		chromedp.WaitVisible(`.error`, chromedp.ByQuery))
	both("sign-in with an error")
	run(t, ctx, providerPassword(DemoPassword), waitShows(`[data-testid="role"]`, "platform_admin"), darkPage(),
		waitTrue(`document.documentElement.getAttribute("data-mantine-color-scheme") === "dark"`))
	both("app home")
	for _, p := range []struct{ path, heading string }{
		{"/dashboard/customers", "Customers"}, {"/dashboard/customers/" + DemoAcmeCustomerID + "?tab=users", "Acme Construction"},
		{"/dashboard/tenants", "Tenants"}, {"/dashboard/tenants/" + DemoAcmeTenantID, "Harbor Campus"},
		{"/dashboard/instances", "Instances"}, {"/dashboard/audit", "Audit log"}, {"/dashboard/internal-users", "Internal users"},
		{"/dashboard/usage", "Usage"}, {"/dashboard/releases", "Releases and environment"}, {"/dashboard/discrepancies", "Discrepancies"},
	} {
		run(t, ctx, open(m, p.path, p.heading), waitTrue(`!document.body.textContent.includes("Loading…")`))
		both(p.path)
	}
	run(t, ctx, open(m, "/dashboard/tenants", "Tenants"), clickText("New tenant"), waitShows(`[role="dialog"]`, "Customer"))
	both("new tenant dialog")
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+"/ui/account"), chromedp.WaitVisible(`h1`, chromedp.ByQuery), darkPage())
	both("account page")
}

// The server-rendered pages in the dark scheme, axe-clean at 390 and 1280
// px: the development mailbox (in both schemes) and an invitation's
// set-password page reached from it, the provider's forgotten-password,
// device and signed-out pages and its error page, the tenant web app signed
// in with its records.
func TestBrowserDarkSchemePages(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	both := func(page string) {
		t.Helper()
		for _, w := range []int64{390, 1280} {
			run(t, ctx, chromedp.EmulateViewport(w, 900))
			axeCheck(t, ctx, axe, fmt.Sprintf("%s, %d px", page, w))
		}
	}
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
		map[string]any{"email": "petra@acme.example", "name": "Petra"}); code != http.StatusCreated {
		t.Fatalf("invite = %d %v", code, body)
	}
	if _, err := m.Mail.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		run(t, ctx, colorScheme(scheme), chromedp.Navigate(m.Config.IssuerURL+mail.PathMailbox),
			chromedp.WaitVisible(`//td[text()="petra@acme.example"]`, chromedp.BySearch))
		both("mailbox, " + scheme)
		run(t, ctx, chromedp.Click(`//td[text()="petra@acme.example"]/following-sibling::td/a`, chromedp.BySearch),
			chromedp.WaitVisible(`pre.body a`, chromedp.ByQuery))
		both("mailbox message, " + scheme)
	}
	run(t, ctx, darkPage(), chromedp.Click(`pre.body a`, chromedp.ByQuery), chromedp.WaitVisible(`#password`, chromedp.ByID), darkPage())
	both("set password, dark")
	for _, p := range []struct{ path, sel string }{
		{"/ui/password/forgot", "#email"}, {"/ui/device", "h1"}, {"/ui/logged-out", "h1"},
		{"/oauth/v2/authorize?client_id=no-such-client&response_type=code&scope=openid&redirect_uri=https://x.example/cb", "h1"},
	} {
		run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+p.path), chromedp.WaitVisible(p.sel, chromedp.ByQuery), darkPage())
		both(p.path + ", dark")
	}
	// the tenant web app: its sign-in, then the owner's records
	run(t, ctx, chromedp.Navigate(m.Config.InstanceURL+"/"), chromedp.WaitVisible(`#email`, chromedp.ByID), darkPage())
	both("tenant app sign-in, dark")
	run(t, ctx, chromedp.SendKeys(`#email`, "alice@acme.example", chromedp.ByID), chromedp.Click(`#email-step button`, chromedp.ByQuery),
		providerPassword(DemoPassword), waitForPath(ctx, "/projects"), chromedp.WaitVisible(`#records-table tbody tr`, chromedp.ByQuery), darkPage())
	both("tenant app records, dark")
}

// axeBoth runs axe on the page as it is at 390 and 1280 px.
func axeBoth(t *testing.T, ctx context.Context, axe, page string) {
	t.Helper()
	for _, w := range []int64{390, 1280} {
		run(t, ctx, chromedp.EmulateViewport(w, 900))
		axeCheck(t, ctx, axe, fmt.Sprintf("%s, %d px", page, w))
	}
}

// The GraphQL playground's page is axe-clean in both schemes; the
// provider's two-step enrolment page (a user of an organization that asks
// for two steps) is dark and axe-clean.
func TestBrowserDarkSchemePlayground(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	ctx := mustBrowser(t)
	run(t, ctx, colorScheme("dark"), gatewayEmail(m.Config.ConsoleURL+"/", "dana@partner.example"),
		chromedp.WaitVisible(`#org-step`, chromedp.ByID),
		chromedp.Click(`//button[text()="Globex Engineering"]`, chromedp.BySearch),
		providerPassword(DemoPassword), chromedp.WaitVisible(`.qr`, chromedp.ByQuery), darkPage())
	axeBoth(t, ctx, axe, "two-step enrolment, dark")

	for _, scheme := range []string{"light", "dark"} {
		run(t, ctx, colorScheme(scheme), chromedp.Navigate(m.Config.ConsoleURL+"/graphql"))
		if scheme == "light" {
			run(t, ctx, chromedp.WaitVisible(`#email`, chromedp.ByID),
				chromedp.SendKeys(`#email`, "admin@platform.example", chromedp.ByID), chromedp.Click(`#email-step button`, chromedp.ByQuery),
				providerPassword(DemoPassword))
		}
		run(t, ctx, chromedp.WaitVisible(`.graphiql-container`, chromedp.ByQuery), waitContains(`.graphiql-query-editor`, "query Example"))
		axeBoth(t, ctx, axe, "playground, "+scheme)
	}
}
