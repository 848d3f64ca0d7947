package idp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/platform/platform/internal/platform"
)

// ClientAssertionType is the client_assertion_type of private_key_jwt
// (RFC 7523 section 2.2).
const ClientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionMaxLifetime bounds how far in the future a client assertion may
// expire: assertions are for one request, and their jti is remembered until
// they expire.
const assertionMaxLifetime = 5 * time.Minute

// assertionAlgorithms are the algorithms client assertions may be signed with.
var assertionAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.ES256, jose.ES384}

type assertedClientKey struct{}
type resourceKey struct{}

// assertedClient is the client whose assertion clientAuth verified for this
// request, or "".
func assertedClient(ctx context.Context) string {
	c, _ := ctx.Value(assertedClientKey{}).(string)
	return c
}

// requestedResource is the resource (RFC 8707) a client_credentials
// request named, or "".
func requestedResource(ctx context.Context) string {
	r, _ := ctx.Value(resourceKey{}).(string)
	return r
}

// clientAuth authenticates the client of a token request by the method its
// application is registered with, before the op library sees the request:
// a client assertion (private_key_jwt) is verified here, its jti accepted
// once; a secret must come the registered way (basic or post). Whatever
// does not hold is answered invalid_client. It also keeps the resource
// indicator of a client_credentials request for the token's audience.
func (p *endpoints) clientAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if err := r.ParseForm(); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
			return
		}
		ctx := r.Context()
		form := r.PostForm
		if form.Get("client_assertion_type") != "" || form.Get("client_assertion") != "" {
			if form.Get("client_assertion_type") != ClientAssertionType {
				oauthError(w, http.StatusUnauthorized, "invalid_client", "client_assertion_type must be "+ClientAssertionType)
				return
			}
			clientID, err := p.verifyClientAssertion(ctx, form.Get("client_assertion"), form.Get("client_id"))
			if err != nil {
				oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
				return
			}
			r.PostForm.Set("client_id", clientID)
			r.Form.Set("client_id", clientID)
			ctx = context.WithValue(ctx, assertedClientKey{}, clientID)
		} else if err := p.checkSecretMethod(ctx, r); err != nil {
			if _, _, basic := r.BasicAuth(); basic {
				w.Header().Set("WWW-Authenticate", `Basic realm="`+p.cfg.Issuer+`"`)
			}
			oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
			return
		}
		if form.Get("grant_type") == "client_credentials" {
			if len(form["resource"]) > 1 {
				oauthError(w, http.StatusBadRequest, "invalid_target", "one resource per token")
				return
			}
			ctx = context.WithValue(ctx, resourceKey{}, form.Get("resource"))
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// checkSecretMethod refuses a secret sent another way than the client's
// registered method (client_secret_basic or client_secret_post), and any
// secret of a private_key_jwt client.
func (p *endpoints) checkSecretMethod(ctx context.Context, r *http.Request) error {
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id == "" || (secret == "" && !basic) {
		return nil // no secret: a public client, or the op library answers
	}
	app, err := p.application(ctx, id)
	if err != nil {
		return nil // the op library answers an unknown client
	}
	switch m := app.TokenAuthMethod(); {
	case m == platform.AuthSecretBasic && !basic, m == platform.AuthSecretPost && basic:
		return fmt.Errorf("this client authenticates with %s", m)
	case m == platform.AuthPrivateKeyJWT:
		return errors.New("this client authenticates with private_key_jwt")
	}
	return nil
}

// verifyClientAssertion verifies a private_key_jwt assertion (RFC 7523): a
// JWT signed by one of the client's registered keys, iss and sub the
// client, aud the issuer, the token endpoint or the PAR endpoint, unexpired and expiring
// within assertionMaxLifetime, with a jti not seen before. It answers the
// client id.
func (p *endpoints) verifyClientAssertion(ctx context.Context, raw, clientID string) (string, error) {
	refused := errors.New("the client assertion is not valid")
	if raw == "" || len(raw) > 8192 {
		return "", refused
	}
	tok, err := jwt.ParseSigned(raw, assertionAlgorithms)
	if err != nil || len(tok.Headers) != 1 {
		return "", refused
	}
	var unverified jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil || unverified.Issuer == "" {
		return "", refused
	}
	iss := unverified.Issuer
	if clientID != "" && clientID != iss {
		return "", refused
	}
	app, err := p.application(ctx, iss)
	if err != nil || app.TokenAuthMethod() != platform.AuthPrivateKeyJWT {
		return "", refused
	}
	key, err := clientKey(app, tok.Headers[0].KeyID)
	if err != nil {
		return "", refused
	}
	var c jwt.Claims
	if err := tok.Claims(key.Key, &c); err != nil {
		return "", refused
	}
	now := p.now()
	if c.Subject != iss || c.ID == "" || c.Expiry == nil || c.Expiry.Time().After(now.Add(assertionMaxLifetime)) {
		return "", errors.New("the client assertion needs sub = iss, a jti and an exp within five minutes")
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: iss, AnyAudience: jwt.Audience{p.cfg.Issuer, p.cfg.Issuer + PathToken, p.cfg.Issuer + PathPAR},
		Time: now}, 30*time.Second); err != nil {
		return "", errors.New("the client assertion is expired or not for this issuer")
	}
	fresh, err := p.store.UseClientAssertion(ctx, iss, c.ID, c.Expiry.Time())
	if err != nil {
		return "", err
	}
	if !fresh {
		return "", errors.New("the client assertion was used before")
	}
	return iss, nil
}

// clientKey is the registered public key kid of app (the only one when kid
// is empty and there is one).
func clientKey(app *platform.Application, kid string) (*jose.JSONWebKey, error) {
	var set jose.JSONWebKeySet
	if err := json.Unmarshal([]byte(app.JWKS), &set); err != nil {
		return nil, err
	}
	if kid == "" && len(set.Keys) == 1 {
		return &set.Keys[0], nil
	}
	for i := range set.Keys {
		if set.Keys[i].KeyID == kid {
			return &set.Keys[i], nil
		}
	}
	return nil, errors.New("no such key")
}
