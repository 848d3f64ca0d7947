package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/domains/dnstest"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/mail"
)

// A customer carries its own name, end to end: Acme's owner proves a
// domain in the console app against a real DNS server on loopback, Acme's
// logo and colour are set, and the owner picks German for Bob on his user
// page. Bob then signs in on Acme's branded page; the account page and the
// forgot-password form are Acme's and German; the reset e-mail he asks for
// there, read from the development mailbox, is German and carries Acme's
// name, logo and colour, and its link opens a branded German page.
//
// spec: D-branding, D-languages, D-verified-domains
func TestBrowserCustomerCarriesItsName(t *testing.T) {
	t.Parallel()
	d := dnstest.Start(t)
	m := mustRunMainWith(t, func(m *Main) { m.Config.DNSServer = d.Addr })
	axe := axeSource(t)
	de := i18n.Catalogs["de"]

	// the owner: a verified domain, the brand, Bob's language
	owner := mustBrowser(t)
	appSignIn(t, owner, m, "alice@acme.example")
	var value string
	run(t, owner, open(m, "/portal?tab=domains", "Acme Construction"), clickText("Add domain"), fill("Domain", "acme-build.example"),
		press("Add domain"), rowHas("domains-table", "acme-build.example", "pending"),
		textOf(`[data-testid="domain-value-acme-build.example"]`, &value))
	d.Publish("acme-build.example", value)
	run(t, owner, pressLabel("Verify acme-build.example"), rowHas("domains-table", "acme-build.example", "verified (dns)"))
	brandAcme(t, m)
	run(t, owner, open(m, "/portal/users/"+demoBobID, "Bob Brandt"), waitShows(`[data-testid="user-language"]`, ""),
		choose("Language of bob@acme.example", "de"), waitShows(`[data-testid="done"]`, "The language was saved"))
	axeCheck(t, owner, axe, "user page with its language")
	if u, err := m.Store.User(t.Context(), demoBobID); err != nil || u.Locale != "de" {
		t.Fatalf("Bob's saved language: %+v %v", u, err)
	}

	// Bob: the branded sign-in, then his pages in German
	ctx := mustBrowser(t)
	run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/", "bob@acme.example"), chromedp.WaitVisible(`#brand-logo`, chromedp.ByID),
		providerPassword(DemoPassword), waitShows(`[data-testid="role"]`, ""))
	var heading string
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathAccount), waitShows(`#account-email`, "bob@acme.example"),
		waitTrue(`document.documentElement.lang === "de"`), chromedp.WaitVisible(`#brand-logo`, chromedp.ByID), textOf(`h1`, &heading))
	if heading != de["Your account"] {
		t.Errorf("account page heading %q", heading)
	}
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+"/ui/password/forgot"), chromedp.WaitVisible(`#email`, chromedp.ByID),
		waitTrue(`document.documentElement.lang === "de"`), chromedp.WaitVisible(`#brand-logo`, chromedp.ByID), textOf(`h1`, &heading))
	if heading != de["Forgot your password?"] {
		t.Errorf("forgot page heading %q", heading)
	}
	run(t, ctx, chromedp.SendKeys(`#email`, "bob@acme.example", chromedp.ByID), chromedp.Submit(`#email`, chromedp.ByID),
		chromedp.WaitVisible(`#forgot-sent`, chromedp.ByID))
	m.IDP.WaitBackground()

	// the e-mail, from the development mailbox
	var subject, html, lang, logo, band string
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+mail.PathMailbox), waitShows(`table`, "bob@acme.example"),
		chromedp.Click(`//tr[td[normalize-space(.)="bob@acme.example"]]//a`, chromedp.BySearch),
		waitShows(`#message-subject`, ""), textOf(`#message-subject`, &subject),
		clickText("HTML version"), waitTrue(`!!document.querySelector("body div")`),
		chromedp.Evaluate(`document.documentElement.lang`, &lang),
		chromedp.Evaluate(`(document.querySelector("img") || {}).alt || ""`, &logo),
		chromedp.Evaluate(`(() => { const a = [...document.querySelectorAll("a")].find(a => a.href.includes("/ui/password/reset"));
			return a ? a.style.background + " " + a.href : ""; })()`, &band),
		chromedp.Evaluate(`document.body.innerHTML`, &html))
	if lang != "de" || logo != "Acme Construction" || !strings.Contains(band, "rgb(11, 93, 30)") || !strings.Contains(html, "/ui/brand/logo/") {
		t.Fatalf("the reset e-mail: lang %q, logo %q, button %q\n%s", lang, logo, band, html)
	}
	if left := englishShown(html); left != "" {
		t.Errorf("the e-mail shows English %q (subject %q)", left, subject)
	}
	link := band[strings.Index(band, "http"):]
	run(t, ctx, chromedp.Navigate(link), chromedp.WaitVisible(`#password`, chromedp.ByID),
		waitTrue(`document.documentElement.lang === "de"`), chromedp.WaitVisible(`#brand-logo`, chromedp.ByID))
	axeCheck(t, ctx, axe, "reset page from the e-mail")
}
