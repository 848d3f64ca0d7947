package idp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// authorize sends a raw authorize request and returns the response without
// following redirects.
func (ti *testIDP) authorize(t *testing.T, q url.Values) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(ti.issuer + PathAuthorize + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func baseAuthorize() url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {appClientID}, "redirect_uri": {appRedirect},
		"scope": {"openid email"}, "state": {"st"}, "nonce": {"n"},
		"code_challenge": {s256(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"}}
}

// PKCE S256 is required for every client: plain and missing challenges are
// refused at the authorize endpoint.
// spec: R5.1-pkce
// attack: pkce-downgrade
func TestAttackPKCE(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	for name, mutate := range map[string]func(url.Values){
		"Plain":         func(q url.Values) { q.Set("code_challenge_method", "plain") },
		"MissingMethod": func(q url.Values) { q.Del("code_challenge_method") },
		"Missing":       func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") },
		"TooShort":      func(q url.Values) { q.Set("code_challenge", "abc") },
	} {
		t.Run(name, func(t *testing.T) {
			q := baseAuthorize()
			mutate(q)
			resp := ti.authorize(t, q)
			loc, _ := url.Parse(resp.Header.Get("Location"))
			if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), appRedirect) ||
				loc.Query().Get("error") != "invalid_request" || loc.Query().Get("state") != "st" {
				t.Fatalf("got %d Location=%q; want an invalid_request redirect to the client", resp.StatusCode, loc)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		resp := ti.authorize(t, baseAuthorize())
		if loc := resp.Header.Get("Location"); !strings.Contains(loc, PathLogin) {
			t.Fatalf("valid request went to %q, want the login page", loc)
		}
	})
}

// A code exchanged with the wrong verifier, or none, gives no tokens.
// spec: R5.1-pkce
// attack: code-without-verifier
func TestAttackWrongVerifier(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	f := newFlow()
	code := ti.login(ti.browser(), r, f, alice, goodPass)
	if _, err := r.cfg.Exchange(r.ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier())); oauthErrorCode(err) != "invalid_grant" {
		t.Fatalf("wrong verifier: %v, want invalid_grant", err)
	}
	// the code is spent by the failed attempt as well: single use
	if _, err := r.exchange(f, code); err == nil {
		t.Fatal("code usable after a failed exchange")
	}
	f2 := newFlow()
	code2 := ti.login(ti.browser(), r, f2, alice, goodPass)
	if _, err := r.cfg.Exchange(r.ctx, code2); err == nil {
		t.Fatal("exchange without code_verifier succeeded")
	}
}

// A second exchange of a code fails and revokes what the first one issued.
// attack: code-replay
func TestAttackCodeReplay(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	f := newFlow()
	code := ti.login(ti.browser(), r, f, alice, goodPass)
	tok, err := r.exchange(f, code)
	if err != nil {
		t.Fatal(err)
	}
	if !ti.introspectActive(t, tok.AccessToken) {
		t.Fatal("fresh access token is not active")
	}
	if _, err := r.exchange(f, code); oauthErrorCode(err) != "invalid_grant" {
		t.Fatalf("replayed code: %v, want invalid_grant", err)
	}
	if ti.introspectActive(t, tok.AccessToken) {
		t.Fatal("access token from the first exchange survived the replay")
	}
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("refresh token from the first exchange survived the replay")
	}
}

// Redirect URIs match exactly; a mismatch or an unknown client is answered on
// the provider's own page, never redirected (no open redirect).
// attack: open-redirect
func TestAttackRedirectAndClient(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	for name, mutate := range map[string]func(url.Values){
		"RedirectOtherHost":   func(q url.Values) { q.Set("redirect_uri", "https://evil.example/cb") },
		"RedirectExtraPath":   func(q url.Values) { q.Set("redirect_uri", appRedirect+"/x") },
		"RedirectExtraQuery":  func(q url.Values) { q.Set("redirect_uri", appRedirect+"?next=https://evil.example") },
		"RedirectTrailing":    func(q url.Values) { q.Set("redirect_uri", appRedirect+"/") },
		"RedirectMissing":     func(q url.Values) { q.Del("redirect_uri") },
		"UnknownClient":       func(q url.Values) { q.Set("client_id", "no-such-client") },
		"MissingClient":       func(q url.Values) { q.Del("client_id") },
		"UnknownClientPlusPK": func(q url.Values) { q.Set("client_id", "x"); q.Set("code_challenge_method", "plain") },
	} {
		t.Run(name, func(t *testing.T) {
			q := baseAuthorize()
			mutate(q)
			resp := ti.authorize(t, q)
			if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
				t.Fatalf("got %d Location=%q; want 400 with no redirect", resp.StatusCode, resp.Header.Get("Location"))
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Fatalf("error shown as %q, want the provider's HTML error page", ct)
			}
		})
	}
	t.Run("TokenRedirectMismatch", func(t *testing.T) {
		r := ti.rp()
		f := newFlow()
		code := ti.login(ti.browser(), r, f, alice, goodPass)
		r.cfg.RedirectURL = appRedirect + "/other"
		if _, err := r.exchange(f, code); oauthErrorCode(err) != "invalid_grant" {
			t.Fatalf("exchange with another redirect_uri: %v", err)
		}
	})
}

// A refresh cannot widen the granted scopes.
// attack: refresh-scope-escalation
func TestAttackRefreshScopeEscalation(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	for _, scope := range []string{"openid email offline_access profile", "email offline_access profile",
		"openid " + ScopeOrgPrefix + orgB, ScopeOrgPrefix + orgB, "openid admin", "admin"} {
		resp, err := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
			"refresh_token": {tok.RefreshToken}, "client_id": {appClientID}, "scope": {scope}})
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || body.Error != "invalid_scope" {
			t.Fatalf("scope %q: %d %q, want 400 invalid_scope", scope, resp.StatusCode, body.Error)
		}
	}
	// narrowing is allowed
	resp, _ := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {tok.RefreshToken}, "client_id": {appClientID}, "scope": {"openid offline_access"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("narrowing refresh answered %d", resp.StatusCode)
	}
	next, _ := ti.loginTokens(r, alice)
	resp, _ = http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {next.RefreshToken}, "client_id": {appClientID}, "scope": {"offline_access"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("narrowing refresh without openid answered %d", resp.StatusCode)
	}
}

// Presenting an already-used refresh token revokes the whole family.
// spec: D-refresh-reuse
// attack: refresh-token-reuse
func TestAttackRefreshReuse(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	refresh := func(rt string) (*oauth2.Token, error) {
		return r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: rt}).Token()
	}
	next, err := refresh(tok.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := refresh(tok.RefreshToken); oauthErrorCode(err) != "invalid_grant" {
		t.Fatalf("reused refresh token: %v, want invalid_grant", err)
	}
	if _, err := refresh(next.RefreshToken); err == nil {
		t.Fatal("the rotated refresh token survived reuse of its predecessor")
	}
	if ti.introspectActive(t, next.AccessToken) {
		t.Fatal("access token of the family survived reuse")
	}
	// another client cannot use a refresh token
	tok2, _ := ti.loginTokens(r, bob)
	resp, _ := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {tok2.RefreshToken}, "client_id": {"other-client"}})
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Fatal("a refresh token worked for another client")
	}
}

// Tokens with alg=none, or HS256-signed with the provider's public key, or
// signed by another key, do not verify against the provider's JWKS.
// attack: forged-tokens
func TestAttackForgedTokens(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	tok, _ := ti.loginTokens(r, alice)
	raw := tok.Extra("id_token").(string)
	parts := strings.Split(raw, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	_ = json.Unmarshal(payload, &claims)
	claims["sub"] = userBob
	forged, _ := json.Marshal(claims)
	body := base64.RawURLEncoding.EncodeToString(forged)

	keys, err := ti.p.keys.KeySet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pubDER, _ := x509.MarshalPKIXPublicKey(keys[0].Key())
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	hs := func(header string) string {
		h := base64.RawURLEncoding.EncodeToString([]byte(header))
		mac := hmac.New(sha256.New, pubPEM)
		mac.Write([]byte(h + "." + body))
		return h + "." + body + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	}
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + body + "."
	for name, token := range map[string]string{
		"AlgNone":        none,
		"HS256PublicKey": hs(`{"alg":"HS256","typ":"JWT","kid":"` + keys[0].ID() + `"}`),
		"TamperedClaims": parts[0] + "." + body + "." + parts[2],
		"Truncated":      parts[0] + "." + parts[1],
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := r.verifier.Verify(r.ctx, token); err == nil {
				t.Fatal("forged token verified")
			}
		})
	}
	t.Run("Original", func(t *testing.T) {
		if _, err := r.verifier.Verify(r.ctx, raw); err != nil {
			t.Fatal(err)
		}
	})
}

// After five failed attempts the account is locked: even the right password
// is answered with the same message as a wrong one, until the lock ends.
// spec: D-lockout
// attack: password-guessing
func TestAttackLockout(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow()))
	for i := 0; i < 5; i++ {
		resp, body := b.submitLogin(ti.issuer, page, alice, "guess "+string(rune('a'+i)))
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d answered %d", i+1, resp.StatusCode)
		}
		page = body
	}
	resp, body := b.submitLogin(ti.issuer, page, alice, goodPass)
	// the message an unknown address gets after as many failures (D-reset)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgTooMany) {
		t.Fatalf("locked account: %d, want 401 with the generic message", resp.StatusCode)
	}
	// another user is not affected
	resp, _ = b.submitLogin(ti.issuer, body, bob, goodPass)
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatal("lockout of alice blocked bob")
	}
	ti.clock.offset = 16 * time.Minute // the lock ends
	ti.login(ti.browser(), r, newFlow(), alice, goodPass)
}

// The login form is bound to the browser that opened it (login CSRF).
// attack: login-form-csrf
func TestAttackLoginCSRF(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	_, page := ti.browser().get(r.authURL(newFlow()))
	victim := ti.browser()
	resp, _ := victim.submitLogin(ti.issuer, page, alice, goodPass)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("form posted from another browser answered %d, want 403", resp.StatusCode)
	}
}

// Oversized bodies are refused before they are read.
// attack: oversized-body
func TestAttackOversizedBody(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	big := strings.NewReader("grant_type=authorization_code&code=" + strings.Repeat("a", 100<<10))
	resp, err := http.Post(ti.issuer+PathToken, "application/x-www-form-urlencoded", big)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("100 KiB token request answered %d, want 413", resp.StatusCode)
	}
}

// Signing keys rotate without breaking tokens in flight, and a change of
// algorithm (RS256 to ES256) keeps the old keys published as well.
func TestKeyRotation(t *testing.T) {
	t.Parallel()
	t.Run("RS256", func(t *testing.T) { testKeyRotation(t, mustIDP(t)) })
	t.Run("ES256", func(t *testing.T) {
		testKeyRotation(t, mustIDP(t, func(c *Config) { c.SigningAlgorithm = "ES256" }))
	})
}

func testKeyRotation(t *testing.T, ti *testIDP) {
	r := ti.rp()
	before, _ := ti.loginTokens(r, alice)
	if err := ti.p.RotateKeys(context.Background()); err != nil {
		t.Fatal(err)
	}
	r2 := ti.rp() // a relying party that fetches the JWKS afresh
	after, _ := ti.loginTokens(r2, alice)
	kid := func(raw string) string {
		h, _ := base64.RawURLEncoding.DecodeString(strings.Split(raw, ".")[0])
		var v struct{ Kid string }
		_ = json.Unmarshal(h, &v)
		return v.Kid
	}
	oldRaw, newRaw := before.Extra("id_token").(string), after.Extra("id_token").(string)
	if kid(oldRaw) == kid(newRaw) {
		t.Fatal("rotation did not change the signing key")
	}
	for _, raw := range []string{oldRaw, newRaw} {
		if _, err := r2.verifier.Verify(r2.ctx, raw); err != nil {
			t.Fatalf("token with kid %s does not verify after rotation: %v", kid(raw), err)
		}
	}
}

func (ti *testIDP) introspectActive(t *testing.T, token string) bool {
	t.Helper()
	// introspection needs an authenticated caller; userinfo shows activeness to the holder
	req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathUserinfo, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
