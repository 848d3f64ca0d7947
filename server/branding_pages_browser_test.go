package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
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

// acmeDeviceCode registers a device-flow application of Acme, starts a
// device authorization for Acme's organization and returns its user code.
func acmeDeviceCode(t *testing.T, m *Main) string {
	t.Helper()
	if err := m.Store.CreateApplication(context.Background(), &platform.Application{AppID: "5c0e8a52-0000-4000-8000-0000000000f7",
		ClientID: "acme-tv", Name: "Acme TV", Kind: platform.AppPublic, DeviceFlow: true,
		CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(m.Config.IssuerURL+idp.PathDeviceAuthorization,
		url.Values{"client_id": {"acme-tv"}, "scope": {"openid " + idp.ScopeOrgPrefix + DemoAcmeOrgID}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		UserCode string `json:"user_code"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil || resp.StatusCode != http.StatusOK || d.UserCode == "" {
		t.Fatalf("device authorization: %d %v", resp.StatusCode, err)
	}
	return d.UserCode
}

// The pages around the sign-in carry the organization's brand once it is
// known, as the sign-in page does: the forgot-password form reached from
// a branded sign-in (its login transaction names the organization), in
// each of the five languages; and, for a signed-in user of Acme, the device
// sign-in page and the confirmation of a device of Acme, the authenticator set-up and its recovery codes, the
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
	// the confirmation of a device that asked for Acme's organization
	userCode := acmeDeviceCode(t, m)
	var confirm string
	run(t, ctx, chromedp.SendKeys(`#user_code`, userCode, chromedp.ByID), chromedp.Submit(`#user_code`, chromedp.ByID),
		waitShows(`main`, "Acme TV"), textOf(`main`, &confirm))
	brandedPage(t, ctx, axe, "device-confirm")

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
