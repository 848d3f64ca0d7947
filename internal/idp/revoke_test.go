package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

const (
	serviceClientID = "resource-server"
	serviceSecret   = "a-long-random-service-secret"
)

// mustServiceApp registers the provider's management client (the console's
// service client), which may introspect any token (D-introspection).
func (ti *testIDP) mustServiceApp() {
	ti.t.Helper()
	if err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "svc-1", ClientID: serviceClientID,
		Name: "Resource server", Kind: platform.AppService, SecretHash: hashSecret(serviceSecret), Management: true,
		CreatedAt: time.Now()}); err != nil {
		ti.t.Fatal(err)
	}
}

func (ti *testIDP) introspect(t *testing.T, token, secret string) (int, map[string]any) {
	t.Helper()
	return ti.introspectAs(t, serviceClientID, secret, token)
}

// introspectAs asks the introspection endpoint about token as the client
// id with secret (Basic).
func (ti *testIDP) introspectAs(t *testing.T, id, secret, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ti.issuer+PathIntrospect, strings.NewReader(url.Values{"token": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

func (ti *testIDP) revoke(t *testing.T, token string) int {
	t.Helper()
	resp, err := http.PostForm(ti.issuer+PathRevoke, url.Values{"token": {token}, "client_id": {appClientID}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Introspection needs an authenticated service client; it reports an access
// token active until the token is revoked.
func TestIntrospectAndRevokeAccessToken(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.mustServiceApp()
	r := ti.rp()
	tok, _ := ti.loginTokens(r, alice)

	if code, _ := ti.introspect(t, tok.AccessToken, "wrong-secret"); code != http.StatusUnauthorized && code != http.StatusBadRequest {
		t.Fatalf("introspection with a wrong secret answered %d", code)
	}
	code, body := ti.introspect(t, tok.AccessToken, serviceSecret)
	if code != http.StatusOK || body["active"] != true || body["sub"] != userAlice || body["client_id"] != appClientID {
		t.Fatalf("introspection = %d %v", code, body)
	}
	if code := ti.revoke(t, tok.AccessToken); code != http.StatusOK {
		t.Fatalf("revoke answered %d", code)
	}
	if _, body := ti.introspect(t, tok.AccessToken, serviceSecret); body["active"] == true {
		t.Fatalf("revoked token still active: %v", body)
	}
	if ti.introspectActive(t, tok.AccessToken) {
		t.Fatal("userinfo accepted a revoked access token")
	}
}

// Revoking a refresh token revokes its family; unknown tokens are not an error (RFC 7009).
func TestRevokeRefreshToken(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	if code := ti.revoke(t, tok.RefreshToken); code != http.StatusOK {
		t.Fatalf("revoke answered %d", code)
	}
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("revoked refresh token still works")
	}
	if ti.introspectActive(t, tok.AccessToken) {
		t.Fatal("access token of a revoked family still active")
	}
	if code := ti.revoke(t, "no-such-token"); code != http.StatusOK {
		t.Fatalf("revoking an unknown token answered %d, want 200", code)
	}
}
