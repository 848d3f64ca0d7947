package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

// serviceAccountRoutes: a customer's service accounts, open to
// account_manager within scope (R4.6-customer-side), and the internal ones
// (platform_admin). An internal account's own routes are decided again in
// the service, as internal users.
func (a *API) serviceAccountRoutes() []Route {
	s, cust, sa := a.svc, a.svc.CustomerResource, a.svc.ServiceAccountResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers/{id}/service-accounts", Op: admin.OpServiceAccountList, Locate: cust,
			Handle: byID(http.StatusOK, s.ListServiceAccounts)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/service-accounts", Op: admin.OpServiceAccountCreate, Locate: cust,
			Handle: byIDWithBody(http.StatusCreated, s.CreateServiceAccount)},
		{Method: http.MethodGet, Pattern: "/service-accounts/{id}", Op: admin.OpServiceAccountGet, Locate: sa, Handle: byID(http.StatusOK, s.ServiceAccount)},
		{Method: http.MethodDelete, Pattern: "/service-accounts/{id}", Op: admin.OpServiceAccountDelete, Locate: sa,
			Handle: deleteByID(s.DeleteServiceAccount)},
		{Method: http.MethodPost, Pattern: "/service-accounts/{id}/rotate-secret", Op: admin.OpServiceAccountSecretRotate, Locate: sa,
			Handle: byID(http.StatusOK, s.RotateServiceAccountSecret)},
		{Method: http.MethodPut, Pattern: "/service-accounts/{id}/keys", Op: admin.OpServiceAccountKeysPut, Locate: sa,
			Handle: byIDWithBody(http.StatusOK, s.SetServiceAccountKeys)},
		{Method: http.MethodPut, Pattern: "/service-accounts/{id}/role", Op: admin.OpServiceAccountRolePut, Locate: sa,
			Handle: byIDWithBody(http.StatusOK, s.SetServiceAccountRole)},
		// internal service accounts: platform_admin's, like internal users
		{Method: http.MethodGet, Pattern: "/service-accounts", Op: admin.OpInternalServiceAccountList,
			Handle: ofCaller(http.StatusOK, s.ListInternalServiceAccounts)},
		{Method: http.MethodPost, Pattern: "/service-accounts", Op: admin.OpInternalServiceAccountCreate,
			Handle: withBody(http.StatusCreated, s.CreateInternalServiceAccount)},
	}
}
