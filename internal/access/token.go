package access

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// TypeAccessToken is the "typ" header of the identity provider's access
// tokens (RFC 9068 section 2.1, D-token-typ). An id_token carries "JWT".
const TypeAccessToken = "at+jwt"

// ClaimGrantID names the grant an access token comes from (its token
// family at the identity provider).
const ClaimGrantID = "grant_id"

// tokenLeeway is the clock skew tolerated on exp, nbf and iat.
const tokenLeeway = 30 * time.Second

// signingAlgorithms are the algorithms the identity provider signs with.
var signingAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256}

// AccessToken is what an API needs of a verified access token.
type AccessToken struct {
	ID       string // jti
	Subject  string // the user
	GrantID  string // the grant (token family) it comes from
	ClientID string
	Expiry   time.Time
	// JKT is the thumbprint of the DPoP key the token is bound to (cnf.jkt,
	// RFC 9449 section 6.1); "" for a bearer token.
	JKT string
	// Actor is who acts for Subject (the act claim's sub, RFC 8693): an
	// impersonation's support user or a delegation's service account; ""
	// when the user acts itself (D-impersonation).
	Actor string
	// AuthTime is when the user signed in (zero when the token says
	// nothing), and ACR and AMR how (D-step-up).
	AuthTime time.Time
	ACR      string
	AMR      []string
}

// TokenVerifier verifies the identity provider's access tokens for one
// audience (D-token-typ): a JWT with typ at+jwt, signed by a key of the
// provider's JWKS (RS256 or ES256), of the issuer, for the audience,
// unexpired, with sub, jti, client_id and grant_id. An id_token, a token
// of another audience or of another issuer does not verify. A token bound
// to a DPoP key (cnf.jkt) verifies with its JKT set; only the DPoP
// authenticator accepts it, with a proof of that key (D-dpop).
type TokenVerifier struct {
	issuer   string
	audience string
	keys     *KeySet
	now      func() time.Time
}

// NewTokenVerifier returns a verifier of access tokens issued by issuer for
// audience (the client id the API belongs to), checked against keys.
func NewTokenVerifier(issuer, audience string, keys *KeySet) *TokenVerifier {
	return &TokenVerifier{issuer: issuer, audience: audience, keys: keys, now: time.Now}
}

// errToken is every verification failure; the reason stays in the process
// (and never carries the token).
type errToken struct{ reason string }

func (e *errToken) Error() string { return "access token refused: " + e.reason }

func refuse(format string, args ...any) error { return &errToken{reason: fmt.Sprintf(format, args...)} }

// claims reads a token of type typ that parse accepts: its registered
// claims, and into own the claims of its type, once its signature verifies.
func (v *TokenVerifier) claims(ctx context.Context, raw, typ string, own any) (*jwt.Claims, error) {
	tok, key, err := v.parse(ctx, raw, typ)
	if err != nil {
		return nil, err
	}
	var std jwt.Claims
	if err := tok.Claims(key.Key, &std, own); err != nil {
		return nil, refuse("signature does not verify")
	}
	return &std, nil
}

// current checks the issuer, the audience and the times of std, within the
// leeway.
func (v *TokenVerifier) current(std *jwt.Claims) error {
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: v.issuer, AnyAudience: jwt.Audience{v.audience}, Time: v.now()},
		tokenLeeway); err != nil {
		return refuse("%v", err)
	}
	return nil
}

// Verify checks raw and returns what it says. Its error names the reason
// (never the token's contents).
func (v *TokenVerifier) Verify(ctx context.Context, raw string) (*AccessToken, error) {
	var own struct {
		ClientID string   `json:"client_id"`
		GrantID  string   `json:"grant_id"`
		AuthTime int64    `json:"auth_time"`
		ACR      string   `json:"acr"`
		AMR      []string `json:"amr"`
		CNF      *struct {
			JKT string `json:"jkt"`
		} `json:"cnf"`
		Act *struct {
			Subject string          `json:"sub"`
			Act     json.RawMessage `json:"act"`
		} `json:"act"`
	}
	std, err := v.claims(ctx, raw, TypeAccessToken, &own)
	if err != nil {
		return nil, err
	}
	switch {
	case std.Expiry == nil || std.IssuedAt == nil:
		return nil, refuse("exp and iat are required")
	case std.Subject == "" || std.ID == "" || own.ClientID == "" || own.GrantID == "":
		return nil, refuse("sub, jti, client_id and grant_id are required")
	}
	if own.CNF != nil && own.CNF.JKT == "" {
		return nil, refuse("cnf without jkt")
	}
	if err := v.current(std); err != nil {
		return nil, err
	}
	t := &AccessToken{ID: std.ID, Subject: std.Subject, GrantID: own.GrantID, ClientID: own.ClientID,
		Expiry: std.Expiry.Time(), ACR: own.ACR, AMR: own.AMR}
	if own.CNF != nil {
		t.JKT = own.CNF.JKT
	}
	if own.AuthTime > 0 {
		t.AuthTime = time.Unix(own.AuthTime, 0)
	}
	if own.Act != nil {
		if own.Act.Subject == "" || len(own.Act.Act) > 0 {
			return nil, refuse("act must name one actor") // the provider never chains actors
		}
		t.Actor = own.Act.Subject
	}
	return t, nil
}

// verifyAny verifies raw with each of vs until one accepts it: a token of
// any of their audiences verifies. An error that is not the token's (the
// key set could not be read) is logged; nothing of the token is.
func verifyAny(ctx context.Context, vs []*TokenVerifier, raw string) (*AccessToken, error) {
	var tok *AccessToken
	var err error
	for _, v := range vs {
		if tok, err = v.Verify(ctx, raw); err == nil {
			break
		}
	}
	if err != nil && !IsTokenError(err) {
		slog.ErrorContext(ctx, "access token not verified", "err", err)
	}
	return tok, err
}

// IsTokenError reports whether err is a refused token (as opposed to the
// key set being unreachable).
func IsTokenError(err error) bool {
	var e *errToken
	return errors.As(err, &e)
}

// clip shortens a value taken from a token before it goes into a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
