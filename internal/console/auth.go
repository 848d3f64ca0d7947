package console

import (
	"context"
	"net/http"
	"strings"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Principal is the caller of the console API, from a verified access token.
type Principal struct {
	UserID string
	OrgID  string
}

type principalKey struct{}

func principalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// requireBearer verifies the identity provider's access token locally
// (signature against the cached JWKS, issuer, audience = the console client,
// expiry) (D-api-auth). Roles are not read from the token (R5.7-claims).
func (c *Console) requireBearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || raw == "" || len(raw) > 8192 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="console"`)
			httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "a bearer access token is required"))
			return
		}
		tok, err := c.verifier.Verify(r.Context(), raw)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="console", error="invalid_token"`)
			httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "the access token is not valid"))
			return
		}
		var claims struct {
			OrgID string `json:"urn:idp:iam:user:resourceowner:id"`
		}
		_ = tok.Claims(&claims)
		ctx := context.WithValue(r.Context(), principalKey{}, &Principal{UserID: tok.Subject, OrgID: claims.OrgID})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// MeResponse is the body of GET /api/v1/auth/me.
type MeResponse struct {
	Role       string  `json:"role"`
	CustomerID *string `json:"customerId"`
	UserID     string  `json:"userId"`
	Email      string  `json:"email"`
	Name       string  `json:"name"`
	Customer   string  `json:"customerName,omitempty"`
}

// DefaultPortalRole is the role of a customer organization's user who has
// not been given one (for example a user created at first SSO sign-in).
const DefaultPortalRole = "member"

// Me resolves the caller's role and customer from the console's own data
// (R4.1-me): the user's console role, or the default portal role for a user
// of a customer organization. EFORBIDDEN otherwise.
func (c *Console) Me(ctx context.Context, p *Principal) (*MeResponse, error) {
	u, err := c.store.User(ctx, p.UserID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, platform.Errorf(platform.EFORBIDDEN, "this account has no access to the console")
	}
	if err != nil {
		return nil, err
	}
	cu, err := c.store.ConsoleUser(ctx, p.UserID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		cust, cerr := c.store.CustomerByOrg(ctx, u.OrgID)
		if cerr != nil {
			return nil, platform.Errorf(platform.EFORBIDDEN, "this account has no access to the console")
		}
		cu, err = &platform.ConsoleUser{UserID: u.ID, Role: DefaultPortalRole, CustomerID: cust.ID}, nil
	}
	if err != nil {
		return nil, err
	}
	me := &MeResponse{Role: cu.Role, UserID: u.ID, Email: u.Email, Name: u.Name}
	if cu.CustomerID != "" {
		id := cu.CustomerID
		me.CustomerID = &id
		if cust, err := c.store.Customer(ctx, id); err == nil {
			me.Customer = cust.Name
		}
	}
	return me, nil
}
