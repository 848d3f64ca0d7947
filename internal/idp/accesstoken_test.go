package idp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/platform/platform/internal/access"
)

// jwtPart decodes the header (0) or the claims (1) of a compact JWT.
func jwtPart(t *testing.T, raw string, i int) map[string]any {
	t.Helper()
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		t.Fatalf("not a compact JWT: %d parts", len(parts))
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[i])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Access tokens are RFC 9068 JWTs: typ at+jwt (the id_token keeps JWT), the
// required claims, jti naming the stored token and grant_id naming the
// token family, the same across a refresh. The APIs' verifier accepts the
// access token against the provider's real key set and refuses the id_token.
//
// spec: R5.7-claims
func TestAccessTokenIsRFC9068(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	ctx := context.Background()

	if typ := jwtPart(t, tok.AccessToken, 0)["typ"]; typ != "at+jwt" {
		t.Errorf("access token typ = %v, want at+jwt", typ)
	}
	idToken := tok.Extra("id_token").(string)
	if typ := jwtPart(t, idToken, 0)["typ"]; typ != "JWT" {
		t.Errorf("id_token typ = %v, want JWT", typ)
	}
	c := jwtPart(t, tok.AccessToken, 1)
	for _, k := range []string{"iss", "sub", "aud", "client_id", "iat", "exp", "jti", "grant_id", "scope"} {
		if c[k] == nil {
			t.Errorf("claim %s missing: %v", k, c)
		}
	}
	if c["iss"] != ti.issuer || c["sub"] != userAlice || c["client_id"] != appClientID || c[ClaimResourceOwnerID] != orgA {
		t.Errorf("claims = %v", c)
	}
	if aud, _ := c["aud"].([]any); len(aud) != 1 || aud[0] != appClientID {
		t.Errorf("aud = %v", c["aud"])
	}
	if exp, iat := c["exp"].(float64), c["iat"].(float64); exp-iat != (15 * time.Minute).Seconds() {
		t.Errorf("lifetime = %v s", exp-iat)
	}
	jti, grant := c["jti"].(string), c["grant_id"].(string)
	if at, err := ti.st.ActiveAccessToken(ctx, jti, time.Now()); err != nil || at.FamilyID != grant || at.UserID != userAlice {
		t.Errorf("stored token %s = %+v, %v", jti, at, err)
	}
	if g, err := ti.st.TokenGrant(ctx, grant); err != nil || g.UserID != userAlice || g.ClientID != appClientID || !g.RevokedAt.IsZero() ||
		!g.ExpiresAt.After(time.Now().Add(29*24*time.Hour)) {
		t.Errorf("grant %s = %+v, %v (it lives as long as the refresh token)", grant, g, err)
	}

	v := access.NewTokenVerifier(ti.issuer, appClientID, access.NewKeySet(ti.issuer+PathKeys, ti.srv.Client()))
	got, err := v.Verify(ctx, tok.AccessToken)
	if err != nil || got.GrantID != grant || got.Subject != userAlice || got.ID != jti {
		t.Fatalf("verify = %+v, %v", got, err)
	}
	if _, err := v.Verify(ctx, idToken); err == nil {
		t.Error("the APIs' verifier accepted an id_token")
	}
	if _, err := access.NewTokenVerifier(ti.issuer, "other-client", access.NewKeySet(ti.issuer+PathKeys, nil)).Verify(ctx, tok.AccessToken); err == nil {
		t.Error("an access token verified for another audience")
	}
	if !ti.introspectActive(t, tok.AccessToken) {
		t.Error("userinfo refused the access token")
	}

	next, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	nc := jwtPart(t, next.AccessToken, 1)
	if nc["grant_id"] != grant || nc["jti"] == jti || jwtPart(t, next.AccessToken, 0)["typ"] != "at+jwt" {
		t.Errorf("refreshed claims = %v, want the same grant and a new jti", nc)
	}
}

// A service application's client_credentials token is an RFC 9068 token of
// its own grant too.
func TestClientCredentialsAccessToken(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.mustServiceApp()
	cc := clientcredentials.Config{ClientID: serviceClientID, ClientSecret: serviceSecret, TokenURL: ti.issuer + PathToken}
	tok, err := cc.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := jwtPart(t, tok.AccessToken, 1)
	if jwtPart(t, tok.AccessToken, 0)["typ"] != "at+jwt" || c["sub"] != serviceClientID || c["grant_id"] == nil || c["jti"] == nil {
		t.Fatalf("client_credentials token: header %v claims %v", jwtPart(t, tok.AccessToken, 0), c)
	}
	if g, err := ti.st.TokenGrant(context.Background(), c["grant_id"].(string)); err != nil || g.UserID != serviceClientID {
		t.Fatalf("grant = %+v, %v", g, err)
	}
}

// Refresh-token reuse and code replay revoke the grant the family's access
// tokens name, which is what every API checks (D-credentials-follow).
//
// attack: refresh-reuse-revokes-grant
func TestAttackReuseRevokesGrant(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ctx := context.Background()
	t.Run("RefreshReuse", func(t *testing.T) {
		r := ti.rp(gooidc.ScopeOpenID, gooidc.ScopeOfflineAccess)
		tok, _ := ti.loginTokens(r, alice)
		grant := jwtPart(t, tok.AccessToken, 1)["grant_id"].(string)
		if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
			t.Fatal("a used refresh token worked again")
		}
		if g, err := ti.st.TokenGrant(ctx, grant); err != nil || g.RevokedAt.IsZero() {
			t.Fatalf("grant after reuse = %+v, %v; want revoked", g, err)
		}
	})
	t.Run("CodeReplay", func(t *testing.T) {
		r := ti.rp()
		f := newFlow()
		code := ti.login(ti.browser(), r, f, alice, goodPass)
		tok, err := r.exchange(f, code)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.exchange(f, code); err == nil {
			t.Fatal("a code was redeemed twice")
		}
		grant := jwtPart(t, tok.AccessToken, 1)["grant_id"].(string)
		if g, err := ti.st.TokenGrant(ctx, grant); err != nil || g.RevokedAt.IsZero() {
			t.Fatalf("grant after code replay = %+v, %v; want revoked", g, err)
		}
	})
}
