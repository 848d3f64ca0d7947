package console

import (
	"context"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
)

// AuthorizeURL builds the authorize URL of a gateway login. EINVALID for a
// malformed request, EFORBIDDEN (with the generic message) when the address,
// organization or method is not one the user may use, or when the tenant
// app's client and redirect URI are not registered (R5.3-refuse).
func (c *Console) AuthorizeURL(ctx context.Context, in authorizeRequest) (string, error) {
	endpoint := c.cfg.Issuer + "/oauth/v2/authorize"
	p := AuthorizeParams{CodeChallenge: in.CodeChallenge, State: in.State, Nonce: in.Nonce,
		UILocales: i18n.Pick(i18n.UILocales(in.UILocales))}
	if in.Flow == "console-silent" { // R5.2-silent: the provider's session answers, or login_required
		p.ClientID, p.RedirectURI, p.Scopes, p.Prompt = c.cfg.ClientID, c.callbackURL(), OwnScopes("", ""), "none"
		return c.build(endpoint, p, []string{c.callbackURL()})
	}
	if in.Flow == "console-step-up" { // D-step-up: a new sign-in of the class a dangerous action asked for
		acr, maxAge, err := stepUpParams(in)
		if err != nil {
			return "", err
		}
		p.ClientID, p.RedirectURI, p.Scopes, p.Prompt = c.cfg.ClientID, c.callbackURL(), OwnScopes("", ""), "login"
		p.ACRValues, p.MaxAge, p.LoginHint = acr, maxAge, platform.NormalizeEmail(in.Email)
		return c.build(endpoint, p, []string{c.callbackURL()})
	}
	if in.Flow != "console" && in.Flow != "tenant" {
		return "", platform.Errorf(platform.EINVALID, "flow must be console or tenant")
	}
	res, err := c.ResolveOrg(ctx, in.Email)
	if err != nil {
		return "", err
	}
	p.LoginHint = platform.NormalizeEmail(in.Email)
	orgID, idpID := "", ""
	switch res.Type {
	case TypeInternal:
		if in.Flow == "tenant" {
			return "", platform.Errorf(platform.EFORBIDDEN, msgGeneric) // R4.1-ro-internal
		}
		// the console's own flow: no organization scope (R4.1-ro-internal)
	case TypeCustomer:
		if !methodAllowed(res, in.OrgID, in.Method, in.IDPID) {
			return "", platform.Errorf(platform.EFORBIDDEN, msgGeneric)
		}
		orgID = in.OrgID
		if in.Method == "sso" {
			idpID = in.IDPID
		}
	default:
		return "", platform.Errorf(platform.EFORBIDDEN, msgGeneric)
	}
	if in.Flow == "console" {
		p.ClientID, p.RedirectURI, p.Scopes = c.cfg.ClientID, c.callbackURL(), OwnScopes(orgID, idpID)
		return c.build(endpoint, p, []string{c.callbackURL()})
	}
	valid, registered, err := c.ResolveClient(ctx, in.ClientID, in.RedirectURI)
	if err != nil {
		return "", err
	}
	if !valid {
		return "", platform.Errorf(platform.EFORBIDDEN, "This application is not registered for sign-in.")
	}
	p.ClientID, p.RedirectURI, p.Scopes = in.ClientID, in.RedirectURI, SanitizeScopes(in.Scope, orgID, idpID)
	return c.build(endpoint, p, registered)
}

func (c *Console) build(endpoint string, p AuthorizeParams, registered []string) (string, error) {
	u, err := BuildAuthorizeURL(endpoint, p, registered)
	if err != nil {
		return "", platform.Errorf(platform.EINVALID, "the sign-in request is incomplete: a PKCE S256 challenge, state and nonce are required")
	}
	return u, nil
}

func (c *Console) callbackURL() string { return c.cfg.ConsoleURL + "/callback" }

func methodAllowed(res *ResolveOrgResponse, orgID, method, idpID string) bool {
	for _, om := range res.AuthMethods {
		if om.OrgID != orgID {
			continue
		}
		for _, m := range om.Methods {
			if m.Type == method && (method != "sso" || m.IDPID == idpID) {
				return true
			}
		}
	}
	return false
}

// stepUpACR are the classes a step-up may ask for (the identity
// provider's acr_values_supported).
var stepUpACR = map[string]bool{"urn:platform:acr:mfa": true, "urn:platform:acr:phr": true}

// stepUpParams checks a step-up's acr_values (known classes only) and
// max_age (0 to a day; none: -1). EINVALID.
func stepUpParams(in authorizeRequest) (string, int, error) {
	if !stepUpACR[in.ACRValues] {
		return "", 0, platform.Errorf(platform.EINVALID, "acrValues must be urn:platform:acr:mfa or urn:platform:acr:phr")
	}
	if in.MaxAge == nil {
		return in.ACRValues, -1, nil
	}
	if *in.MaxAge < 0 || *in.MaxAge > 86400 {
		return "", 0, platform.Errorf(platform.EINVALID, "maxAge must be 0 to 86400 seconds")
	}
	return in.ACRValues, *in.MaxAge, nil
}
