package access

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Identity is who a request's credentials name: the user, and the grant
// they come from (an access token's grant_id, or the grant that created a
// tenant session), and how they were presented. Load refuses it once the
// user is suspended or gone or the grant revoked (D-credentials-follow).
type Identity struct {
	UserID  string
	GrantID string
	Via     Via
	// Actor is who acts for UserID (an access token's act claim): an
	// impersonation's support user or a delegation's service account; ""
	// when the user acts itself. The authorization core refuses such a
	// caller every internal-infrastructure action and the owner's
	// (D-impersonation).
	Actor string
	// AuthTime, ACR and AMR are when and how the user signed in, as its
	// access token says (D-step-up); zero for a session cookie.
	AuthTime time.Time
	ACR      string
	AMR      []string
}

// Via is how a request's credentials were presented, which decides whether
// an unsafe request needs proof that it comes from the application's own
// pages (CSRF): what the browser attaches by itself needs it, what the
// client attaches itself does not.
type Via uint8

const (
	// ViaCookie: a session cookie, which a browser sends by itself, also
	// with a request another site's page makes (and with it any
	// Authorization the browser keeps for the host, such as Basic
	// credentials). It is the zero Via: an authenticator that says nothing
	// is taken for one.
	ViaCookie Via = iota
	// ViaBearer: an access token the client put into "Authorization:
	// Bearer" itself, which no page of another site can make a browser send.
	ViaBearer
)

// Authenticator finds the identity a request comes from. It answers the
// zero Identity and nil when the request carries none of its credentials
// (the next authenticator is asked), and an error when it carries them but
// they do not hold.
type Authenticator func(r *http.Request) (Identity, error)

// maxBearer bounds the length of a bearer token.
const maxBearer = 8192

// Bearer authenticates "Authorization: Bearer <access token>": an RFC 9068
// access token of the identity provider for v's audience, verified locally
// (signature against the cached JWKS, typ at+jwt, issuer, audience, expiry)
// (D-api-auth, D-token-typ). An id_token, or a token of another audience,
// does not verify. With more verifiers, a token of any of their audiences
// verifies (the data subgraph behind a router, D-graphql-router). Nothing
// of the token is logged.
func Bearer(vs ...*TokenVerifier) Authenticator {
	return func(r *http.Request) (Identity, error) {
		h := r.Header.Get("Authorization")
		if h == "" {
			return Identity{}, nil
		}
		if isDPoPScheme(h) {
			return Identity{}, nil // the DPoP authenticator's
		}
		raw, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || raw == "" || len(raw) > maxBearer {
			return Identity{}, errInvalidToken("a bearer access token is required")
		}
		tok, err := verifyAny(r.Context(), vs, raw)
		if err != nil {
			return Identity{}, errInvalidToken("the access token is not valid")
		}
		if tok.JKT != "" { // a DPoP-bound token is no bearer token (RFC 9449 section 7.2)
			return Identity{}, errInvalidToken("the access token is bound to a DPoP key: present it with the DPoP scheme and a proof")
		}
		return tok.identity(), nil
	}
}

// identity is who a verified access token names, presented by the client
// itself (Bearer or DPoP).
func (t *AccessToken) identity() Identity {
	return Identity{UserID: t.Subject, GrantID: t.GrantID, Via: ViaBearer, Actor: t.Actor, AuthTime: t.AuthTime,
		ACR: t.ACR, AMR: t.AMR}
}

// invalidToken marks an EUNAUTHORIZED error whose credentials were presented
// and refused, as opposed to missing (RFC 6750: error="invalid_token").
type invalidToken struct{ err *platform.Error }

func (e invalidToken) Error() string { return e.err.Error() }
func (e invalidToken) Unwrap() error { return e.err }

func errInvalidToken(msg string) error {
	return invalidToken{platform.Errorf(platform.EUNAUTHORIZED, "%s", msg)}
}

// Require authenticates each request with the first authenticator that
// finds credentials, loads its caller and puts it in the request's context.
// No credentials, credentials that do not hold, or credentials of a
// suspended or deleted user or a revoked grant: 401 with the 7.1 error object
// and WWW-Authenticate. A user without access: 403.
func (s *Service) Require(auths ...Authenticator) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := s.authenticate(r, auths)
			if err != nil {
				if platform.ErrorCode(err) == platform.EUNAUTHORIZED {
					w.Header().Set("WWW-Authenticate", wwwAuthenticate(err))
				}
				var de dpopError
				if errors.As(err, &de) {
					w.Header().Set("WWW-Authenticate", de.challenge)
					if de.nonce != "" {
						w.Header().Set(dpop.HeaderNonce, de.nonce)
					}
				}
				httpapi.WriteError(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(WithCaller(r.Context(), c)))
		})
	}
}

// wwwAuthenticate is the challenge of a 401 (RFC 6750 section 3).
func wwwAuthenticate(err error) string {
	var inv invalidToken
	if errors.As(err, &inv) || errors.Is(err, store.ErrCredentialsEnded) {
		return `Bearer realm="api", error="invalid_token"`
	}
	return `Bearer realm="api"`
}

func (s *Service) authenticate(r *http.Request, auths []Authenticator) (*Caller, error) {
	for _, a := range auths {
		id, err := a(r)
		if err != nil {
			return nil, err
		}
		if id.UserID != "" {
			return s.Load(r.Context(), id)
		}
	}
	return nil, platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
}

// MustCaller returns the caller Require put in ctx; it panics without one, which
// is a routing mistake.
func MustCaller(ctx context.Context) *Caller {
	c := From(ctx)
	if c == nil {
		panic("access: no caller in context; route is missing Require")
	}
	return c
}
