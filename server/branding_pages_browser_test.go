package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/idp"
)

// brandedPage waits for the page of name to show Acme's logo, checks that it
// fits 390 px and is axe-clean in the light and the dark scheme.
func brandedPage(t *testing.T, ctx context.Context, axe, name string) {
	t.Helper()
	var overflow bool
	var alt, colors string
	run(t, ctx, waitTrue(`(() => { const i = document.getElementById("brand-logo"); return !!i && i.complete && i.naturalWidth === 240; })()`),
		chromedp.Evaluate(`document.getElementById("brand-logo").alt`, &alt),
		chromedp.Evaluate(`(() => { const b = document.querySelector("main button:not(.secondary), main a.button:not(.secondary)");
			return b ? getComputedStyle(b).backgroundColor : ""; })()`, &colors),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow), shot(t, ctx, "branded-"+name))
	if alt != "Acme Construction" || overflow {
		t.Errorf("%s: logo alt %q, wider than 390 px %v", name, alt, overflow)
	}
	if colors != "" && colors != "rgb(11, 93, 30)" {
		t.Errorf("%s: the button is %q, not the brand's colour", name, colors)
	}
	axeCheck(t, ctx, axe, name+" (light, 390 px)")
	run(t, ctx, colorScheme("dark"))
	axeCheck(t, ctx, axe, name+" (dark, 390 px)")
	run(t, ctx, colorScheme("light"))
}

// The pages around the sign-in carry the organization's brand once it is
// known, as the sign-in page does: the forgot-password form reached from
// a branded sign-in (its login transaction names the organization), in
// each of the five languages; and, for a signed-in user of Acme, the device
// sign-in page, the authenticator set-up and its recovery codes, the
// sign-out confirmation and the error page. Each is axe-clean at 390 px in
// the light and the dark scheme; the same forgot page without a branded
// transaction has the default look.
//
// spec: D-branding
func TestBrowserBrandedPages(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	axe := axeSource(t)
	brandAcme(t, m)
	ctx := mustBrowser(t)
	run(t, ctx, chromedp.EmulateViewport(390, 844))
	for _, lang := range []string{"en", "de", "fr", "es", "ja"} {
		cat := i18n.Catalogs[lang]
		var heading, page string
		run(t, ctx, gatewayEmail(m.Config.ConsoleURL+"/?ui_locales="+lang, "bob@acme.example"), chromedp.WaitVisible(`#password`, chromedp.ByID),
			chromedp.Click(`p.forgot a`, chromedp.ByQuery), waitTrue(`location.pathname === "/ui/password/forgot"`),
			waitTrue(`document.documentElement.lang === "`+lang+`"`), textOf(`h1`, &heading), textOf(`body`, &page))
		if heading != cat["Forgot your password?"] {
			t.Errorf("forgot page in %s: heading %q", lang, heading)
		}
		if left := englishShown(page); lang != "en" && left != "" {
			t.Errorf("forgot page in %s shows English %q", lang, left)
		}
		if lang == "en" || lang == "ja" {
			brandedPage(t, ctx, axe, "forgot-"+lang)
		} else {
			run(t, ctx, waitTrue(`!!document.getElementById("brand-logo")`))
		}
	}
	// without a login transaction, and nobody signed in: the default look
	var brand bool
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+"/ui/password/forgot"), chromedp.WaitVisible(`#email`, chromedp.ByID),
		chromedp.Evaluate(`!!document.getElementById("brand")`, &brand))
	if brand {
		t.Error("the forgot page without a transaction shows a brand")
	}

	appSignIn(t, ctx, m, "bob@acme.example")
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathDevice), chromedp.WaitVisible(`#user_code`, chromedp.ByID))
	brandedPage(t, ctx, axe, "device")

	var secret string
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathAccountMFA), waitShows(`#totp-secret`, ""), textOf(`#totp-secret`, &secret))
	brandedPage(t, ctx, axe, "mfa-setup")
	code, err := totp.GenerateCode(strings.TrimSpace(secret), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.SendKeys(`#code`, code, chromedp.ByID), chromedp.Submit(`#code`, chromedp.ByID),
		waitTrue(`!!document.getElementById("codes-text")`))
	brandedPage(t, ctx, axe, "recovery-codes")

	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathEndSession), waitTrue(`!!document.getElementById("logout")`))
	brandedPage(t, ctx, axe, "logout")

	var title string
	run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+idp.PathLogin+"?authRequestID=no-such-request"),
		waitTrue(`!!document.querySelector("p[role=alert]")`), textOf(`h1`, &title))
	brandedPage(t, ctx, axe, "error")
	if title == "" {
		t.Error("the error page has no heading")
	}
}
