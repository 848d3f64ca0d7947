package main

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/i18n"
)

// msgLoginFailed is the provider's answer to a wrong password (a catalog key).
const msgLoginFailed = "The e-mail address or password is incorrect."

// englishShown answers the first English catalog text of more than three
// words that a page's text shows, or "".
func englishShown(text string) string {
	for _, v := range i18n.Catalogs["en"] {
		if len(strings.Fields(v)) > 3 && !strings.Contains(v, "%") && strings.Contains(text, html.UnescapeString(v)) {
			return v
		}
	}
	return ""
}

// appText is a text of the console app's catalog of lang.
func appText(t *testing.T, lang, page, key string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "web", "console", "app", "src", "locales", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat map[string]map[string]string
	if err := json.Unmarshal(b, &cat); err != nil || cat[page][key] == "" {
		t.Fatalf("%s catalog: %v, %s.%s = %q", lang, err, page, key, cat[page][key])
	}
	return cat[page][key]
}

// The sign-in page, its password error and the account page in Chromium,
// per language: asked for with ui_locales at the console gateway (carried
// to the provider) and saved on the account page, or asked for by the
// browser's Accept-Language alone; each page names its language in <html
// lang>, shows that language's catalog texts and no English one, and the
// sign-in and account pages are axe-clean in every language; the console
// app follows the browser's language.
//
// spec: D-languages
func TestBrowserLanguages(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	src := axeSource(t)
	for _, c := range []struct{ name, ui, accept, want, email string }{
		{"ui_locales=de", "de", "", "de", "alice@acme.example"},
		{"ui_locales=fr", "fr", "", "fr", "bob@acme.example"},
		{"ui_locales=es", "es", "", "es", "dana@partner.example"},
		{"ui_locales=ja", "ja", "", "ja", "admin@platform.example"},
		// alice again, of a provider of its own (the first case saves her language)
		{"Accept-Language", "", "ja-JP,ja", "ja", "alice@acme.example"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := m
			if c.accept != "" {
				m = MustRunMain(t)
			}
			ctx := mustBrowser(t)
			cat := i18n.Catalogs[c.want]
			if c.accept != "" {
				var ua string
				run(t, ctx, chromedp.Evaluate(`navigator.userAgent`, &ua),
					chromedp.ActionFunc(func(ctx context.Context) error {
						return emulation.SetUserAgentOverride(ua).WithAcceptLanguage(c.accept).Do(ctx)
					}))
			}
			gateway := m.Config.ConsoleURL + "/"
			if c.ui != "" {
				gateway += "?ui_locales=" + c.ui
			}
			lang := func(want string) chromedp.Action {
				return waitTrue(`document.documentElement.lang === "` + want + `"`)
			}
			var heading, failure, page string
			run(t, ctx, gatewayEmail(gateway, c.email), lang(c.want))
			// an address of two organizations picks one
			run(t, ctx, waitTrue(`location.pathname.startsWith("/ui/login") || !!document.querySelector("#org-list button")`))
			run(t, ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				var choose bool
				if err := chromedp.Evaluate(`!!document.querySelector("#org-list button")`, &choose).Do(ctx); err != nil || !choose {
					return err
				}
				return chromedp.Click(`#org-list button`, chromedp.ByQuery).Do(ctx)
			}))
			run(t, ctx, chromedp.WaitVisible(`#password`, chromedp.ByID), lang(c.want), textOf(`h1`, &heading))
			axeCheck(t, ctx, src, "sign-in "+c.name)
			run(t, ctx, providerPassword("not the password"), waitShows(`#login-error`, ""), lang(c.want),
				textOf(`#login-error`, &failure), textOf(`body`, &page))
			if heading != cat["Sign in"] || failure != cat[msgLoginFailed] {
				t.Errorf("sign-in page %q, error %q", heading, failure)
			}
			if left := englishShown(page); left != "" {
				t.Errorf("sign-in page shows English %q", left)
			}
			axeCheck(t, ctx, src, "sign-in error "+c.name)
			run(t, ctx, providerPassword(DemoPassword), waitShows(`[data-testid="role"]`, ""))
			if c.accept != "" { // the console app follows navigator.languages
				run(t, ctx, lang(c.want), waitShows(`[data-testid="account-link"]`, appText(t, c.want, "shell", "yourAccount")))
			}
			run(t, ctx, chromedp.Navigate(m.Config.IssuerURL+"/ui/account"), waitShows(`#account-email`, "@"))
			if c.ui != "" { // the browser asks for English: save the language on the account page
				run(t, ctx, lang("en"), chromedp.SetValue(`#locale`, c.ui, chromedp.ByID),
					chromedp.Submit(`#locale`, chromedp.ByID), waitShows(`#account-notice`, cat["Your language was saved."]))
			}
			var account, sessions string
			run(t, ctx, lang(c.want), textOf(`h1`, &account), textOf(`#h-sessions`, &sessions), textOf(`body`, &page))
			if account != cat["Your account"] || sessions != cat["Where you are signed in"] {
				t.Errorf("account page %q, %q", account, sessions)
			}
			if left := englishShown(page); left != "" {
				t.Errorf("account page shows English %q", left)
			}
			axeCheck(t, ctx, src, "account "+c.name)
		})
	}
}
