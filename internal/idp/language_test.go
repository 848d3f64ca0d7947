package idp

import (
	"context"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
)

// acceptLanguage sends an Accept-Language header with every request.
type acceptLanguage struct {
	base  http.RoundTripper
	value string
}

func (a acceptLanguage) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept-Language", a.value)
	return a.base.RoundTrip(r)
}

// browserSaying is a browser whose requests ask for the language accept.
func (ti *testIDP) browserSaying(accept string) *browser {
	b := ti.browser()
	b.client.Transport = acceptLanguage{base: http.DefaultTransport, value: accept}
	return b
}

// says reports whether page shows the text key in lang (as a page escapes it).
func says(page, lang, key string) bool {
	v := i18n.Catalogs[lang][key]
	return v != "" && strings.Contains(page, html.EscapeString(v))
}

// englishLeft answers the first English catalog text of more than three
// words that page shows, or "".
func englishLeft(page string) string {
	for k, v := range i18n.Catalogs["en"] {
		if len(strings.Fields(v)) > 3 && !strings.Contains(v, "%") && strings.Contains(page, html.EscapeString(v)) {
			return k
		}
	}
	return ""
}

// The sign-in page and its password error are in the language of the
// request's ui_locales, else of Accept-Language; <html lang> and
// Content-Language name it.
//
// spec: D-languages
func TestLoginPageLanguages(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	for i, c := range []struct{ ui, accept, want string }{
		{"de", "", "de"}, {"fr", "", "fr"}, {"es", "", "es"}, {"ja", "", "ja"},
		{"", "es-MX,es;q=0.8", "es"}, {"fr-CA de", "ja", "fr"}, {"", "", "en"},
	} {
		b := ti.browserSaying(c.accept)
		var extra []oauth2.AuthCodeOption
		if c.ui != "" {
			extra = append(extra, oauth2.SetAuthURLParam("ui_locales", c.ui))
		}
		resp, page := b.get(r.authURL(newFlow(), extra...))
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, `<html lang="`+c.want+`">`) ||
			resp.Header.Get("Content-Language") != c.want || !says(page, c.want, "Forgot your password?") {
			t.Fatalf("%+v: sign-in page %d %q:\n%s", c, resp.StatusCode, resp.Header.Get("Content-Language"), page)
		}
		resp, page = b.submitLogin(ti.issuer, page, fmt.Sprintf("nobody%d@a.example", i), "wrong guess")
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(page, `<html lang="`+c.want+`">`) ||
			!says(page, c.want, msgLoginFailed) {
			t.Fatalf("%+v: password error %d:\n%s", c, resp.StatusCode, page)
		}
		if left := englishLeft(page); c.want != "en" && left != "" {
			t.Errorf("%+v: English text %q left", c, left)
		}
	}
}

// csrfOf is the CSRF token of a page's forms.
func csrfOf(page string) string {
	for _, m := range anyHidden.FindAllStringSubmatch(page, -1) {
		if m[1] == "csrf" {
			return m[2]
		}
	}
	return ""
}

// A language saved on the account page wins over Accept-Language on the
// provider's pages, and the e-mails to that user are written in it, over a
// real SMTP server; a user who saved none gets the language of the request
// that caused the e-mail.
//
// spec: D-languages
func TestSavedLanguagePagesAndMail(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	smtp := mailtest.Start(t)
	worker := &mail.Worker{Store: ti.st, Sealer: ti.p.sealer, Sender: smtp.Sender(), From: "no-reply@platform.test", Now: ti.p.now}

	b := ti.browserSaying("fr")
	ti.login(b, ti.rp(), newFlow(), alice, goodPass)
	_, page := b.get(ti.issuer + PathAccount)
	if !strings.Contains(page, `<html lang="fr">`) || !says(page, "fr", "Where you are signed in") {
		t.Fatalf("account page before saving:\n%s", page)
	}
	form := url.Values{"locale": {"ja"}, "csrf": {csrfOf(page)}}
	resp, page := b.post(ti.issuer+PathAccountLanguage, form)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `<html lang="ja">`) || !says(page, "ja", "Your language was saved.") ||
		!says(page, "ja", "Where you are signed in") || !strings.Contains(page, `<option value="ja" lang="ja" selected>`) {
		t.Fatalf("after saving %d:\n%s", resp.StatusCode, page)
	}
	if left := englishLeft(page); left != "" {
		t.Errorf("account page: English text %q left", left)
	}
	// a language the pages are not written in is refused, nothing saved
	form.Set("locale", "xx-<b>")
	form.Set("csrf", csrfOf(page))
	if resp, page := b.post(ti.issuer+PathAccountLanguage, form); resp.StatusCode != http.StatusBadRequest ||
		!says(page, "ja", msgLanguageUnknown) || strings.Contains(page, "xx-&lt;b&gt;") {
		t.Fatalf("unknown language %d:\n%s", resp.StatusCode, page)
	}
	if u, err := ti.st.User(context.Background(), userAlice); err != nil || u.Locale != "ja" {
		t.Fatalf("saved locale %+v %v", u, err)
	}

	// forgot-password from a browser asking for Spanish: alice saved
	// Japanese, bob saved nothing
	for _, email := range []string{alice, bob} {
		o := ti.browserSaying("es")
		_, page := o.get(ti.issuer + PathPasswordForgot)
		if !strings.Contains(page, `<html lang="es">`) {
			t.Fatalf("forgot page:\n%s", page)
		}
		o.submitForm(ti.issuer+PathPasswordForgot, page, "email", email)
	}
	ti.p.WaitBackground()
	if _, err := worker.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	for email, c := range map[string]struct{ lang, org string }{alice: {"ja", orgA}, bob: {"es", orgB}} {
		lang := c.lang
		got := smtp.To(email)
		pr := i18n.For(i18n.Match(i18n.Saved(lang)))
		if len(got) != 1 || got[0].Subject != pr.T("Reset your password for %s", "Organization "+c.org) ||
			!strings.Contains(got[0].Text, pr.Text("The link works once and expires in 1 hour. Setting a new password signs you out everywhere.")) ||
			!strings.Contains(got[0].HTML, `<html lang="`+lang+`">`) {
			t.Fatalf("%s: want %s, got %+v", email, lang, got)
		}
	}
}

// Ui_locales and Accept-Language values that are huge, malformed or try
// header or HTML injection are bounded and ignored: the page is English,
// nothing of the value is reflected, no header is added, and the login
// transaction keeps nothing of it.
//
// attack: language-parameters
func TestAttackLanguageParameters(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	bad := []string{
		strings.Repeat("de ", 300),
		`de"><script>alert(1)</script>`,
		"de\r\nSet-Cookie: planted=1",
		"ja-" + strings.Repeat("x", 500),
		strings.Repeat("ko ", 30) + "fr",
	}
	for _, v := range bad {
		for _, viaHeader := range []bool{false, true} {
			var b *browser
			var extra []oauth2.AuthCodeOption
			if viaHeader {
				b = ti.browserSaying(strings.NewReplacer("\r", "", "\n", "").Replace(v)) // a client cannot send a header break
			} else {
				b = ti.browser()
				extra = append(extra, oauth2.SetAuthURLParam("ui_locales", v))
			}
			resp, page := b.get(r.authURL(newFlow(), extra...))
			if resp.StatusCode != http.StatusOK || !strings.Contains(page, `<html lang="en">`) ||
				resp.Header.Get("Content-Language") != "en" || resp.Header.Get("Set-Cookie") != "" && strings.Contains(resp.Header.Get("Set-Cookie"), "planted") ||
				strings.Contains(page, "<script>alert") || strings.Contains(page, "xxxxxxxx") {
				t.Fatalf("%q (header %v): %d %v\n%s", v, viaHeader, resp.StatusCode, resp.Header, page)
			}
			id := ""
			if m := anyHidden.FindAllStringSubmatch(page, -1); m != nil {
				for _, f := range m {
					if f[1] == "authRequestID" {
						id = f[2]
					}
				}
			}
			if a, err := ti.st.AuthRequest(context.Background(), id, ti.p.now()); err != nil || a.UILocales != "" {
				t.Fatalf("%q: transaction kept %+v %v", v, a, err)
			}
		}
	}
}

// Discovery advertises the languages of the pages.
//
// spec: D-languages
func TestDiscoveryUILocales(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	resp, body := ti.browser().get(ti.issuer + DiscoveryPath)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"ui_locales_supported":["en","de","fr","es","ja"]`) {
		t.Fatalf("discovery %d: %s", resp.StatusCode, body)
	}
}

// The saved language is the profile's locale claim of the ID token, which the
// console app shows itself in.
//
// spec: D-languages
func TestLocaleClaim(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	if err := ti.st.SetUserLocale(context.Background(), userAlice, "fr", ti.p.now()); err != nil {
		t.Fatal(err)
	}
	r, f := ti.rp(), newFlow()
	tok, err := r.exchange(f, ti.login(ti.browser(), r, f, alice, goodPass))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		t.Fatalf("id_token %q", raw)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || !strings.Contains(string(payload), `"locale":"fr"`) {
		t.Fatalf("id_token claims %s %v", payload, err)
	}
}
