package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

type idClaims struct {
	Sub           string   `json:"sub"`
	Email         string   `json:"email"`
	EmailVerified bool     `json:"email_verified"`
	Name          string   `json:"name"`
	Nonce         string   `json:"nonce"`
	AMR           []string `json:"amr"`
	OrgID         string   `json:"urn:idp:iam:user:resourceowner:id"`
	OrgName       string   `json:"urn:idp:iam:user:resourceowner:name"`
}

// A real relying party (x/oauth2 + go-oidc) runs code + PKCE against the
// provider, posting the login form like a browser, and verifies the id_token
// with the provider's JWKS.
// spec: R1-idp, R4.3-authorize, R4.3-token, R5.7-claims, R5.1-nonce
func TestCodeFlowWithRealRelyingParty(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "profile", "email", ScopeResourceOwner)
	tok, f := ti.loginTokens(r, alice, oauth2.SetAuthURLParam("login_hint", alice))

	raw, _ := tok.Extra("id_token").(string)
	idt, err := r.verifier.Verify(r.ctx, raw)
	if err != nil {
		t.Fatalf("id_token does not verify: %v", err)
	}
	var c idClaims
	if err := idt.Claims(&c); err != nil {
		t.Fatal(err)
	}
	want := idClaims{Sub: userAlice, Email: alice, EmailVerified: true, Name: "Alice A", Nonce: f.nonce,
		AMR: []string{"pwd"}, OrgID: orgA, OrgName: "Organization " + orgA}
	if c.Sub != want.Sub || c.Email != want.Email || !c.EmailVerified || c.Name != want.Name || c.Nonce != want.Nonce ||
		c.OrgID != want.OrgID || c.OrgName != want.OrgName || len(c.AMR) != 1 || c.AMR[0] != "pwd" {
		t.Fatalf("claims = %+v\nwant     %+v", c, want)
	}
	if tok.AccessToken == "" || tok.RefreshToken != "" {
		t.Fatalf("access token %q, refresh token %q (no offline_access asked)", tok.AccessToken, tok.RefreshToken)
	}

	// userinfo with the access token
	prov, _ := gooidc.NewProvider(r.ctx, ti.issuer)
	info, err := prov.UserInfo(r.ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatal(err)
	}
	var ic idClaims
	_ = info.Claims(&ic)
	if ic.Sub != userAlice || ic.Email != alice || ic.OrgID != orgA {
		t.Fatalf("userinfo = %+v", ic)
	}
}

// The resource-owner id claim is present even without the resourceowner
// scope, and the access token (a JWT) carries it too.
// spec: R5.7-claims
func TestClaimsWithoutResourceOwnerScope(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	tok, _ := ti.loginTokens(r, bob)
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var c idClaims
	_ = idt.Claims(&c)
	if c.OrgID != orgB || c.OrgName != "" {
		t.Fatalf("org id %q name %q; want %q and no name", c.OrgID, c.OrgName, orgB)
	}
	keys := gooidc.NewRemoteKeySet(r.ctx, ti.issuer+PathKeys)
	payload, err := keys.VerifySignature(r.ctx, tok.AccessToken)
	if err != nil {
		t.Fatalf("access token is not a JWT signed by the provider: %v", err)
	}
	if !strings.Contains(string(payload), `"urn:idp:iam:user:resourceowner:id":"`+orgB+`"`) {
		t.Fatalf("access token claims lack the home organization: %s", payload)
	}
}

// The login page prefills login_hint and shows one generic error for a wrong
// password and for an unknown address.
// spec: R4.1-ro-password
func TestLoginPage(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	f := newFlow()
	resp, page := b.get(r.authURL(f, oauth2.SetAuthURLParam("login_hint", alice)))
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `value="`+alice+`"`) || !strings.Contains(page, `type="password"`) {
		t.Fatalf("login page %d does not prefill the hint:\n%s", resp.StatusCode, page)
	}
	if !strings.Contains(page, `<label for="password">`) || !strings.Contains(page, `lang="en"`) {
		t.Fatal("login form is not labelled for assistive technology")
	}
	resp, wrong := b.submitLogin(ti.issuer, page, alice, "wrong password")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(wrong, msgLoginFailed) {
		t.Fatalf("wrong password: %d\n%s", resp.StatusCode, wrong)
	}
	resp, unknown := b.submitLogin(ti.issuer, wrong, "nobody@a.example", goodPass)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(unknown, msgLoginFailed) {
		t.Fatalf("unknown address: %d\n%s", resp.StatusCode, unknown)
	}
	// the same auth request still completes with the right password
	resp, _ = b.submitLogin(ti.issuer, unknown, alice, goodPass)
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("no code after a correct password: %v", q)
	}
}

// The org scope limits the login to that organization's users; a user of any
// organization can log in to any application.
// spec: R2.5-independent
func TestOrgScope(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	// bob (org B) signs in to the same application as alice (org A)
	tok, _ := ti.loginTokens(r, bob, oauth2.SetAuthURLParam("scope", "openid email "+ScopeOrgPrefix+orgB))
	if tok.AccessToken == "" {
		t.Fatal("no token")
	}
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid email "+ScopeOrgPrefix+orgB)))
	resp, body := b.submitLogin(ti.issuer, page, alice, goodPass)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgLoginFailed) {
		t.Fatalf("alice logged in under org B's scope: %d", resp.StatusCode)
	}
}

// prompt=none answers from the provider's own session: a code when there is
// one, login_required when not.
// spec: R5.2-silent
func TestPromptNone(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()

	t.Run("ErrNoSession", func(t *testing.T) {
		f := newFlow()
		resp, _ := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
		q := callback(t, resp)
		if q.Get("error") != "login_required" || q.Get("state") != f.state {
			t.Fatalf("callback = %v, want error=login_required with the state", q)
		}
	})
	t.Run("OK", func(t *testing.T) {
		ti.login(b, r, newFlow(), alice, goodPass)
		f := newFlow()
		resp, _ := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
		q := callback(t, resp)
		tok, err := r.exchange(f, q.Get("code"))
		if err != nil {
			t.Fatalf("silent login: %v (callback %v)", err, q)
		}
		idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
		if err != nil || idt.Subject != userAlice || idt.Nonce != f.nonce {
			t.Fatalf("silent id_token %v %v", idt, err)
		}
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		f := newFlow()
		resp, _ := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none"),
			oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB)))
		if q := callback(t, resp); q.Get("error") != "login_required" {
			t.Fatalf("a session of org A answered a login for org B: %v", q)
		}
	})
	t.Run("ErrAfterEndSession", func(t *testing.T) {
		tok, _ := ti.loginTokens(r, alice)
		// log out via end_session with the id_token hint, in the same browser
		b2 := ti.browser()
		ti.login(b2, r, newFlow(), alice, goodPass)
		resp, page := b2.get(ti.issuer + PathEndSession + "?id_token_hint=" + url.QueryEscape(tok.Extra("id_token").(string)))
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, `<script>`+autoSubmit+`</script>`) {
			t.Fatalf("end_session with a valid hint answered %d without the self-submitting confirmation:\n%.500s", resp.StatusCode, page)
		}
		resp, _ = b2.submitForm(ti.issuer+PathEndSession, page) // what the page's script does
		if resp.StatusCode >= 400 || resp.Request.URL.Path != PathLoggedOut {
			t.Fatalf("end_session confirmation answered %d at %s", resp.StatusCode, resp.Request.URL)
		}
		f := newFlow()
		resp, _ = b2.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "none")))
		if q := callback(t, resp); q.Get("error") != "login_required" {
			t.Fatalf("session survived end_session: %v", q)
		}
	})
}

// An existing session answers an interactive login without the form.
func TestSessionReuse(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	f := newFlow()
	resp, _ := b.get(r.authURL(f))
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("a live session did not answer the login: %v", q)
	}
	// a login_hint for someone else shows the form instead
	resp, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("login_hint", bob)))
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `value="`+bob+`"`) {
		t.Fatalf("login for another user reused the session: %d", resp.StatusCode)
	}
}

// Offline access gives a refresh token; each refresh rotates it.
func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	if tok.RefreshToken == "" {
		t.Fatal("no refresh token for offline_access")
	}
	next, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	if next.RefreshToken == "" || next.RefreshToken == tok.RefreshToken || next.AccessToken == tok.AccessToken {
		t.Fatal("refresh did not rotate the refresh token")
	}
	if idt, ok := next.Extra("id_token").(string); ok && idt != "" {
		t.Fatal("a refresh that did not ask for it answered an id_token")
	}
	if !ti.introspectActive(t, next.AccessToken) {
		t.Fatal("the refreshed access token is not active")
	}
}

// A refresh whose scope names openid gets a new id_token of the same user,
// signed like the sign-in's, with the rotated refresh token
// (D-refresh-id-token, OpenID Connect Core 12.2).
// spec: D-refresh-id-token
func TestRefreshIDTokenOnRequest(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	first, err := r.verifier.Verify(context.Background(), tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {tok.RefreshToken}, "client_id": {appClientID}, "scope": {"offline_access openid"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken      string `json:"id_token"`
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("refresh asking for an id_token: %d %v", resp.StatusCode, err)
	}
	idt, err := r.verifier.Verify(context.Background(), out.IDToken)
	if err != nil {
		t.Fatalf("refreshed id_token: %v", err)
	}
	if idt.Subject != first.Subject || out.RefreshToken == "" || out.RefreshToken == tok.RefreshToken || out.AccessToken == "" {
		t.Fatalf("refresh asking for an id_token: sub %q (want %q), rotated %v", idt.Subject, first.Subject,
			out.RefreshToken != tok.RefreshToken)
	}
}
