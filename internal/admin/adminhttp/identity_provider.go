package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

// identityProviderRoutes: a customer's SSO settings and identity providers,
// open to account_manager within scope (R4.6-customer-side).
func (a *API) identityProviderRoutes() []Route {
	s, cust, idp := a.svc, a.svc.CustomerResource, a.svc.IdentityProviderResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers/{id}/sso", Op: admin.OpSSOSettings, Locate: cust, Handle: byID(http.StatusOK, s.SSOSettings)},
		{Method: http.MethodPut, Pattern: "/customers/{id}/sso", Op: admin.OpSSOSettingsPut, Locate: cust,
			Handle: byIDWithBody(http.StatusOK, s.PutSSOSettings)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/identity-providers", Op: admin.OpIdentityProviderList, Locate: cust,
			Handle: byID(http.StatusOK, s.ListIdentityProviders)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/identity-providers", Op: admin.OpIdentityProviderCreate, Locate: cust,
			Handle: byIDWithBody(http.StatusCreated, s.CreateIdentityProvider)},
		{Method: http.MethodGet, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderGet, Locate: idp, Handle: byID(http.StatusOK, s.IdentityProvider)},
		{Method: http.MethodPatch, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderUpdate, Locate: idp,
			Handle: byIDWithBody(http.StatusOK, s.UpdateIdentityProvider)},
		{Method: http.MethodDelete, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderDelete, Locate: idp,
			Handle: deleteByID(s.DeleteIdentityProvider)},
		// platform_admin's trust in a provider to link accounts (D-linking)
		{Method: http.MethodPut, Pattern: "/identity-providers/{id}/trust", Op: admin.OpIdentityProviderTrust,
			Locate: idp, Handle: byIDWithBody(http.StatusOK, s.TrustIdentityProvider)},
	}
}
