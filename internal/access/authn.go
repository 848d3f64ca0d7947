package access

import (
	"context"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Authenticator finds the user a request comes from. It answers "" and nil
// when the request carries none of its credentials (the next authenticator
// is asked), and an error when it carries them but they do not hold.
type Authenticator func(r *http.Request) (userID string, err error)

// Bearer authenticates "Authorization: Bearer <access token>" of the
// identity provider, verified locally (signature against the cached JWKS,
// issuer, audience, expiry) (D-api-auth).
func Bearer(v *gooidc.IDTokenVerifier) Authenticator {
	return func(r *http.Request) (string, error) {
		h := r.Header.Get("Authorization")
		if h == "" {
			return "", nil
		}
		raw, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || raw == "" || len(raw) > 8192 {
			return "", platform.Errorf(platform.EUNAUTHORIZED, "a bearer access token is required")
		}
		tok, err := v.Verify(r.Context(), raw)
		if err != nil {
			return "", platform.Errorf(platform.EUNAUTHORIZED, "the access token is not valid")
		}
		return tok.Subject, nil
	}
}

// Require authenticates each request with the first authenticator that
// finds credentials, loads its caller and puts it in the request's context.
// No credentials, or credentials that do not hold: 401 with the 7.1 error
// object. A user without access: 403.
func (s *Service) Require(auths ...Authenticator) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := s.authenticate(r, auths)
			if err != nil {
				if platform.ErrorCode(err) == platform.EUNAUTHORIZED {
					w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
				}
				httpapi.WriteError(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(WithCaller(r.Context(), c)))
		})
	}
}

func (s *Service) authenticate(r *http.Request, auths []Authenticator) (*Caller, error) {
	for _, a := range auths {
		userID, err := a(r)
		if err != nil {
			return nil, err
		}
		if userID != "" {
			return s.Load(r.Context(), userID)
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
