package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/platform/platform/internal/tenant"
)

func postJSON(t *testing.T, c *http.Client, url string, body any) (*http.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

func getJSON(t *testing.T, c *http.Client, url string) (int, map[string]any) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// spec: R4.2-config
func TestTenantConfig(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	code, cfg := getJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/config")
	want := map[string]any{"loginUrl": m.Config.ConsoleURL + "/", "issuer": m.Config.IssuerURL, "clientId": m.Config.InstanceClientID,
		"redirectUri": m.Config.InstanceURL + "/auth/callback", "scope": "openid profile email offline_access"}
	if code != 200 || len(cfg) != len(want) {
		t.Fatalf("config = %d %v", code, cfg)
	}
	for k, v := range want {
		if cfg[k] != v {
			t.Errorf("%s = %v, want %v", k, cfg[k], v)
		}
	}
	if strings.Contains(cfg["scope"].(string), "urn:idp:iam:") {
		t.Error("the web app must not ask for urn:idp:iam: scopes")
	}
}

// A valid id_token of this instance makes a session (HttpOnly, SameSite=Lax
// cookie); the session reads back, survives nothing tampered, and logout ends it.
// spec: R4.2-callback, R1-backend
func TestTenantSession(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example", "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, body := postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
	if resp.StatusCode != 200 || body["user"].(map[string]any)["email"] != "bob@acme.example" {
		t.Fatalf("callback = %d %v", resp.StatusCode, body)
	}
	setCookie := resp.Header.Get("Set-Cookie")
	if !strings.Contains(setCookie, "tenant_session=") || !strings.Contains(setCookie, "HttpOnly") || !strings.Contains(setCookie, "SameSite=Lax") {
		t.Fatalf("cookie %q", setCookie)
	}
	if code, s := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != 200 || s["user"].(map[string]any)["id"] == "" {
		t.Fatalf("session = %d %v", code, s)
	}
	// a tampered cookie is no session
	tampered := &http.Client{Jar: func() http.CookieJar {
		j, _ := cookiejar.New(nil)
		return j
	}()}
	req, _ := http.NewRequest(http.MethodGet, m.Config.InstanceURL+"/auth/session", nil)
	req.Header.Set("Cookie", "tenant_session="+strings.Repeat("A", 43))
	if r, _ := tampered.Do(req); r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("tampered cookie answered %d", r.StatusCode)
	}
	// the web app's own request: the CSRF header, no other origin
	req, _ = http.NewRequest(http.MethodPost, m.Config.InstanceURL+"/auth/logout", nil)
	req.Header.Set("X-Requested-With", "fetch")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(out["endSessionUrl"].(string), "/oidc/v1/end_session?") ||
		!strings.Contains(out["endSessionUrl"].(string), "id_token_hint=") {
		t.Fatalf("logout = %d %v", resp.StatusCode, out)
	}
	if code, _ := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("session after logout = %d", code)
	}
}

// An expired session token is renewed with the refresh token, which keeps
// the session alive.
func TestTenantSessionRefresh(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example", "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{IDToken: tok.Extra("id_token").(string),
		AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
	if _, err := m.Store.Conn().Exec(context.Background(), `UPDATE tenant_sessions SET token_expires_at = $1`, time.Now().Add(-time.Minute).UTC()); err != nil {
		t.Fatal(err)
	}
	if code, s := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != 200 {
		t.Fatalf("session after token expiry = %d %v", code, s)
	}
	var exp time.Time
	var idToken string
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT token_expires_at, id_token FROM tenant_sessions`).Scan(&exp, &idToken); err != nil || !exp.After(time.Now()) {
		t.Fatalf("tokens not renewed: %v %v", exp, err)
	}
	// The refresh answers no id_token (D-refresh-id-token): the session keeps
	// the sign-in's, and is next renewed after as long as it was valid for.
	signIn := jwtClaims(t, tok.Extra("id_token").(string))
	lifetime := time.Duration(signIn["exp"].(float64)-signIn["iat"].(float64)) * time.Second
	if idToken != tok.Extra("id_token").(string) || exp.Before(time.Now().Add(lifetime-time.Minute)) {
		t.Fatalf("renewed session: next renewal %v (want about %v from now), id_token kept %v", exp, lifetime,
			idToken == tok.Extra("id_token").(string))
	}
	if code, s := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != 200 {
		t.Fatalf("session after renewal = %d %v", code, s)
	}
}

// jwtClaims decodes a JWT's claims (no verification).
func jwtClaims(t *testing.T, raw string) map[string]any {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(raw, ".")[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// signWithProviderKey signs claims as an id_token (typ JWT) with the
// identity provider's own current key, so that only the claim under test is
// wrong.
func signWithProviderKey(t *testing.T, m *Main, claims map[string]any) string {
	t.Helper()
	return signTypedWithProviderKey(t, m, "JWT", claims)
}

// signTypedWithProviderKey is signWithProviderKey with the header's typ.
func signTypedWithProviderKey(t *testing.T, m *Main, typ string, claims map[string]any) string {
	t.Helper()
	keys, err := m.Store.SigningKeys(context.Background(), time.Now())
	if err != nil || len(keys) == 0 {
		t.Fatal(err)
	}
	priv, err := x509.ParsePKCS8PrivateKey(keys[0].PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	var opts *jose.SignerOptions
	if typ != "" { // "": no typ in the header at all
		opts = (&jose.SignerOptions{}).WithType(jose.ContentType(typ))
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(keys[0].Algorithm), Key: jose.JSONWebKey{Key: priv.(crypto.Signer), KeyID: keys[0].ID}}, opts)
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

// No session for a token that is wrong in any way: the id_token (signature,
// issuer, audience, expiry, nonce) and the access token (its type, audience,
// user and grant) are both checked.
// spec: R4.2-callback
// attack: forged-tenant-callback
func TestTenantCallbackAttacks(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	good, claims := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	console, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	now := time.Now().Unix()
	base := func() map[string]any {
		return map[string]any{"iss": m.Config.IssuerURL, "sub": claims["sub"], "aud": m.Config.InstanceClientID,
			"exp": now + 600, "iat": now, "nonce": "nonce-1", "email": "bob@acme.example"}
	}
	with := func(k string, v any) string {
		c := base()
		c[k] = v
		return signWithProviderKey(t, m, c)
	}
	parts := strings.Split(good.Extra("id_token").(string), ".")
	keys, _ := m.Store.SigningKeys(context.Background(), time.Now())
	pubDER, _ := x509.ParsePKCS8PrivateKey(keys[0].PrivateKey)
	pub, _ := x509.MarshalPKIXPublicKey(pubDER.(crypto.Signer).Public())
	hs, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: pub}, nil)
	payload, _ := json.Marshal(base())
	hsSig, _ := hs.Sign(payload)
	hsRaw, _ := hsSig.CompactSerialize()
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + base64.RawURLEncoding.EncodeToString(payload) + "."

	alice, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "alice@acme.example")
	revoked, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	if err := m.Store.RevokeFamily(context.Background(), jwtClaims(t, revoked.AccessToken)["grant_id"].(string)); err != nil {
		t.Fatal(err)
	}
	idt, at := good.Extra("id_token").(string), good.AccessToken
	for name, req := range map[string]tenant.CallbackRequest{
		"ErrWrongNonce":              {IDToken: idt, AccessToken: at, Nonce: "other"},
		"ErrConsoleAudience":         {IDToken: console.Extra("id_token").(string), AccessToken: at, Nonce: "nonce-1"},
		"ErrOtherInstanceClient":     {IDToken: with("aud", "instance-other"), AccessToken: at, Nonce: "nonce-1"},
		"ErrWrongIssuer":             {IDToken: with("iss", "https://evil.example"), AccessToken: at, Nonce: "nonce-1"},
		"ErrExpired":                 {IDToken: with("exp", now-60), AccessToken: at, Nonce: "nonce-1"},
		"ErrAlgNone":                 {IDToken: none, AccessToken: at, Nonce: "nonce-1"},
		"ErrHS256WithPublicKey":      {IDToken: hsRaw, AccessToken: at, Nonce: "nonce-1"},
		"ErrTamperedPayload":         {IDToken: parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2], AccessToken: at, Nonce: "nonce-1"},
		"ErrWrongAccessToken":        {IDToken: idt, AccessToken: console.AccessToken, Nonce: "nonce-1"},
		"ErrIDTokenAsAccessToken":    {IDToken: idt, AccessToken: idt, Nonce: "nonce-1"},
		"ErrAccessTokenAsIDToken":    {IDToken: at, AccessToken: at, Nonce: "nonce-1"},
		"ErrAnotherUsersAccessToken": {IDToken: with("email", "bob@acme.example"), AccessToken: alice.AccessToken, Nonce: "nonce-1"},
		"ErrRevokedGrant":            {IDToken: revoked.Extra("id_token").(string), AccessToken: revoked.AccessToken, Nonce: "nonce-1"},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback", req)
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(resp.Header.Get("Set-Cookie"), "tenant_session=") {
				t.Fatalf("got %d %v (cookie %q), want 401 and no session", resp.StatusCode, body, resp.Header.Get("Set-Cookie"))
			}
		})
	}
	// A missing field is named (400), not a bare 401; all of them at once.
	for name, tc := range map[string]struct {
		req  tenant.CallbackRequest
		want []string
	}{
		"ErrMissingNonce":       {tenant.CallbackRequest{IDToken: idt, AccessToken: at}, []string{"nonce is required"}},
		"ErrMissingAccessToken": {tenant.CallbackRequest{IDToken: idt, Nonce: "nonce-1"}, []string{"access_token is required"}},
		"ErrEmpty":              {tenant.CallbackRequest{}, []string{"id_token is required", "access_token is required", "nonce is required"}},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback", tc.req)
			e, _ := body["error"].(map[string]any)
			detail, _ := e["detail"].([]any)
			if resp.StatusCode != http.StatusBadRequest || body["code"] != float64(400) || len(detail) != len(tc.want)+1 ||
				strings.Contains(resp.Header.Get("Set-Cookie"), "tenant_session=") {
				t.Fatalf("got %d %v, want 400 naming %v", resp.StatusCode, body, tc.want)
			}
			for i, w := range tc.want { // after the summary line, one line per missing field
				if detail[i+1] != w {
					t.Errorf("detail[%d] = %v, want %q", i+1, detail[i+1], w)
				}
			}
		})
	}
	t.Run("OKSignedByProvider", func(t *testing.T) { // the forging helper itself is sound
		resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
			IDToken: with("email", "bob@acme.example"), AccessToken: at, Nonce: "nonce-1"})
		if resp.StatusCode != 200 {
			t.Fatalf("got %d %v", resp.StatusCode, body)
		}
	})
	t.Run("ErrFormPost", func(t *testing.T) {
		resp, err := http.Post(m.Config.InstanceURL+"/auth/idp/callback", "application/x-www-form-urlencoded",
			strings.NewReader("id_token="+good.Extra("id_token").(string)+"&nonce=nonce-1"))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("form post answered %d", resp.StatusCode)
		}
	})
	var n int
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM tenant_sessions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d sessions stored, want only the one valid callback's", n)
	}
}

// TestAttackAccessTokenAsIDToken: a token of the provider for the instance
// client that is not an id_token (its header says at+jwt, or nothing) is
// posted as the id_token, with the real access token of the same user and
// grant and a nonce that matches the token's own: no session. Signature,
// issuer, audience, expiry, subject and nonce all hold, so only the
// header's type can refuse it.
//
// attack: access-token-as-id-token
func TestAttackAccessTokenAsIDToken(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	good, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example")
	at := jwtClaims(t, good.AccessToken) // the access token's own claims, and a nonce
	at["nonce"] = "nonce-1"
	for name, raw := range map[string]string{
		"ErrTypAccessToken": signTypedWithProviderKey(t, m, "at+jwt", at),
		"ErrTypLogoutToken": signTypedWithProviderKey(t, m, "logout+jwt", at),
		"ErrNoTyp":          signTypedWithProviderKey(t, m, "", at),
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback",
				tenant.CallbackRequest{IDToken: raw, AccessToken: good.AccessToken, Nonce: "nonce-1"})
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(resp.Header.Get("Set-Cookie"), "tenant_session=") {
				t.Fatalf("got %d %v (cookie %q), want 401 and no session", resp.StatusCode, body, resp.Header.Get("Set-Cookie"))
			}
		})
	}
	t.Run("OKSameClaimsAsIDToken", func(t *testing.T) { // the same claims with the id_token's typ make a session
		resp, body := postJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/idp/callback",
			tenant.CallbackRequest{IDToken: signTypedWithProviderKey(t, m, "JWT", at), AccessToken: good.AccessToken, Nonce: "nonce-1"})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("got %d %v", resp.StatusCode, body)
		}
	})
	var n int
	if err := m.Store.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM tenant_sessions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d sessions stored (%v), want only the one with an id_token's typ", n, err)
	}
}
