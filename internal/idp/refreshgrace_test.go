package idp

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// refreshRaw posts a refresh grant as clientID and returns the status and
// the answer.
func (ti *testIDP) refreshRaw(t *testing.T, clientID, refreshToken string) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(ti.issuer+PathToken, url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {refreshToken}, "client_id": {clientID}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// A client that retries a refresh whose answer it lost, within the grace,
// gets the same successor tokens, and its sign-in lives on; the successor
// then rotates as usual (D-refresh-grace).
// spec: D-refresh-grace
func TestRefreshReuseGrace(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, func(c *Config) { c.RefreshReuseGrace = 10 * time.Second })
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	code, first := ti.refreshRaw(t, appClientID, tok.RefreshToken)
	if code != http.StatusOK {
		t.Fatalf("refresh: %d %v", code, first)
	}
	ti.clock.offset += 5 * time.Second
	code, again := ti.refreshRaw(t, appClientID, tok.RefreshToken)
	if code != http.StatusOK || again["refresh_token"] != first["refresh_token"] || again["access_token"] != first["access_token"] {
		t.Fatalf("retry within the grace: %d, same tokens %v", code, again["refresh_token"] == first["refresh_token"])
	}
	if !ti.introspectActive(t, first["access_token"].(string)) {
		t.Fatal("the retry revoked the family")
	}
	if code, next := ti.refreshRaw(t, appClientID, first["refresh_token"].(string)); code != http.StatusOK || next["refresh_token"] == first["refresh_token"] {
		t.Fatalf("the successor does not rotate: %d", code)
	}
}

// Outside the grace, or from another client, a used refresh token is reuse:
// the family is revoked, as D-refresh-reuse says.
// attack: refresh-grace-abuse
func TestAttackRefreshGraceAbuse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		after  time.Duration
		client string
	}{{"AfterTheGrace", 11 * time.Second, appClientID}, {"OtherClient", time.Second, "other-client"}} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t, func(c *Config) { c.RefreshReuseGrace = 10 * time.Second })
			if err := ti.st.CreateApplication(t.Context(), &platform.Application{AppID: "app-2", ClientID: "other-client",
				Name: "Other", Kind: platform.AppPublic, RedirectURIs: []string{appRedirect}, CreatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
			tok, _ := ti.loginTokens(r, alice)
			code, first := ti.refreshRaw(t, appClientID, tok.RefreshToken)
			if code != http.StatusOK {
				t.Fatalf("refresh: %d", code)
			}
			ti.clock.offset += tc.after
			if code, out := ti.refreshRaw(t, tc.client, tok.RefreshToken); code == http.StatusOK {
				t.Fatalf("a used refresh token answered %v", out)
			}
			if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: first["refresh_token"].(string)}).Token(); err == nil {
				t.Fatal("the family survived reuse")
			}
		})
	}
}
