package idp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// brandOrgB makes orgB a customer's organization with a display name, a
// colour and a logo, and answers the logo's hash.
func brandOrgB(t *testing.T, ti *testIDP) string {
	t.Helper()
	ctx, now := context.Background(), time.Now().UTC()
	if err := ti.st.CreateCustomer(ctx, &platform.Customer{ID: "cust-b", Name: "B", OrgID: orgB, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	logo, err := branding.ProcessLogo([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x0b\x5d\x1e\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ti.st.PutLogo(ctx, &store.Logo{SHA256: logo.SHA256, PNG: logo.PNG, Width: logo.Width, Height: logo.Height}, now); err != nil {
		t.Fatal(err)
	}
	if err := ti.st.PutBranding(ctx, &store.Branding{CustomerID: "cust-b", DisplayName: "Beta Builders", PrimaryColor: "#0b5d1e",
		LogoSHA256: logo.SHA256, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	return logo.SHA256
}

// The sign-in page of an auth request that names a branded organization
// (its org scope, as the console gateway sends it) shows the logo and
// loads the colour's style sheet; both are served content-addressed,
// immutable, with their type and nosniff. Without the org scope, and for
// an unbranded organization, the page has the default look.
func TestBrandedSignInPage(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	sha := brandOrgB(t, ti)
	r := ti.rp()
	page := func(scope string) string {
		_, body := ti.browser().get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
		return body
	}
	body := page("openid " + ScopeOrgPrefix + orgB)
	for _, want := range []string{`<img id="brand-logo" src="` + branding.LogoPath(sha) + `" alt="Beta Builders">`,
		`<link rel="stylesheet" href="/ui/brand/style/0b5d1e.css">`} {
		if !strings.Contains(body, want) {
			t.Errorf("branded page lacks %q:\n%s", want, body)
		}
	}
	for _, scope := range []string{"openid", "openid " + ScopeOrgPrefix + orgA} {
		if body := page(scope); strings.Contains(body, "/ui/brand/") || strings.Contains(body, `id="brand"`) {
			t.Errorf("scope %q: not the default look:\n%s", scope, body)
		}
	}
	for _, c := range []struct{ path, ctype, body string }{
		{branding.LogoPath(sha), "image/png", "\x89PNG"},
		{"/ui/brand/style/0b5d1e.css", "text/css; charset=utf-8", ":root { --brand: #0b5d1e; --brand-text: #ffffff; }"},
	} {
		resp, err := http.Get(ti.issuer + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Type") != c.ctype || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.HasPrefix(string(b), c.body) {
			t.Errorf("GET %s: %d %v %q", c.path, resp.StatusCode, h, b)
		}
	}
}

// Names that are not a logo's hash or a colour answer 404: nothing of the
// path reaches the style sheet.
// attack: brand-style-injection
func TestAttackBrandAssetNames(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	for _, p := range []string{"/ui/brand/style/red;background:url(x).css", "/ui/brand/style/0b5d1e%7D%20body%7Bx.css",
		"/ui/brand/style/0B5D1E.css", "/ui/brand/style/0b5d1e", "/ui/brand/style/fff.css",
		"/ui/brand/logo/" + strings.Repeat("a", 64) + ".png", "/ui/brand/logo/..%2f..%2fetc.png", "/ui/brand/logo/x.svg"} {
		resp, err := http.Get(ti.issuer + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || strings.Contains(string(b), "background") {
			t.Errorf("GET %s: %d %q", p, resp.StatusCode, b)
		}
	}
}

// A reset link of a branded organization's user opens the set-password
// page in the organization's look; the account page once signed in too.
func TestBrandedLinkAndAccountPages(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	sha := brandOrgB(t, ti)
	_, body := ti.browser().get(ti.link(userBob, store.TokenReset, PathPasswordReset, time.Hour))
	if !strings.Contains(body, `src="`+branding.LogoPath(sha)+`"`) || !strings.Contains(body, "/ui/brand/style/0b5d1e.css") {
		t.Errorf("set-password page not branded:\n%s", body)
	}
	b := ti.browser()
	ti.login(b, ti.rp(), newFlow(), bob, goodPass)
	if _, body := b.get(ti.issuer + PathAccount); !strings.Contains(body, `id="brand-logo"`) {
		t.Errorf("account page not branded:\n%s", body)
	}
	_, body = ti.browser().get(ti.link(userAlice, store.TokenReset, PathPasswordReset, time.Hour))
	if strings.Contains(body, "/ui/brand/") {
		t.Errorf("an unbranded organization's page is branded:\n%s", body)
	}
}
