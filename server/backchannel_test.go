package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/tenant"
	"github.com/platform/platform/internal/testkit"
)

// tenantSignIn signs email in to the demo instance in a browser of its own
// (jar: the provider session) and answers the tenant web app's client (its
// session cookie) and the provider session's sid.
func tenantSignIn(t *testing.T, m *Main, jar http.CookieJar, email string) (*http.Client, string) {
	t.Helper()
	tok, claims := demoLoginIn(t, m, jar, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", email)
	sid, _ := claims["sid"].(string)
	if sid == "" {
		t.Fatal("the id_token carries no sid")
	}
	app, _ := cookiejar.New(nil)
	c := &http.Client{Jar: app}
	resp, body := postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, Nonce: "nonce-1"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tenant callback = %d %v", resp.StatusCode, body)
	}
	return c, sid
}

func tenantSignedIn(t *testing.T, m *Main, c *http.Client) bool {
	t.Helper()
	code, _ := getJSON(t, c, m.Config.InstanceURL+"/auth/session")
	return code == http.StatusOK
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)

// providerSignOut signs the browser out at the provider: the end_session
// page, confirmed.
func providerSignOut(t *testing.T, m *Main, jar http.CookieJar) {
	t.Helper()
	c := &http.Client{Jar: jar}
	resp, err := c.Get(m.Config.IssuerURL + idp.PathEndSession)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{}
	for _, f := range hiddenInput.FindAllStringSubmatch(string(page), -1) {
		form.Set(f[1], html.UnescapeString(f[2]))
	}
	resp, err = c.PostForm(m.Config.IssuerURL+idp.PathEndSession, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != idp.PathLoggedOut {
		t.Fatalf("sign-out ended at %s (%d)", resp.Request.URL, resp.StatusCode)
	}
}

// Signing out at the identity provider ends the tenant web app's session
// of that browser through back-channel logout, and only that one: the
// same user's session from another browser (another provider session)
// stays.
func TestBackchannelLogoutEndsTenantSession(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	jar1, _ := cookiejar.New(nil)
	jar2, _ := cookiejar.New(nil)
	app1, sid1 := tenantSignIn(t, m, jar1, "bob@acme.example")
	app2, sid2 := tenantSignIn(t, m, jar2, "bob@acme.example")
	if sid1 == sid2 {
		t.Fatal("two browsers share a provider session id")
	}
	providerSignOut(t, m, jar1)
	testkit.Eventually(t, "the tenant session of the browser that signed out ended", func() bool { return !tenantSignedIn(t, m, app1) })
	if !tenantSignedIn(t, m, app2) {
		t.Fatal("signing out one browser ended the session of another")
	}
}

// signLogout signs claims as a logout token with key (typ logout+jwt
// unless typ says otherwise).
func signLogout(t *testing.T, key crypto.Signer, kid, alg, typ string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ))
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: jose.JSONWebKey{Key: key, KeyID: kid}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	sig, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := sig.CompactSerialize()
	return raw
}

func postLogout(t *testing.T, m *Main, form url.Values) int {
	t.Helper()
	resp, err := http.PostForm(m.Config.InstanceURL+tenant.BackchannelLogoutPath, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("logout answer without Cache-Control: no-store")
	}
	return resp.StatusCode
}

// Nobody but the provider ends a tenant session by back channel: a logout
// token that is wrong in any way (key, type, issuer, audience, time,
// event, nonce, subject) answers 400 and ends nothing; a genuine one ends
// the sessions that began before it, and replayed later it ends none of
// the sessions that began after it.
// attack: forged-logout-token
func TestAttackForgedLogoutToken(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	jar, _ := cookiejar.New(nil)
	app, sid := tenantSignIn(t, m, jar, "bob@acme.example")
	var sub string
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT user_id FROM tenant_sessions`).Scan(&sub); err != nil {
		t.Fatal(err)
	}
	keys, err := m.Store.SigningKeys(context.Background(), time.Now())
	if err != nil || len(keys) == 0 {
		t.Fatal(err)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(keys[0].PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	providerKey, kid, alg := parsed.(crypto.Signer), keys[0].ID, keys[0].Algorithm
	now := time.Now().Unix()
	claims := func(change map[string]any) map[string]any {
		c := map[string]any{"iss": m.Config.IssuerURL, "aud": m.Config.InstanceClientID, "iat": now, "exp": now + 120,
			"jti": "jti-1", "sub": sub, "sid": sid, "events": map[string]any{access.BackchannelLogoutEvent: map[string]any{}}}
		for k, v := range change {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	good := func(change map[string]any) string {
		return signLogout(t, providerKey, kid, alg, access.TypeLogoutToken, claims(change))
	}
	otherKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	payload, _ := json.Marshal(claims(nil))
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"logout+jwt"}`)) + "." +
		base64.RawURLEncoding.EncodeToString(payload) + "."
	idToken, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")

	for name, form := range map[string]url.Values{
		"ErrNoToken":         {},
		"ErrTwoTokens":       {"logout_token": {good(nil), good(nil)}},
		"ErrOtherKey":        {"logout_token": {signLogout(t, otherKey, kid, "ES256", access.TypeLogoutToken, claims(nil))}},
		"ErrAlgNone":         {"logout_token": {none}},
		"ErrTypJWT":          {"logout_token": {signLogout(t, providerKey, kid, alg, "JWT", claims(nil))}},
		"ErrIDToken":         {"logout_token": {idToken.Extra("id_token").(string)}},
		"ErrAccessToken":     {"logout_token": {idToken.AccessToken}},
		"ErrOtherAudience":   {"logout_token": {good(map[string]any{"aud": m.Config.ConsoleClientID})}},
		"ErrOtherIssuer":     {"logout_token": {good(map[string]any{"iss": "https://evil.example"})}},
		"ErrExpired":         {"logout_token": {good(map[string]any{"exp": now - 120})}},
		"ErrNoExpiry":        {"logout_token": {good(map[string]any{"exp": nil})}},
		"ErrIssuedInFuture":  {"logout_token": {good(map[string]any{"iat": now + 3600, "exp": now + 3700})}},
		"ErrNoEvent":         {"logout_token": {good(map[string]any{"events": nil})}},
		"ErrEventNotObject":  {"logout_token": {good(map[string]any{"events": map[string]any{access.BackchannelLogoutEvent: "yes"}})}},
		"ErrWithNonce":       {"logout_token": {good(map[string]any{"nonce": "n"})}},
		"ErrNoSubjectNoSID":  {"logout_token": {good(map[string]any{"sub": nil, "sid": nil})}},
		"ErrNoJTI":           {"logout_token": {good(map[string]any{"jti": nil})}},
		"ErrTamperedPayload": {"logout_token": {tamper(good(nil), claims(map[string]any{"sub": "someone-else"}))}},
	} {
		t.Run(name, func(t *testing.T) {
			if code := postLogout(t, m, form); code != http.StatusBadRequest {
				t.Fatalf("answered %d, want 400", code)
			}
			if !tenantSignedIn(t, m, app) {
				t.Fatal("a refused logout token ended the session")
			}
		})
	}

	// another user's genuine token ends nobody else's session
	if code := postLogout(t, m, url.Values{"logout_token": {good(map[string]any{"sub": "other-user", "sid": "other-sid"})}}); code != http.StatusOK ||
		!tenantSignedIn(t, m, app) {
		t.Fatalf("a logout of someone else answered %d or ended this session", code)
	}
	genuine := good(nil)
	if code := postLogout(t, m, url.Values{"logout_token": {genuine}}); code != http.StatusOK || tenantSignedIn(t, m, app) {
		t.Fatalf("a genuine logout token answered %d or left the session", code)
	}
	// replayed after the user signed in again (a second later: iat is in whole seconds)
	time.Sleep(time.Until(time.Unix(now+1, 0)) + 10*time.Millisecond)
	jar2, _ := cookiejar.New(nil)
	later, _ := tenantSignIn(t, m, jar2, "bob@acme.example")
	if code := postLogout(t, m, url.Values{"logout_token": {genuine}}); code != http.StatusOK || !tenantSignedIn(t, m, later) {
		t.Fatalf("a replayed logout token answered %d or ended a later session", code)
	}
}

// tamper swaps a signed token's payload for claims, keeping its signature.
func tamper(raw string, claims map[string]any) string {
	parts := strings.Split(raw, ".")
	payload, _ := json.Marshal(claims)
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
}
