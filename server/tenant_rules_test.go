package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/tenant"
)

// signWithForeignKey signs claims as an id_token with a key of its own that
// claims the provider's current kid and algorithm: only the signature is
// wrong.
func signWithForeignKey(t *testing.T, m *Main, claims map[string]any) string {
	t.Helper()
	keys, err := m.Store.SigningKeys(context.Background(), time.Now())
	if err != nil || len(keys) == 0 {
		t.Fatal(err)
	}
	var key crypto.Signer
	if strings.HasPrefix(keys[0].Algorithm, "ES") {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	return signLogout(t, key, keys[0].ID, keys[0].Algorithm, "JWT", claims)
}

// The tenant backend opens a session only from the identity provider's
// JWT. With the instance's real access token of the same user in hand, an
// id_token that fails one check opens none: signed by a key that is not in
// the provider's JWKS (under the provider's kid), issued by another
// issuer, for another audience (the console's, signed so or its real
// id_token), expired, or with another nonce than the web app kept; nor do
// the real tokens of
// another platform whose provider has the same clients and users but its
// own issuer and keys. The provider's own tokens open a session the tenant
// web app and the data API then accept.
//
// spec: R1-backend
func TestTenantBackendSessionOnlyFromProviderJWT(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	other := MustRunMain(t)
	good, claims := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	console, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	elsewhere, _ := demoLogin(t, other, other.Config.InstanceClientID, other.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	if other.Config.InstanceClientID != m.Config.InstanceClientID || jwtClaims(t, elsewhere.AccessToken)["sub"] != claims["sub"] {
		t.Fatal("the other platform must have the same instance client and user, so only issuer and keys differ")
	}
	now := time.Now().Unix()
	idToken := func(k string, v any) map[string]any {
		c := map[string]any{"iss": m.Config.IssuerURL, "sub": claims["sub"], "aud": m.Config.InstanceClientID,
			"exp": now + 600, "iat": now, "nonce": "nonce-1", "email": "bob@acme.example"}
		if k != "" {
			c[k] = v
		}
		return c
	}
	at := good.AccessToken
	for name, req := range map[string]tenant.CallbackRequest{
		"ErrForgedSignature": {IDToken: signWithForeignKey(t, m, idToken("", nil)), AccessToken: at, Nonce: "nonce-1"},
		"ErrOtherIssuer":     {IDToken: signWithProviderKey(t, m, idToken("iss", other.Config.IssuerURL)), AccessToken: at, Nonce: "nonce-1"},
		"ErrOtherAudience":   {IDToken: signWithProviderKey(t, m, idToken("aud", m.Config.ConsoleClientID)), AccessToken: at, Nonce: "nonce-1"},
		"ErrConsoleIDToken":  {IDToken: console.Extra("id_token").(string), AccessToken: at, Nonce: "nonce-1"},
		"ErrExpired":         {IDToken: signWithProviderKey(t, m, idToken("exp", now-120)), AccessToken: at, Nonce: "nonce-1"},
		"ErrOtherNonce":      {IDToken: good.Extra("id_token").(string), AccessToken: at, Nonce: "nonce-2"},
		"ErrOtherPlatform":   {IDToken: elsewhere.Extra("id_token").(string), AccessToken: elsewhere.AccessToken, Nonce: "nonce-1"},
		"ErrOtherPlatformID": {IDToken: elsewhere.Extra("id_token").(string), AccessToken: at, Nonce: "nonce-1"},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback", req)
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(resp.Header.Get("Set-Cookie"), "tenant_session=") {
				t.Fatalf("got %d %v (cookie %q), want 401 and no session", resp.StatusCode, body, resp.Header.Get("Set-Cookie"))
			}
		})
	}
	var n int
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM tenant_sessions`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d sessions stored (%v) after refused callbacks", n, err)
	}

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, body := postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: good.Extra("id_token").(string), AccessToken: at, Nonce: "nonce-1"})
	if resp.StatusCode != 200 {
		t.Fatalf("the provider's own tokens: %d %v", resp.StatusCode, body)
	}
	if code, s := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != 200 || s["user"].(map[string]any)["id"] != claims["sub"] {
		t.Fatalf("session = %d %v", code, s)
	}
	if code, s := getJSON(t, c, m.Config.InstanceURL+"/api/v1/me/tenants"); code != 200 {
		t.Fatalf("data API with the session = %d %v", code, s)
	}
}
