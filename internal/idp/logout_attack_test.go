package idp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// silentLoginWorks reports whether b's provider session still answers
// prompt=none with a code.
func (ti *testIDP) silentLoginWorks(t *testing.T, b *browser, r *rp) bool {
	t.Helper()
	resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
	return callback(t, resp).Get("code") != ""
}

// end_session without an id_token_hint ends the browser's own provider
// session once the user confirms: a following prompt=none gets
// login_required, not a code.
// attack: logout-without-hint-keeps-session
func TestAttackLogoutWithoutHint(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	resp, page := b.get(ti.issuer + PathEndSession)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `action="/oidc/v1/end_session"`) || strings.Contains(page, "<script>") {
		t.Fatalf("end_session without a hint: %d, want a confirmation page that does not submit itself", resp.StatusCode)
	}
	resp, _ = b.submitForm(ti.issuer+PathEndSession, page)
	if resp.Request.URL.Path != PathLoggedOut {
		t.Fatalf("confirmed sign-out ended at %s (%d)", resp.Request.URL, resp.StatusCode)
	}
	if ti.silentLoginWorks(t, b, r) {
		t.Fatal("the provider session survived end_session without a hint")
	}
}

// A link or an image cannot sign anyone out: a GET of end_session (without a
// hint, or with another user's id_token) and of the signed-out page ends no
// session, and a POST without the page's CSRF token is refused.
// attack: logout-csrf
func TestAttackLogoutCSRF(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	bobToken, _ := ti.loginTokens(r, bob)
	victim := ti.browser()
	ti.login(victim, r, newFlow(), alice, goodPass)
	for name, u := range map[string]string{
		"EndSessionGET":         ti.issuer + PathEndSession,
		"EndSessionForeignHint": ti.issuer + PathEndSession + "?id_token_hint=" + url.QueryEscape(bobToken.Extra("id_token").(string)),
		"LoggedOutPage":         ti.issuer + PathLoggedOut,
	} {
		t.Run(name, func(t *testing.T) {
			_, page := victim.get(u)
			if strings.Contains(page, "<script>") {
				t.Fatal("a foreign hint made the confirmation submit itself")
			}
			if !ti.silentLoginWorks(t, victim, r) {
				t.Fatal("a GET signed the victim out")
			}
		})
	}
	t.Run("PostWithoutCSRF", func(t *testing.T) {
		resp, _ := victim.post(ti.issuer+PathEndSession, url.Values{})
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("sign-out POST without the CSRF token answered %d", resp.StatusCode)
		}
		if !ti.silentLoginWorks(t, victim, r) {
			t.Fatal("a cross-site POST signed the victim out")
		}
	})
}

// An id_token_hint names the user the request is for: bob's id_token in
// alice's browser gets login_required with prompt=none, and the sign-in form
// for bob otherwise, never a code for alice (OIDC Core 3.1.2.2).
// attack: foreign-id-token-hint
func TestAttackForeignIDTokenHint(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	bobToken, _ := ti.loginTokens(r, bob)
	hint := oauth2.SetAuthURLParam("id_token_hint", bobToken.Extra("id_token").(string))
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none"), hint))
	if q := callback(t, resp); q.Get("error") != "login_required" {
		t.Fatalf("prompt=none with bob's hint in alice's browser: %v", q)
	}
	resp, page := b.get(r.authURL(newFlow(), hint))
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `value="`+bob+`"`) {
		t.Fatalf("interactive login with bob's hint: %d, want the form for bob", resp.StatusCode)
	}
	t.Run("OwnHint", func(t *testing.T) {
		aliceToken, _ := ti.loginTokens(r, alice)
		resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none"),
			oauth2.SetAuthURLParam("id_token_hint", aliceToken.Extra("id_token").(string))))
		if q := callback(t, resp); q.Get("code") == "" {
			t.Fatalf("prompt=none with alice's own hint: %v", q)
		}
	})
}

// Discovery lists exactly what works: the code flow, and the grants and
// client authentication methods the token endpoint serves. A grant it lists
// as unsupported is refused as such.
// attack: discovery-overclaims
func TestAttackDiscoveryHonest(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	resp, err := http.Get(ti.issuer + DiscoveryPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		ResponseTypes []string `json:"response_types_supported"`
		Grants        []string `json:"grant_types_supported"`
		Device        string   `json:"device_authorization_endpoint"`
		AuthMethods   []string `json:"token_endpoint_auth_methods_supported"`
		Challenge     []string `json:"code_challenge_methods_supported"`
		Claims        []string `json:"claims_supported"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		t.Fatal(err)
	}
	want := []string{"authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code",
		"urn:ietf:params:oauth:grant-type:token-exchange"} // D-impersonation
	if !slices.Equal(d.ResponseTypes, []string{"code"}) || !slices.Equal(d.Grants, want) || d.Device != ti.issuer+PathDeviceAuthorization ||
		!slices.Equal(d.AuthMethods, []string{"none", "client_secret_basic", "client_secret_post", "private_key_jwt"}) || !slices.Equal(d.Challenge, []string{"S256"}) ||
		slices.Contains(d.Claims, "phone_number") {
		t.Fatalf("discovery claims more than works: %+v", d)
	}
	for _, grant := range []string{"urn:ietf:params:oauth:grant-type:jwt-bearer", "password", "implicit"} {
		resp, err := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {grant}, "client_id": {appClientID}})
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.Error != "unsupported_grant_type" {
			t.Errorf("grant %s: %d %q, want 400 unsupported_grant_type", grant, resp.StatusCode, e.Error)
		}
	}
	for _, rt := range []string{"token", "id_token", "code id_token"} {
		q := baseAuthorize()
		q.Set("response_type", rt)
		resp := ti.authorize(t, q)
		if loc := resp.Header.Get("Location"); strings.Contains(loc, PathLogin) {
			t.Errorf("response_type %q reached the login page", rt)
		}
	}
}

// Every refused bearer request at userinfo answers 401 with
// WWW-Authenticate (RFC 6750 section 3): no token, a forged one, a revoked one.
// attack: bearer-challenge
func TestAttackUserinfoChallenge(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	tok, _ := ti.loginTokens(r, alice)
	ti.mustServiceApp()
	for name, auth := range map[string]string{
		"NoToken":    "",
		"Forged":     "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
		"NotAJWT":    "Bearer nonsense",
		"BasicOnly":  "Basic YTpi",
		"Revoked":    "revoke",
		"ValidToken": "Bearer " + tok.AccessToken,
	} {
		t.Run(name, func(t *testing.T) {
			if auth == "revoke" {
				tok2, _ := ti.loginTokens(r, alice)
				if code := ti.revoke(t, tok2.AccessToken); code != http.StatusOK {
					t.Fatalf("revoke = %d", code)
				}
				auth = "Bearer " + tok2.AccessToken
			}
			req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathUserinfo, nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if name == "ValidToken" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("valid token: %d", resp.StatusCode)
				}
				return
			}
			ch := resp.Header.Get("WWW-Authenticate")
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(ch, "Bearer ") {
				t.Fatalf("%d WWW-Authenticate=%q, want 401 with a Bearer challenge", resp.StatusCode, ch)
			}
			if strings.HasPrefix(auth, "Bearer ") && !strings.Contains(ch, `error="invalid_token"`) {
				t.Fatalf("a refused token's challenge %q lacks error=invalid_token", ch)
			}
		})
	}
}

// Signing out ends every grant the browser's provider session made, not
// only the one whose tab signed out: a second tab's silent sign-in and the
// first tab lose their access tokens and refresh tokens (offline_access
// included) at once, and the grant is revoked for every API that checks it.
// The same user's grant from another browser lives on until that browser's
// session ends too, here by another user signing in there.
//
// attack: grants-outlive-sign-out
func TestAttackGrantsOutliveSignOut(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, gooidc.ScopeOfflineAccess)
	signIn := func(b *browser, extra ...oauth2.AuthCodeOption) *oauth2.Token {
		f := newFlow()
		tok, err := r.exchange(f, ti.login(b, r, f, alice, goodPass, extra...))
		if err != nil || tok.RefreshToken == "" {
			t.Fatalf("sign-in: %v (refresh token %q)", err, tok.RefreshToken)
		}
		return tok
	}
	b, other := ti.browser(), ti.browser()
	first := signIn(b)
	f := newFlow()
	resp, _ := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
	second, err := r.exchange(f, callback(t, resp).Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := signIn(other)
	alive := func(tok *oauth2.Token) (access, refresh bool) {
		_, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
		return ti.introspectActive(t, tok.AccessToken), err == nil
	}
	grantRevoked := func(tok *oauth2.Token) bool {
		var c struct {
			GrantID string `json:"grant_id"`
		}
		parts := strings.Split(tok.AccessToken, ".")
		raw, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil || json.Unmarshal(raw, &c) != nil {
			t.Fatalf("access token payload: %v", err)
		}
		g, err := ti.st.TokenGrant(context.Background(), c.GrantID)
		if err != nil {
			t.Fatal(err)
		}
		return !g.RevokedAt.IsZero()
	}

	_, page := b.get(ti.issuer + PathEndSession)
	if resp, _ := b.submitForm(ti.issuer+PathEndSession, page); resp.Request.URL.Path != PathLoggedOut {
		t.Fatalf("sign-out ended at %s", resp.Request.URL)
	}
	for name, tok := range map[string]*oauth2.Token{"first tab": first, "second tab": second} {
		if a, rf := alive(tok); a || rf || !grantRevoked(tok) {
			t.Errorf("%s after sign-out: access token %v, refresh token %v, grant revoked %v", name, a, rf, grantRevoked(tok))
		}
	}
	if !ti.introspectActive(t, elsewhere.AccessToken) || grantRevoked(elsewhere) { // its refresh token is tried once, below
		t.Fatal("another browser's grant ended with this browser's session")
	}
	ti.login(other, r, newFlow(), bob, goodPass, forceLogin())
	if a, rf := alive(elsewhere); a || rf || !grantRevoked(elsewhere) {
		t.Fatalf("alice's grant outlived her session, replaced by bob's sign-in in the same browser: access %v refresh %v", a, rf)
	}
}
