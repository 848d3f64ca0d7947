package access

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// TypeLogoutToken is the "typ" header of the identity provider's logout
// tokens (OpenID Connect Back-Channel Logout 1.0 section 2.4).
const TypeLogoutToken = "logout+jwt"

// BackchannelLogoutEvent is the member of a logout token's events claim.
const BackchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

// LogoutToken is what a relying party needs of a verified logout token.
type LogoutToken struct {
	Subject   string    // the user; empty when only sid is given
	SessionID string    // the provider session; empty when every session ended
	IssuedAt  time.Time // sessions that began after it stay
}

// VerifyLogout checks a logout token for the verifier's audience (section
// 2.6): typ logout+jwt, signed by a key of the provider's JWKS, of the
// issuer, for the audience, iat and exp present and within the leeway, a
// jti, sub or sid, the back-channel logout event as a JSON object, and no
// nonce (which would make it an id_token). Its error names the reason.
func (v *TokenVerifier) VerifyLogout(ctx context.Context, raw string) (*LogoutToken, error) {
	var own struct {
		SessionID string                     `json:"sid"`
		Events    map[string]json.RawMessage `json:"events"`
		Nonce     *json.RawMessage           `json:"nonce"`
	}
	std, err := v.claims(ctx, raw, TypeLogoutToken, &own)
	if err != nil {
		return nil, err
	}
	event, hasEvent := own.Events[BackchannelLogoutEvent]
	switch {
	case std.Expiry == nil || std.IssuedAt == nil || std.ID == "":
		return nil, refuse("exp, iat and jti are required")
	case std.Subject == "" && own.SessionID == "":
		return nil, refuse("sub or sid is required")
	case !hasEvent || !isJSONObject(event):
		return nil, refuse("the back-channel logout event is missing")
	case own.Nonce != nil:
		return nil, refuse("a logout token carries no nonce")
	}
	if err := v.current(std); err != nil {
		return nil, err
	}
	return &LogoutToken{Subject: std.Subject, SessionID: own.SessionID, IssuedAt: std.IssuedAt.Time()}, nil
}

// parse checks raw's form, header type and key, and returns the token and
// the key to verify it with.
func (v *TokenVerifier) parse(ctx context.Context, raw, wantTyp string) (*jwt.JSONWebToken, *jose.JSONWebKey, error) {
	tok, err := jwt.ParseSigned(raw, signingAlgorithms)
	if err != nil {
		return nil, nil, refuse("not a signed JWT of an accepted algorithm")
	}
	if len(tok.Headers) != 1 {
		return nil, nil, refuse("one signature expected")
	}
	h := tok.Headers[0]
	typ, _ := h.ExtraHeaders[jose.HeaderType].(string)
	if !strings.EqualFold(typ, wantTyp) && !strings.EqualFold(typ, "application/"+wantTyp) {
		return nil, nil, refuse("typ %q is not %s", clip(typ), wantTyp)
	}
	key, err := v.keys.Key(ctx, h.KeyID)
	if err != nil {
		return nil, nil, err
	}
	if key.Algorithm != "" && key.Algorithm != h.Algorithm {
		return nil, nil, refuse("key %s is not for %s", clip(h.KeyID), clip(h.Algorithm))
	}
	return tok, key, nil
}

func isJSONObject(m json.RawMessage) bool {
	var o map[string]any
	return json.Unmarshal(m, &o) == nil && o != nil
}
