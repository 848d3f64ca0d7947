package idp

import (
	"context"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/store"
)

// Access tokens are RFC 9068 JWTs (D-token-typ): the header's typ is
// at+jwt, so that no API mistakes an id_token (typ JWT) for one, and the
// claims are iss, sub, aud, client_id, iat, nbf, exp, jti (the stored
// token's id), scope, grant_id (the token family: the authorization or
// refresh chain it comes from, whose revocation ends it at every API) and
// the home organization; cnf.jkt when the token is bound to a DPoP key
// (dpop.go).
//
// zitadel/oidc signs its own JWT access tokens with typ JWT and offers no
// hook for the header. So clients are of access-token type Bearer, whose
// token the library takes from Crypto.Encrypt(tokenID + ":" + subject), and
// the storage returns, as the token id, the access token it signed itself:
// tokenCrypto.Encrypt hands it back unchanged. Everything else (codes) is
// sealed as before, and the library's own reading of access tokens
// (userinfo, introspection, revocation) falls back from Decrypt to verifying
// the JWT against the key set, which gives it the jti.

// typeAccessToken is the access token's header type (RFC 9068 section 2.1).
const typeAccessToken = "at+jwt"

// accessTokenClaims are the claims of an access token.
type accessTokenClaims struct {
	Issuer     string   `json:"iss"`
	Subject    string   `json:"sub"`
	Audience   []string `json:"aud"`
	ClientID   string   `json:"client_id"`
	IssuedAt   int64    `json:"iat"`
	NotBefore  int64    `json:"nbf"`
	Expiry     int64    `json:"exp"`
	ID         string   `json:"jti"`
	Scope      string   `json:"scope,omitempty"`
	GrantID    string   `json:"grant_id"`
	HomeOrgID  string   `json:"urn:idp:iam:user:resourceowner:id,omitempty"`
	AuthTime   int64    `json:"auth_time,omitempty"`
	AuthMethod []string `json:"amr,omitempty"`
	// Confirmation binds the token to a DPoP key (RFC 9449 section 6.1).
	Confirmation *confirmation `json:"cnf,omitempty"`
	// ACR is the authentication context class the sign-in reached (ACRMFA,
	// ACRPhishingResistant, or none), for step-up (D-step-up).
	ACR string `json:"acr,omitempty"`
	// Actor names who acts for the subject: an impersonation's support
	// user or a delegation's service account (RFC 8693, D-impersonation).
	Actor *actorClaim `json:"act,omitempty"`
}

// signAccessToken signs the access token t as an RFC 9068 JWT with the
// current signing key.
func (s *storage) signAccessToken(ctx context.Context, req op.TokenRequest, t *store.AccessToken) (string, error) {
	return s.keys.signJWT(ctx, typeAccessToken, s.claimsOf(ctx, req, t))
}

// claimsOf is the claims of access token t issued for req (nil for a
// token exchange, which has no sign-in of its own).
func (s *storage) claimsOf(ctx context.Context, req op.TokenRequest, t *store.AccessToken) accessTokenClaims {
	aud := t.Audience
	if len(aud) == 0 {
		aud = []string{t.ClientID}
	}
	c := accessTokenClaims{Issuer: s.cfg.Issuer, Subject: t.UserID, Audience: aud, ClientID: t.ClientID,
		IssuedAt: t.CreatedAt.Unix(), NotBefore: t.CreatedAt.Unix(), Expiry: t.ExpiresAt.Unix(), ID: t.ID,
		Scope: strings.Join(t.Scopes, " "), GrantID: t.FamilyID}
	if b := boundTo(ctx); b.jkt != "" {
		c.Confirmation = &confirmation{JKT: b.jkt}
	}
	if u, err := s.user(ctx, t.UserID); err == nil { // client_credentials tokens have no user
		c.HomeOrgID = u.OrgID
	}
	if r, ok := req.(op.IDTokenRequest); ok {
		if at := r.GetAuthTime(); !at.IsZero() {
			c.AuthTime = at.Unix()
		}
		c.AuthMethod = r.GetAMR()
		c.ACR = acrOf(c.AuthMethod)
	}
	if a, ok := req.(authRequest); ok && a.ActorID != "" { // an impersonated authorization (D-impersonation)
		c.Actor = &actorClaim{Subject: a.ActorID}
	}
	return c
}

// grantLifetime is how long a grant lives at least once it issued a token:
// as long as the longest token issued with it (a session made from the
// id_token may outlive the access token).
func (p *storage) grantLifetime() time.Duration {
	return max(p.cfg.AccessTokenLifetime, p.cfg.IDTokenLifetime)
}

// tokenCrypto is the provider's op.Crypto: the library's sealing of codes,
// and the pass-through of the access tokens the storage signed (see above).
type tokenCrypto struct{ op.Crypto }

// newTokenCrypto returns the crypto of a provider whose codes are sealed with key.
func newTokenCrypto(key [32]byte) op.Crypto {
	return tokenCrypto{op.NewAES256GCMCrypto(key, "")}
}

// Encrypt returns the access token of "<access token>:<subject>" (what the
// library asks for a bearer access token) as it is, and seals anything else.
func (c tokenCrypto) Encrypt(s string) (string, error) {
	if tok, _, ok := strings.Cut(s, ":"); ok && strings.Count(tok, ".") == 2 && strings.HasPrefix(tok, "ey") {
		return tok, nil
	}
	return c.Crypto.Encrypt(s)
}
