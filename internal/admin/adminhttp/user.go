package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

func (a *API) userRoutes() []Route {
	s, t := a.svc, a.svc.CustomerUserResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/users", Action: authz.ManageCustomerUser, Handle: pagedByCustomer(s.ListUsers)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/users", Action: authz.ManageCustomerUser, Write: true, Target: s.CustomerResource,
			Handle: byIDWithBody(http.StatusCreated, s.InviteUser)},
		{Method: http.MethodGet, Pattern: "/users/{id}", Action: authz.ManageCustomerUser, Target: t, Handle: byID(http.StatusOK, s.User)},
		{Method: http.MethodPatch, Pattern: "/users/{id}", Action: authz.ManageCustomerUser, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateUser)},
		{Method: http.MethodDelete, Pattern: "/users/{id}", Action: authz.ManageCustomerUser, Write: true, Target: t,
			Handle: deleteByID(s.DeleteUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/suspend", Action: authz.SuspendUser, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.SuspendUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/reactivate", Action: authz.SuspendUser, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.ReactivateUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/resend-invitation", Action: authz.ManageCustomerUser, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.ResendInvitation)},
		{Method: http.MethodPost, Pattern: "/users/{id}/revoke-invitation", Action: authz.ManageCustomerUser, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.RevokeInvitation)},
		{Method: http.MethodPost, Pattern: "/users/{id}/unlock", Action: authz.SuspendUser, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.UnlockUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/transfer-home-org", Action: authz.TransferHomeOrg, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.TransferHomeOrg)},
	}
}
