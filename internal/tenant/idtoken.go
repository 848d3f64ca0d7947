package tenant

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
)

// typeIDToken is the "typ" header the identity provider signs id_tokens
// with; its access tokens carry "at+jwt" and its logout tokens
// "logout+jwt" (D-token-typ).
const typeIDToken = "JWT"

// idTokenAlgorithms are the algorithms the identity provider signs with.
var idTokenAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256}

// verifyIDToken checks raw as an id_token of this instance's client: go-oidc
// verifies its signature, issuer, audience and expiry, and its JOSE header
// must say it is an id_token (typ JWT). Every token the provider signs for
// this client passes go-oidc's checks, so without the header an access
// token, which carries the same issuer, audience and subject, would pass
// for an id_token; the nonce must not be what tells them apart. The error
// never carries the token.
func (t *Tenant) verifyIDToken(ctx context.Context, raw string) (*gooidc.IDToken, error) {
	idt, err := t.verifier.Verify(ctx, raw)
	if err != nil {
		return nil, err
	}
	if err := idTokenType(raw); err != nil {
		return nil, err
	}
	return idt, nil
}

// idTokenType refuses a JWS whose protected header's typ is not JWT (or
// application/jwt, RFC 7515 section 4.1.9), a missing typ included.
func idTokenType(raw string) error {
	jws, err := jose.ParseSigned(raw, idTokenAlgorithms)
	if err != nil {
		return errors.New("id_token: not a signed JWT of an accepted algorithm")
	}
	if len(jws.Signatures) != 1 {
		return errors.New("id_token: one signature expected")
	}
	typ, _ := jws.Signatures[0].Protected.ExtraHeaders[jose.HeaderType].(string)
	if !strings.EqualFold(typ, typeIDToken) && !strings.EqualFold(typ, "application/"+typeIDToken) {
		return fmt.Errorf("id_token: header typ %q is not %s", clip(typ), typeIDToken)
	}
	return nil
}

// clip shortens a value taken from a token before it goes into a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
