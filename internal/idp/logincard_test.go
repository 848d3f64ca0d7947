package idp

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// The sign-in card names the application and, with an org scope, the
// organization; an address from the gateway is read-only with "Not you?",
// which opens the same form with the field empty and editable.
func TestLoginCard(t *testing.T) {
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgA),
		oauth2.SetAuthURLParam("login_hint", alice)))
	if !strings.Contains(page, `<span id="login-app">App</span>`) || !strings.Contains(page, `<span id="login-org">Organization `+orgA+`</span>`) {
		t.Fatalf("card does not name the application and organization:\n%s", page)
	}
	if !strings.Contains(page, `value="`+alice+`"`) || !strings.Contains(page, "readonly") || !strings.Contains(page, "Not you?") {
		t.Fatalf("the gateway's address is not read-only with Not you?:\n%s", page)
	}
	other := extractHref(page, "not-you")
	_, page = b.get(ti.issuer + other)
	if strings.Contains(page, `value="`+alice+`"`) || strings.Contains(page, "readonly") || !strings.Contains(page, `name="email"`) {
		t.Fatalf("Not you? keeps the address:\n%s", page)
	}
	// the form still signs in whoever the user is
	resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatal("no code after Not you?")
	}
}

func extractHref(page, id string) string {
	i := strings.Index(page, `id="`+id+`" href="`)
	if i < 0 {
		return ""
	}
	rest := page[i+len(`id="`+id+`" href="`):]
	href := rest[:strings.Index(rest, `"`)]
	return strings.ReplaceAll(href, "&amp;", "&")
}

// A wrong recovery code keeps the recovery form open with the error beside
// it, instead of sending the user back to the authenticator code.
func TestRecoveryCodeErrorKeepsPlace(t *testing.T) {
	ti := mustIDP(t)
	b := ti.signedIn()
	ti.enrolTOTP(b)
	r := ti.rp()
	_, page := ti.passwordStep(b, r, newFlow(), alice)
	resp, again := b.submit(ti.issuer, page, PathLoginOTP, url.Values{"recovery": {"1"}, "code": {"wrong-code"}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(again, "<details open>") ||
		!strings.Contains(again, `id="recovery-error"`) || strings.Contains(again, `id="otp-error"`) {
		t.Fatalf("after a wrong recovery code %d:\n%s", resp.StatusCode, again)
	}
	resp, again = b.submit(ti.issuer, again, PathLoginOTP, url.Values{"code": {"000000"}})
	if resp.StatusCode != http.StatusUnauthorized || strings.Contains(again, "<details open>") || !strings.Contains(again, `id="otp-error"`) {
		t.Fatalf("after a wrong authenticator code %d:\n%s", resp.StatusCode, again)
	}
}
