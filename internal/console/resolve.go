package console

import (
	"context"
	"strings"

	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
)

// Resolve-org types (R4.1-ro-types).
const (
	TypeInternal = "internal"
	TypeCustomer = "customer"
	TypeNotFound = "not_found"
)

// ResolveOrgResponse is the body of POST /api/v1/login/resolve-org (D-resolve-org).
type ResolveOrgResponse struct {
	Type        string       `json:"type"`
	Orgs        []OrgRef     `json:"orgs"`
	AuthMethods []OrgMethods `json:"authMethods"`
}

// OrgRef names an organization, with its branding when it has one.
type OrgRef struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"`
	Brand *OrgBrand `json:"brand,omitempty"`
}

// OrgBrand is the branding the gateway shows once the organization is
// known (D-branding): the display name, the primary colour with the text
// colour on it (both #rrggbb, checked again here), the logo's URL at the
// identity provider; "" for each the default.
type OrgBrand struct {
	DisplayName  string `json:"displayName,omitempty"`
	PrimaryColor string `json:"primaryColor,omitempty"`
	TextColor    string `json:"textColor,omitempty"`
	LogoURL      string `json:"logoUrl,omitempty"`
}

// brandOf is the gateway's view of an organization's branding; nil for none.
func (c *Console) brandOf(b platform.OrgBrand) *OrgBrand {
	out := &OrgBrand{DisplayName: b.DisplayName}
	if branding.IsHexColor(b.PrimaryColor) {
		out.PrimaryColor = strings.ToLower(b.PrimaryColor)
		out.TextColor, _ = branding.TextColor(out.PrimaryColor)
	}
	if branding.IsLogoHash(b.LogoSHA256) {
		out.LogoURL = strings.TrimSuffix(c.cfg.Issuer, "/") + branding.LogoPath(b.LogoSHA256)
	}
	if *out == (OrgBrand{}) {
		return nil
	}
	return out
}

// OrgMethods are the sign-in methods of one organization.
type OrgMethods struct {
	OrgID   string   `json:"orgId"`
	Methods []Method `json:"methods"`
}

// Method is password, passkey (D-passkeys), or sso with the external
// provider's id and name.
type Method struct {
	Type  string `json:"type"`
	IDPID string `json:"idpId,omitempty"`
	Name  string `json:"name,omitempty"`
}

// ResolveOrg says who an e-mail address belongs to: an internal
// administrator, the customer organizations it may sign in to with their
// methods, or nobody. Its cost does not depend on whether the address is
// known (the same statements run). EINVALID for a malformed address.
func (c *Console) ResolveOrg(ctx context.Context, email string) (*ResolveOrgResponse, error) {
	email = platform.NormalizeEmail(email)
	if !platform.ValidEmail(email) {
		return nil, platform.Errorf(platform.EINVALID, "email must be an e-mail address")
	}
	ms, err := c.store.OrgMemberships(ctx, email, c.cfg.AdminOrgID)
	if err != nil {
		return nil, err
	}
	resp := &ResolveOrgResponse{Type: TypeNotFound, Orgs: []OrgRef{}, AuthMethods: []OrgMethods{}}
	for _, m := range ms {
		if m.Internal && m.UserExists {
			return &ResolveOrgResponse{Type: TypeInternal, Orgs: []OrgRef{}, AuthMethods: []OrgMethods{}}, nil
		}
	}
	for _, m := range ms {
		if m.CustomerID == "" {
			continue // not a customer organization (e.g. a directory behind SSO)
		}
		// The organization whose customer holds the address's domain
		// verified is its home realm (D-verified-domains): it answers the
		// same methods whether or not the account exists.
		known := m.UserExists || m.DomainVerified
		var methods []Method
		if m.PasswordAllowed && !m.PasskeyRequired && known {
			methods = append(methods, Method{Type: "password"})
		}
		if m.PasskeyAllowed && known { // D-passkeys: R4.1-ro-types names password and sso
			methods = append(methods, Method{Type: "passkey"})
		}
		if m.SSOAllowed {
			for _, p := range m.Providers {
				methods = append(methods, Method{Type: "sso", IDPID: p.ID, Name: p.Name})
			}
		}
		if len(methods) == 0 {
			continue
		}
		resp.Type = TypeCustomer
		resp.Orgs = append(resp.Orgs, OrgRef{ID: m.OrgID, Name: m.OrgName, Brand: c.brandOf(m.Brand)})
		resp.AuthMethods = append(resp.AuthMethods, OrgMethods{OrgID: m.OrgID, Methods: methods})
	}
	return resp, nil
}

// ResolveClient applies R4.1-rc1 to R4.1-rc4: the client must be an
// instance connection, its stored redirect URI non-empty, and redirectURI
// either that URI or its /3/auth/callback twin. It returns the registered
// URIs when valid.
func (c *Console) ResolveClient(ctx context.Context, clientID, redirectURI string) (bool, []string, error) {
	if clientID == "" || redirectURI == "" || len(clientID) > 256 || len(redirectURI) > 2048 {
		return false, nil, nil
	}
	conn, err := c.store.ConnectionByClientID(ctx, clientID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return false, nil, nil // rule 1
	}
	if err != nil {
		return false, nil, err
	}
	registered := RegisteredRedirects(conn.OIDCRedirectURI)
	if len(registered) == 0 {
		return false, nil, nil // rule 2, legacy records (R9-legacy)
	}
	for _, r := range registered {
		if r == redirectURI {
			return true, registered, nil // rule 4
		}
	}
	return false, nil, nil // rule 3
}

// RegisteredRedirects are the redirect URIs an instance connection accepts:
// the stored one and, for {instance}/auth/callback, {instance}/3/auth/callback
// (R2.5-instance-app, R9-callbacks).
func RegisteredRedirects(stored string) []string {
	if stored == "" {
		return nil
	}
	out := []string{stored}
	if base, ok := strings.CutSuffix(stored, "/auth/callback"); ok && !strings.HasSuffix(base, "/3") {
		out = append(out, base+"/3/auth/callback")
	}
	return out
}

// appName names a registered tenant app for the gateway: the name of the
// instance its client belongs to ("the application" when it cannot be read).
func (c *Console) appName(ctx context.Context, clientID string) string {
	conn, err := c.store.ConnectionByClientID(ctx, clientID)
	if err != nil {
		return "the application"
	}
	in, err := c.store.InstanceRow(ctx, conn.InstanceID)
	if err != nil || in.Name == "" {
		return "the application"
	}
	return in.Name
}
