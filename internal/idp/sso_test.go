package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	exstorage "github.com/zitadel/oidc/v3/example/server/storage"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// externalOP is zitadel/oidc's example provider, started on a loopback port:
// an OpenID provider no one here wrote.
type externalOP struct {
	issuer string
	srv    *httptest.Server
}

const (
	extClientID, extSecret = "platform-rp", "platform-rp-secret"
	extPassword            = "verysecure"
	extEmail               = "test-user@zitadel.ch" // verified at the example provider
)

func startExternalOP(t *testing.T, ourIssuer string, users exstorage.UserStore, wrap ...func(http.Handler) http.Handler) *externalOP {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String() + "/"
	exstorage.RegisterClients(exstorage.WebClient(extClientID, extSecret, ourIssuer+PathSSOCallback))
	if users == nil {
		users = exstorage.NewUserStore(issuer)
	}
	var h http.Handler = exampleop.SetupServer(issuer, exstorage.NewStorage(users), nil, false)
	for _, w := range wrap {
		h = w(h)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return &externalOP{issuer: issuer, srv: srv}
}

// mustSSOOrg registers the external provider for org B through the
// management API and sets org B's policy; it returns the provider's id.
func (ti *testIDP) mustSSOOrg(t *testing.T, ext *externalOP, policy platform.LoginPolicy) string {
	t.Helper()
	m := ti.mgmtClient(t, true)
	code, x := m.do(http.MethodPost, "/organizations/"+orgB+"/identity-providers", map[string]any{
		"name": "Example SSO", "issuer": ext.issuer, "clientId": extClientID, "clientSecret": extSecret,
		"scopes": []string{"openid", "profile", "email"}})
	if code != http.StatusCreated {
		t.Fatalf("register provider = %d %v", code, x)
	}
	code, body := m.do(http.MethodPut, "/organizations/"+orgB+"/login-policy", policy)
	if code != http.StatusOK {
		t.Fatalf("policy = %d %v", code, body)
	}
	var stored idpView
	b, _ := json.Marshal(x)
	_ = json.Unmarshal(b, &stored)
	if _, err := ti.st.ExternalIDP(context.Background(), stored.ID); err != nil {
		t.Fatal(err)
	}
	return stored.ID
}

func ssoOnly(createUsers bool) platform.LoginPolicy {
	return platform.LoginPolicy{PasswordAllowed: false, SSOAllowed: true, SSOCreateUsers: createUsers,
		PasswordMinLength: 12, PasswordCheckCommon: true, LockoutMaxAttempts: 5, LockoutSeconds: 900,
		MFAByTOTP: true, MFAByPasskey: true, MFABySSO: true}
}

var extForm = regexp.MustCompile(`name="id" value="([^"]+)"`)

// ssoLoginBrowser is ssoLogin that also returns the browser, for the steps
// that follow on our pages.
func (ti *testIDP) ssoLoginBrowser(t *testing.T, ext *externalOP, authURL string) (*browser, *http.Response, string) {
	t.Helper()
	b := ti.browser()
	resp, body, _ := ti.ssoLoginWith(t, b, ext, authURL)
	return b, resp, body
}

// ssoLogin follows an authorize request through the external provider's
// login form and returns the final response and every URL the browser saw.
func (ti *testIDP) ssoLogin(t *testing.T, ext *externalOP, authURL string) (*http.Response, string, []string) {
	t.Helper()
	return ti.ssoLoginWith(t, ti.browser(), ext, authURL)
}

func (ti *testIDP) ssoLoginWith(t *testing.T, b *browser, ext *externalOP, authURL string) (*http.Response, string, []string) {
	t.Helper()
	var seen []string
	next := b.client.CheckRedirect
	b.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		seen = append(seen, req.URL.String())
		return next(req, via)
	}
	resp, page := b.get(authURL)
	m := extForm.FindStringSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil || !strings.HasPrefix(resp.Request.URL.String(), ext.issuer) {
		t.Fatalf("did not reach the external login form (%d at %s):\n%.500s", resp.StatusCode, resp.Request.URL, page)
	}
	host := strings.Split(strings.TrimPrefix(ext.issuer, "http://"), ":")[0]
	resp, body := b.post(ext.srv.URL+"/login/username", url.Values{"id": {m[1]}, "username": {"test-user@" + host},
		"password": {extPassword}})
	return resp, body, seen
}

// With the idp scope the provider skips its own login page and sends the
// user straight to the external provider; on return the new user gets our
// own sub and resource-owner claims.
// spec: R4.1-ro-sso, R5.4-skip, R1-idp
func TestSSOEndToEnd(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ext := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	r := ti.rp()
	scope := "openid profile email " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID

	f := newFlow()
	resp, body, seen := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", scope)))
	for i, u := range seen {
		// our login page only redirects: the next URL is the external provider's
		if strings.HasPrefix(u, ti.issuer+PathLogin) && (i+1 >= len(seen) || !strings.HasPrefix(seen[i+1], ext.issuer)) {
			t.Fatalf("our login page did not send the browser to the external provider: %v", seen)
		}
	}
	if strings.Contains(body, `name="password"`) {
		t.Fatal("a password form was shown")
	}
	q := callback(t, resp)
	tok, err := r.exchange(f, q.Get("code"))
	if err != nil {
		t.Fatalf("exchange after SSO: %v (callback %v)", err, q)
	}
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var c idClaims
	_ = idt.Claims(&c)
	if c.Sub == "" || c.Sub == "id1" || c.OrgID != orgB || c.Email != extEmail || strings.Join(c.AMR, " ") != "fed" {
		t.Fatalf("claims after SSO = %+v", c)
	}
	users, _ := ti.st.UsersByEmail(context.Background(), extEmail, orgB)
	if len(users) != 1 || users[0].ID != c.Sub {
		t.Fatalf("created user %v does not match sub %q", users, c.Sub)
	}

	t.Run("SecondLoginSameUser", func(t *testing.T) {
		f := newFlow()
		resp, _, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", scope)))
		tok, err := r.exchange(f, callback(t, resp).Get("code"))
		if err != nil {
			t.Fatal(err)
		}
		idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
		if idt.Subject != c.Sub {
			t.Fatalf("second SSO login is %q, first was %q", idt.Subject, c.Sub)
		}
	})
	t.Run("SSOOnlyOrgScopeAloneRedirects", func(t *testing.T) {
		// one provider and an SSO-only policy: the org scope alone goes straight there
		f := newFlow()
		resp, _, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", "openid email "+ScopeOrgPrefix+orgB)))
		if q := callback(t, resp); q.Get("code") == "" {
			t.Fatalf("callback = %v", q)
		}
	})
	t.Run("ErrPasswordRefused", func(t *testing.T) {
		// an SSO-only organization refuses a password post even for a real account
		b := ti.browser()
		_, page := b.get(r.authURL(newFlow())) // any form, for the CSRF cookie and token
		var loginURL string
		b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), ti.issuer+PathLogin) {
				loginURL = req.URL.String()
			}
			return http.ErrUseLastResponse
		}
		resp, _ := b.client.Get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB)))
		resp.Body.Close()
		u, _ := url.Parse(loginURL)
		resp, body := b.post(ti.issuer+PathLogin, url.Values{"authRequestID": {u.Query().Get("authRequestID")},
			"csrf": {extractField(page, "csrf")}, "email": {bob}, "password": {goodPass}})
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "identity provider") {
			t.Fatalf("password post to an SSO-only organization answered %d", resp.StatusCode)
		}
	})
}

// passwordAndSSO lets an organization's users sign in either way.
func passwordAndSSO() platform.LoginPolicy {
	p := ssoOnly(false)
	p.PasswordAllowed = true
	return p
}

// mustExistingUser adds a user of org B with the external provider's
// verified address and a password of its own.
func (ti *testIDP) mustExistingUser(t *testing.T, id string) {
	t.Helper()
	now := time.Now()
	hash, err := HashPassword(goodPass, ti.p.cfg.Password)
	if err != nil {
		t.Fatal(err)
	}
	if err := ti.st.CreateUser(context.Background(), &platform.User{ID: id, OrgID: orgB, Email: extEmail,
		EmailVerified: true, Name: "Existing", PasswordHash: hash, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
}

// An external identity whose address matches an existing account is linked
// only after that account proves itself with its own password (D-linking);
// after that the provider signs the user in directly.
func TestSSOLinkAfterAccountProof(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ti.mustExistingUser(t, "user-ext")
	ext := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, ext, passwordAndSSO())
	r := ti.rp()
	scope := "openid " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID

	b, resp, page := ti.ssoLoginBrowser(t, ext, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "link it to Example SSO") ||
		!strings.Contains(page, `value="`+extEmail+`"`) || !strings.Contains(page, "readonly") {
		t.Fatalf("first SSO login for an existing account did not ask for its password: %d\n%.800s", resp.StatusCode, page)
	}
	if _, err := ti.st.LinkedUser(context.Background(), idpID, "id1"); err == nil {
		t.Fatal("linked before the account proved itself")
	}
	t.Run("ErrWrongPassword", func(t *testing.T) {
		resp, body := b.submitForm(ti.issuer+PathLogin, page, "email", extEmail, "password", "wrong password")
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "link it to Example SSO") {
			t.Fatalf("wrong password answered %d", resp.StatusCode)
		}
		if _, err := ti.st.LinkedUser(context.Background(), idpID, "id1"); err == nil {
			t.Fatal("linked after a wrong password")
		}
		page = body
	})
	resp, _ = b.submitForm(ti.issuer+PathLogin, page, "email", extEmail, "password", goodPass)
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("proof of the account did not finish the login: %v", q)
	}
	if uid, err := ti.st.LinkedUser(context.Background(), idpID, "id1"); err != nil || uid != "user-ext" {
		t.Fatalf("link after the proof = %q, %v", uid, err)
	}
	t.Run("NextLoginDirect", func(t *testing.T) {
		f := newFlow()
		resp, _, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", scope)))
		tok, err := r.exchange(f, callback(t, resp).Get("code"))
		if err != nil {
			t.Fatal(err)
		}
		if idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string)); idt.Subject != "user-ext" {
			t.Fatalf("linked login signed in %q", idt.Subject)
		}
	})
}

// A provider a platform_admin trusts for linking links an existing account
// at once, but only for an address on a domain its customer verified.
func TestSSOTrustedProviderLinksVerifiedDomain(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	for _, tc := range []struct {
		name   string
		domain string
		linked bool
	}{{"VerifiedDomain", "zitadel.ch", true}, {"ErrOtherDomain", "other.example", false}} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t)
			ctx := context.Background()
			ti.mustExistingUser(t, "user-ext")
			if err := ti.st.CreateCustomer(ctx, &platform.Customer{ID: "cust-b", Name: "B", OrgID: orgB, CreatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if err := ti.st.AddCustomerDomain(ctx, tc.domain, "cust-b"); err != nil {
				t.Fatal(err)
			}
			ext := startExternalOP(t, ti.issuer, nil)
			idpID := ti.mustSSOOrg(t, ext, passwordAndSSO())
			x, _ := ti.st.ExternalIDP(ctx, idpID)
			x.LinkTrusted = true
			if err := ti.st.UpdateExternalIDP(ctx, x); err != nil {
				t.Fatal(err)
			}
			r := ti.rp()
			f := newFlow()
			resp, body, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
			if !tc.linked {
				if resp.StatusCode != http.StatusOK || !strings.Contains(body, "link it to Example SSO") {
					t.Fatalf("trusted provider outside the verified domains: %d, want the proof form", resp.StatusCode)
				}
				return
			}
			tok, err := r.exchange(f, callback(t, resp).Get("code"))
			if err != nil {
				t.Fatal(err)
			}
			if idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string)); idt.Subject != "user-ext" {
				t.Fatalf("sub = %q, want the existing user", idt.Subject)
			}
		})
	}
}

// An unverified external address never links to an existing account, and
// without account creation nothing is created either.
// attack: unverified-external-email-link
func TestSSOUnverifiedEmailNeverLinks(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	now := time.Now()
	if err := ti.st.CreateUser(context.Background(), &platform.User{ID: "victim", OrgID: orgB, Email: "victim@b.example",
		EmailVerified: true, Name: "Victim", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "users.json")
	_ = os.WriteFile(file, []byte(`{"id1":{"ID":"id1","Username":"test-user@127.0.0.1","Password":"verysecure",
		"FirstName":"Mallory","LastName":"M","Email":"victim@b.example","EmailVerified":false,"PreferredLanguage":"en"}}`), 0o600)
	users, err := exstorage.StoreFromFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ext := startExternalOP(t, ti.issuer, users)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	r := ti.rp()
	resp, body, _ := ti.ssoLogin(t, ext, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, "Reference:") {
		t.Fatalf("unverified e-mail: %d, want the generic error page with a reference\n%.300s", resp.StatusCode, body)
	}
	if linked, err := ti.st.LinkedUser(context.Background(), idpID, "id1"); err == nil {
		t.Fatalf("unverified identity linked to %s", linked)
	}
}

// The external state is single use and must match: a replayed or invented
// state is refused and changes nothing; an error from the provider shows the
// generic page.
// attack: sso-state-replay
func TestSSOStateReplayAndErrors(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ext := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	r := ti.rp()
	scope := "openid " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID
	var callbackURL string
	b := ti.browser()
	b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), ti.issuer+PathSSOCallback) {
			callbackURL = req.URL.String()
		}
		if strings.HasPrefix(req.URL.String(), appRedirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	_, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
	host := strings.Split(strings.TrimPrefix(ext.issuer, "http://"), ":")[0]
	resp, _ := b.post(ext.srv.URL+"/login/username", url.Values{"id": {extForm.FindStringSubmatch(page)[1]},
		"username": {"test-user@" + host}, "password": {extPassword}})
	if q := callback(t, resp); q.Get("code") == "" || callbackURL == "" {
		t.Fatalf("first SSO login failed: %v", q)
	}
	t.Run("ErrReplayedState", func(t *testing.T) {
		resp, body := ti.browser().get(callbackURL)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, msgExpired) {
			t.Fatalf("replayed callback answered %d", resp.StatusCode)
		}
	})
	t.Run("ErrInventedState", func(t *testing.T) {
		resp, _ := ti.browser().get(ti.issuer + PathSSOCallback + "?code=x&state=invented")
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("invented state answered %d", resp.StatusCode)
		}
	})
	t.Run("ErrProviderError", func(t *testing.T) {
		b := ti.browser()
		b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), ext.issuer) {
				return http.ErrUseLastResponse
			}
			return nil
		}
		resp, err := b.client.Get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		ext, _ := url.Parse(resp.Header.Get("Location"))
		state := ext.Query().Get("state")
		if state == "" || ext.Query().Get("code_challenge_method") != "S256" || ext.Query().Get("nonce") == "" {
			t.Fatalf("external authorize request lacks state, PKCE or nonce: %s", ext)
		}
		resp2, body := b.get(ti.issuer + PathSSOCallback + "?error=access_denied&state=" + url.QueryEscape(state))
		if resp2.StatusCode != http.StatusBadGateway || !strings.Contains(body, "Reference:") {
			t.Fatalf("provider error answered %d", resp2.StatusCode)
		}
	})
}

// A browser going to its organization's provider sees "Continuing to
// <provider>…", which moves on by itself without script; other clients get
// the redirect.
func TestSSOHandOffPage(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	ti.p.sso.handOff(rec, req, "Acme SSO", "https://sso.example/authorize?state=x&nonce=y")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "Continuing to Acme SSO…") ||
		!strings.Contains(body, `<meta http-equiv="refresh" content="0;url=https://sso.example/authorize?state=x&amp;nonce=y">`) ||
		!strings.Contains(body, `href="https://sso.example/authorize?state=x&amp;nonce=y"`) {
		t.Fatalf("hand-off page %d:\n%s", rec.Code, body)
	}
	rec = httptest.NewRecorder()
	ti.p.sso.handOff(rec, httptest.NewRequest(http.MethodGet, "/", nil), "Acme SSO", "https://sso.example/authorize")
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "https://sso.example/authorize" {
		t.Fatalf("plain client: %d %v", rec.Code, rec.Header())
	}
}
