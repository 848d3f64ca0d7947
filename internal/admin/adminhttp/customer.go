package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

func (a *API) customerRoutes() []Route {
	s, t := a.svc, a.svc.CustomerResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers", Action: authz.ViewUsageUnits, Handle: paged(s.ListCustomers)},
		{Method: http.MethodPost, Pattern: "/customers", Action: authz.CreateCustomer, Write: true,
			Handle: withBody(http.StatusCreated, s.CreateCustomer)},
		{Method: http.MethodGet, Pattern: "/customers/{id}", Action: authz.ViewUsageUnits, Target: t, Handle: byID(http.StatusOK, s.Customer)},
		{Method: http.MethodPatch, Pattern: "/customers/{id}", Action: authz.ManageCustomerConfig, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateCustomer)},
		{Method: http.MethodDelete, Pattern: "/customers/{id}", Action: authz.DeleteCustomer, Write: true, Target: t,
			Handle: deleteByID(s.DeleteCustomer)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/settings", Action: authz.ManageCustomerConfig, Target: t,
			Handle: byID(http.StatusOK, s.CustomerSettings)},
		{Method: http.MethodPut, Pattern: "/customers/{id}/settings", Action: authz.ManageCustomerConfig, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.PutCustomerSettings)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/transfer-ownership", Action: authz.TransferOwnership, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.TransferOwnership)},
	}
}
