package idp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// providerB registers an external provider for org B that nothing dials
// (its issuer does not resolve), so org B may turn to SSO only.
func (ti *testIDP) providerB(t *testing.T) {
	t.Helper()
	if err := ti.p.RegisterExternalIDP(context.Background(), &platform.ExternalIDP{ID: "idp-b", OrgID: orgB, Name: "B Directory",
		Issuer: "https://sso.b.example/", ClientID: "platform", Scopes: []string{"openid", "email"}, CreatedAt: time.Now()},
		"directory-secret", false); err != nil {
		t.Fatal(err)
	}
}

// ssoOnlyB turns org B (Bob's, who has a password) to SSO only.
func (ti *testIDP) ssoOnlyB(t *testing.T) {
	t.Helper()
	ti.setPolicy(orgB, func(p *platform.LoginPolicy) { p.PasswordAllowed, p.SSOAllowed, p.SSOCreateUsers = false, true, true })
}

// stopOutside makes b stop at any redirect away from the provider and the
// client (an external provider), as when it does not answer.
func (ti *testIDP) stopOutside(b *browser) {
	b.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if u := req.URL.String(); strings.HasPrefix(u, appRedirect) || !strings.HasPrefix(u, ti.issuer) {
			return http.ErrUseLastResponse
		}
		return nil
	}
}

// hiddenValues hides what differs between two renderings of one page
// (the transaction, the CSRF token).
var hiddenValues = regexp.MustCompile(`name="(authRequestID|csrf)" value="[^"]*"|authRequestID=[^"&]*`)

// An SSO-only organization's user (Bob, whose account still has a
// password from before) signs in with that password: without an org
// scope (an authorization request sent straight to the authorize
// endpoint), with one, and through the device flow. Every way is refused;
// without the scope the answer is a wrong password's, byte for byte but
// the tokens, at the cost of one hash, and no session starts.
//
// attack: sso-only-password-sign-in
func TestAttackSSOOnlyPasswordSignIn(t *testing.T) {
	ti := mustIDP(t)
	ti.withDeviceApp()
	ti.providerB(t)
	ti.ssoOnlyB(t)
	r := ti.rp()
	ti.p.factors.hashes = new(atomic.Int64)
	attempt := func(email, password string) (int, string) {
		t.Helper()
		b := ti.browser()
		_, page := b.get(r.authURL(newFlow()))
		before := ti.p.factors.hashes.Load()
		resp, body := b.submitLogin(ti.issuer, page, email, password)
		if n := ti.p.factors.hashes.Load() - before; n != 1 {
			t.Fatalf("%s: %d password hashes, want 1 as for a wrong password", email, n)
		}
		if loc := resp.Header.Get("Location"); loc != "" {
			t.Fatalf("%s: redirected to %s", email, loc)
		}
		return resp.StatusCode, hiddenValues.ReplaceAllString(body, "")
	}
	wrongStatus, wrongPage := attempt(bob, "a wrong password")
	status, page := attempt(bob, goodPass)
	if status != http.StatusUnauthorized || status != wrongStatus || page != wrongPage || !strings.Contains(page, msgLoginFailed) {
		t.Fatalf("right password of an SSO-only account: %d, want the wrong password's %d and page\n%s", status, wrongStatus, page)
	}
	if status, _ := attempt("nobody@b.example", goodPass); status != wrongStatus {
		t.Fatalf("unknown address answered %d, the SSO-only account %d", status, wrongStatus)
	}

	t.Run("OrgScope", func(t *testing.T) {
		b := ti.browser()
		csrf := ti.ownCSRF(b)
		ti.stopOutside(b)
		var loginURL string
		next := b.client.CheckRedirect
		b.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), ti.issuer+PathLogin) {
				loginURL = req.URL.String()
			}
			return next(req, via)
		}
		b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB)))
		u, _ := url.Parse(loginURL)
		resp, body := b.post(ti.issuer+PathLogin, url.Values{"authRequestID": {u.Query().Get("authRequestID")},
			"csrf": {csrf}, "email": {bob}, "password": {goodPass}})
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "identity provider") {
			t.Fatalf("org-scoped password post answered %d", resp.StatusCode)
		}
	})

	t.Run("DeviceFlow", func(t *testing.T) {
		status, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid email"}})
		if status != http.StatusOK {
			t.Fatalf("device authorization = %d %v", status, d)
		}
		b := ti.browser()
		_, page := ti.enterCode(b, d["verification_uri_complete"].(string), "approve")
		before := ti.p.factors.hashes.Load()
		resp, body := b.submitLogin(ti.issuer, page, bob, goodPass)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgLoginFailed) || strings.Contains(body, "Device signed in") {
			t.Fatalf("device sign-in with an SSO-only account's password: %d\n%.600s", resp.StatusCode, body)
		}
		if n := ti.p.factors.hashes.Load() - before; n != 1 {
			t.Fatalf("%d hashes, want 1", n)
		}
		ti.clock.offset += 6 * time.Second
		if _, out := ti.pollDevice(t, deviceClientID, d["device_code"].(string)); out["error"] != "authorization_pending" {
			t.Fatalf("the device's poll = %v, want authorization_pending", out)
		}
	})

	if sessions, err := ti.st.UserSessions(context.Background(), userBob, ti.p.now()); err != nil || len(sessions) != 0 {
		t.Fatalf("Bob has %d provider sessions (%v), want none", len(sessions), err)
	}
}

// Bob signs in with his password while his organization allows it; the
// organization then turns to SSO only. His password session answers no
// later request, with the organization's scope or without it, silent or
// interactive, and opens no account page: a session whose method the
// account's policy no longer allows satisfies nothing.
//
// attack: sso-only-password-session
func TestAttackSSOOnlyPasswordSession(t *testing.T) {
	ti := mustIDP(t)
	ti.providerB(t)
	ti.setPolicy(orgB, func(p *platform.LoginPolicy) { p.PasswordAllowed, p.SSOAllowed = true, true })
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), bob, goodPass)
	silent := func(scope string) url.Values {
		t.Helper()
		resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none"), oauth2.SetAuthURLParam("scope", scope)))
		return callback(t, resp)
	}
	scoped := "openid email " + ScopeOrgPrefix + orgB
	if q := silent(scoped); q.Get("code") == "" {
		t.Fatalf("while passwords are allowed the session answers: %v", q)
	}

	ti.ssoOnlyB(t)
	for _, scope := range []string{scoped, "openid email"} {
		if q := silent(scope); q.Get("code") != "" || q.Get("error") != "login_required" {
			t.Fatalf("prompt=none %q with a password session of an SSO-only account: %v", scope, q)
		}
	}
	// interactive: on to the organization's provider (whose discovery this
	// test does not answer), never back to the client
	ti.stopOutside(b)
	resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scoped)))
	if loc := resp.Header.Get("Location"); strings.HasPrefix(loc, appRedirect) || resp.Request.URL.Path != PathSSOStart {
		t.Fatalf("interactive org-scoped request ended at %s (%d, Location %q), want the SSO start", resp.Request.URL, resp.StatusCode, loc)
	}
	if resp, body := b.get(ti.issuer + PathAccount); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Sign in first") {
		t.Fatalf("account page of the password session: %d", resp.StatusCode)
	}
}

// Links mailed before an organization turned to SSO only (or an
// invitation into one) set no password: the invitation page says the
// organization signs in through its provider and links to sign-in; a
// password posted anyway is refused, the link stays unspent. A reset
// asked for mails no link (a message that sign-in is by SSO), and the page
// answers as for any address.
//
// attack: sso-only-password-by-link
func TestAttackSSOOnlyPasswordByLink(t *testing.T) {
	ti := mustIDP(t, func(c *Config) { c.ConsoleURL = "http://console.test" })
	ti.providerB(t)
	ti.ssoOnlyB(t)
	ctx, now := context.Background(), time.Now().UTC()
	if err := ti.st.CreateUser(ctx, &platform.User{ID: "invited", OrgID: orgB, Email: "invited@b.example", Name: "Invited",
		CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, userID, kind, path string
	}{
		{"Invitation", "invited", store.TokenInvitation, PathInvitation},
		{"Reset", userBob, store.TokenReset, PathPasswordReset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			link := ti.link(tc.userID, tc.kind, tc.path, time.Hour)
			token := strings.TrimPrefix(link, ti.issuer+tc.path+"?token=")
			b := ti.browser()
			resp, page := b.get(link)
			if resp.StatusCode != http.StatusOK || strings.Contains(page, `name="password"`) ||
				!strings.Contains(page, "no password to set") || !strings.Contains(page, `href="http://console.test/"`) {
				t.Fatalf("link page %d:\n%s", resp.StatusCode, page)
			}
			before, _ := ti.st.User(ctx, tc.userID)
			resp, body := b.post(ti.issuer+tc.path, url.Values{"token": {token}, "csrf": {ti.ownCSRF(b)},
				"password": {newPass}, "confirm": {newPass}})
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "no password to set") {
				t.Fatalf("password posted to the link: %d\n%.500s", resp.StatusCode, body)
			}
			after, _ := ti.st.User(ctx, tc.userID)
			if after.PasswordHash != before.PasswordHash {
				t.Fatal("the link set a password in an SSO-only organization")
			}
			if _, err := ti.st.AccountToken(ctx, mail.TokenHash(token), tc.kind, ti.p.now()); err != nil {
				t.Fatalf("the refused link was spent: %v", err)
			}
		})
	}

	t.Run("ForgotPassword", func(t *testing.T) {
		b := ti.browser()
		_, form := b.get(ti.issuer + PathPasswordForgot)
		respKnown, known := b.submitForm(ti.issuer+PathPasswordForgot, form, "email", bob)
		_, form = b.get(ti.issuer + PathPasswordForgot)
		respUnknown, unknown := b.submitForm(ti.issuer+PathPasswordForgot, form, "email", "nobody@b.example")
		if respKnown.StatusCode != respUnknown.StatusCode ||
			csrfValue.ReplaceAllString(strings.ReplaceAll(known, bob, ""), "") != csrfValue.ReplaceAllString(strings.ReplaceAll(unknown, "nobody@b.example", ""), "") {
			t.Fatal("forgot password answers an SSO-only account differently from an unknown address")
		}
		got := ti.mails(bob)
		if len(got) != 1 || !strings.Contains(got[0].Subject, "no password to reset") || strings.Contains(got[0].Text, "token=") ||
			!strings.Contains(got[0].Text, "http://console.test/") {
			t.Fatalf("messages to an SSO-only account after forgot password: %+v", got)
		}
	})
}

// The management API creates no user with a password in an organization
// that allows no password sign-in; without one it does.
func TestManagementNoPasswordInSSOOnlyOrg(t *testing.T) {
	ti := mustIDP(t)
	ti.providerB(t)
	ti.ssoOnlyB(t)
	m := ti.mgmtClient(t, true)
	code, body := m.do(http.MethodPost, "/users", map[string]any{"orgId": orgB, "email": "new@b.example", "name": "New",
		"password": "a long enough passphrase"})
	if code != http.StatusBadRequest || !strings.Contains(strings.ToLower(fmt.Sprint(body)), "no password sign-in") {
		t.Fatalf("user with a password in an SSO-only organization = %d %v", code, body)
	}
	if users, _ := ti.st.UsersByEmail(context.Background(), "new@b.example", ""); len(users) != 0 {
		t.Fatalf("%d users created", len(users))
	}
	if code, body := m.do(http.MethodPost, "/users", map[string]any{"orgId": orgB, "email": "new@b.example", "name": "New"}); code != http.StatusCreated {
		t.Fatalf("user without a password = %d %v", code, body)
	}
}
