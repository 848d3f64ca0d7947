package idp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// startLogin sends b to the authorize endpoint and returns the id of the
// login transaction it was given (from the redirect to the login page),
// without following it.
func (b *browser) startLogin(authURL string) string {
	b.t.Helper()
	c := *b.client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(authURL)
	if err != nil {
		b.t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("authRequestID") == "" {
		b.t.Fatalf("authorize answered %d Location=%q, want the login page", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query().Get("authRequestID")
}

// assertNotDone fails when the login transaction id was completed.
func (ti *testIDP) assertNotDone(t *testing.T, id string) {
	t.Helper()
	a, err := ti.st.AuthRequest(context.Background(), id, ti.clock.now())
	if err != nil {
		t.Fatal(err)
	}
	if a.Done || a.UserID != "" || a.PendingUserID != "" {
		t.Fatalf("the attacker's transaction was advanced: done=%v user=%q pending=%q", a.Done, a.UserID, a.PendingUserID)
	}
}

// assertNoCode fails when the attacker's callback for id yields a code.
func (ti *testIDP) assertNoCode(t *testing.T, attacker *browser, id string) {
	t.Helper()
	resp, body := attacker.get(ti.issuer + PathAuthorize + "/callback?id=" + url.QueryEscape(id))
	if loc := resp.Header.Get("Location"); strings.Contains(loc, "code=") || strings.Contains(body, "code=") {
		t.Fatalf("the attacker got a code: %d %s", resp.StatusCode, loc)
	}
}

// The attacker starts a login with his own PKCE verifier and sends the login
// link to a victim. The victim's browser is refused before its session, its
// password or its second factor can complete the attacker's transaction, so
// the attacker never gets a code for the victim (D-login-binding).
// attack: login-transaction-hijack
func TestAttackLoginTransactionHijack(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	link := func(t *testing.T) (*browser, string) {
		attacker := ti.browser()
		return attacker, attacker.startLogin(r.authURL(newFlow()))
	}
	t.Run("VictimWithSession", func(t *testing.T) {
		victim := ti.browser()
		ti.login(victim, r, newFlow(), alice, goodPass)
		attacker, id := link(t)
		resp, body := victim.get(ti.issuer + PathLogin + "?authRequestID=" + id)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "another browser") {
			t.Fatalf("victim's session opened the attacker's login: %d at %s", resp.StatusCode, resp.Request.URL)
		}
		ti.assertNotDone(t, id)
		ti.assertNoCode(t, attacker, id)
	})
	t.Run("VictimSignsIn", func(t *testing.T) {
		victim := ti.browser()
		attacker, id := link(t)
		resp, body := victim.get(ti.issuer + PathLogin + "?authRequestID=" + id)
		if resp.StatusCode != http.StatusForbidden || strings.Contains(body, `name="password"`) {
			t.Fatalf("victim was shown a sign-in form for the attacker's login: %d", resp.StatusCode)
		}
		// the victim's own page gives him a CSRF token; he posts his password for X
		_, own := victim.get(r.authURL(newFlow()))
		resp, _ = victim.post(ti.issuer+PathLogin, url.Values{"authRequestID": {id}, "csrf": {extractField(own, "csrf")},
			"email": {alice}, "password": {goodPass}})
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("password posted for the attacker's login answered %d", resp.StatusCode)
		}
		ti.assertNotDone(t, id)
		ti.assertNoCode(t, attacker, id)
	})
	t.Run("VictimWithMFA", func(t *testing.T) {
		victim := ti.browser()
		ti.login(victim, r, newFlow(), bob, goodPass)
		secret, _ := ti.enrolTOTP(victim)
		attacker, id := link(t)
		// the attacker passed the password step for bob somewhere: only the code is missing
		if err := ti.st.SetPendingUser(context.Background(), id, userBob, []string{"pwd"}); err != nil {
			t.Fatal(err)
		}
		_, own := victim.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "login")))
		resp, _ := victim.post(ti.issuer+PathLoginOTP, url.Values{"authRequestID": {id}, "csrf": {extractField(own, "csrf")},
			"code": {ti.code(secret)}})
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("second factor posted for the attacker's login answered %d", resp.StatusCode)
		}
		a, _ := ti.st.AuthRequest(context.Background(), id, ti.clock.now())
		if a.Done {
			t.Fatal("the victim's code completed the attacker's login")
		}
		ti.assertNoCode(t, attacker, id)
	})
	t.Run("OwnBrowserStillWorks", func(t *testing.T) {
		ti.login(ti.browser(), r, newFlow(), alice, goodPass)
	})
}

// The step that issues the code answers only the browser that holds the
// transaction: a leaked callback URL gives another browser nothing, and the
// code is still issued once to the right browser.
// attack: code-callback-foreign-browser
func TestAttackCallbackForeignBrowser(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	victim := ti.browser()
	var callbackURL string
	victim.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.Path, PathAuthorize+"/callback") {
			callbackURL = req.URL.String()
			return http.ErrUseLastResponse
		}
		return nil
	}
	_, page := victim.get(r.authURL(newFlow()))
	victim.submitLogin(ti.issuer, page, alice, goodPass)
	if callbackURL == "" {
		t.Fatal("the login did not go through the callback")
	}
	resp, _ := ti.browser().get(callbackURL)
	if resp.StatusCode != http.StatusForbidden || strings.Contains(resp.Header.Get("Location"), "code=") {
		t.Fatalf("another browser at the callback: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	victim.client.CheckRedirect = ti.browser().client.CheckRedirect
	resp, _ = victim.get(callbackURL)
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("the right browser got no code: %v", q)
	}
	resp, _ = victim.get(callbackURL)
	if q, _ := url.Parse(resp.Header.Get("Location")); q != nil && q.Query().Get("code") != "" {
		t.Fatal("a second code was issued for one login")
	}
}

// A callback link from the attacker's own external login, opened in the
// victim's browser, neither signs the victim in to the attacker's account
// (login CSRF) nor ends the victim's provider session.
// attack: sso-login-csrf
func TestAttackSSOLoginCSRF(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ext := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	r := ti.rp()
	scope := "openid " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID

	attacker := ti.browser()
	var callbackURL string
	attacker.client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), ti.issuer+PathSSOCallback) {
			callbackURL = req.URL.String()
			return http.ErrUseLastResponse // the attacker stops here and sends the link
		}
		return nil
	}
	ti.ssoLoginWith(t, attacker, ext, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", scope)))
	if callbackURL == "" {
		t.Fatal("the attacker's external login did not reach our callback")
	}
	victim := ti.browser()
	ti.login(victim, r, newFlow(), alice, goodPass)
	resp, _ := victim.get(callbackURL)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("the attacker's callback in the victim's browser answered %d", resp.StatusCode)
	}
	if users, _ := ti.st.UsersByEmail(context.Background(), extEmail, orgB); len(users) != 0 {
		t.Fatal("the attacker's callback created an account")
	}
	f := newFlow()
	resp, _ = victim.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("the victim's session did not survive: %v", q)
	}
}

// A customer admin registers an external provider he controls and signs in
// through it with the owner's address (verified, as he says). The identity
// is not linked to the owner: the owner's own password is asked for, so the
// admin gets neither a code nor a link (D-linking).
// attack: rogue-provider-links-owner
func TestAttackRogueProviderLinksOwner(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ti.mustExistingUser(t, "owner") // the owner of customer B, with the provider's address
	rogue := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, rogue, passwordAndSSO())
	r := ti.rp()
	resp, body, _ := ti.ssoLogin(t, rogue, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope",
		"openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
	if strings.Contains(resp.Header.Get("Location"), "code=") || resp.StatusCode != http.StatusOK ||
		!strings.Contains(body, `name="password"`) {
		t.Fatalf("rogue provider login answered %d %s, want the owner's password form", resp.StatusCode, resp.Header.Get("Location"))
	}
	if uid, err := ti.st.LinkedUser(context.Background(), idpID, "id1"); err == nil {
		t.Fatalf("the rogue identity was linked to %s", uid)
	}
	// an organization that allows no password: the account cannot prove itself, nothing links
	ti2 := mustIDP(t)
	ti2.mustExistingUser(t, "owner")
	rogue2 := startExternalOP(t, ti2.issuer, nil)
	idp2 := ti2.mustSSOOrg(t, rogue2, ssoOnly(true))
	r2 := ti2.rp()
	resp, _, _ = ti2.ssoLogin(t, rogue2, r2.authURL(newFlow(), oauth2.SetAuthURLParam("scope",
		"openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idp2)))
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("SSO-only organization, existing account: %d, want the error page", resp.StatusCode)
	}
	if uid, err := ti2.st.LinkedUser(context.Background(), idp2, "id1"); err == nil {
		t.Fatalf("the rogue identity was linked to %s", uid)
	}
}

// A federated login does not skip the organization's forced MFA, nor the
// user's own second factor, unless the organization says the provider
// enforces MFA and the provider's amr agrees (D-federated-mfa).
// attack: federated-login-skips-mfa
func TestAttackFederatedLoginSkipsMFA(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	forced := ssoOnly(true)
	forced.MFAForced = true
	for _, tc := range []struct {
		name        string
		mfaEnforced bool
	}{{"ProviderNotTrustedForMFA", false}, {"ProviderAMRSaysPasswordOnly", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t)
			ext := startExternalOP(t, ti.issuer, nil)
			idpID := ti.mustSSOOrg(t, ext, forced)
			if tc.mfaEnforced {
				x, _ := ti.st.ExternalIDP(context.Background(), idpID)
				x.MFAEnforced = true
				if err := ti.st.UpdateExternalIDP(context.Background(), x); err != nil {
					t.Fatal(err)
				}
			}
			r := ti.rp()
			resp, body, _ := ti.ssoLogin(t, ext, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope",
				"openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
			if strings.Contains(resp.Header.Get("Location"), "code=") || !strings.Contains(body, "authenticator") {
				t.Fatalf("federated login under forced MFA: %d %s, want the second-factor set-up",
					resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}
}

// amrShowsMFA decides whether a provider said to enforce MFA proved it.
func TestAMRShowsMFA(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		amr  []string
		want bool
	}{{nil, true}, {[]string{"pwd"}, false}, {[]string{}, false}, {[]string{"pwd", "mfa"}, true},
		{[]string{"pwd", "otp"}, true}, {[]string{"hwk"}, true}, {[]string{"fed"}, false}} {
		if got := amrShowsMFA(tc.amr); got != tc.want {
			t.Errorf("amrShowsMFA(%q) = %v, want %v", tc.amr, got, tc.want)
		}
	}
}
