package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

func (a *API) customerRoutes() []Route {
	s, t := a.svc, a.svc.CustomerResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers", Op: admin.OpCustomerList, Handle: paged(s.ListCustomers)},
		{Method: http.MethodPost, Pattern: "/customers", Op: admin.OpCustomerCreate,
			Handle: withBody(http.StatusCreated, s.CreateCustomer)},
		{Method: http.MethodGet, Pattern: "/customers/{id}", Op: admin.OpCustomerGet, Locate: t, Handle: byID(http.StatusOK, s.Customer)},
		{Method: http.MethodPatch, Pattern: "/customers/{id}", Op: admin.OpCustomerUpdate, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateCustomer)},
		{Method: http.MethodDelete, Pattern: "/customers/{id}", Op: admin.OpCustomerDelete, Locate: t,
			Handle: deleteByID(s.DeleteCustomer)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/settings", Op: admin.OpCustomerSettings, Locate: t,
			Handle: byID(http.StatusOK, s.CustomerSettings)},
		{Method: http.MethodPut, Pattern: "/customers/{id}/settings", Op: admin.OpCustomerSettingsPut, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.PutCustomerSettings)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/transfer-ownership", Op: admin.OpCustomerTransferOwnership, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.TransferOwnership)},
	}
}
