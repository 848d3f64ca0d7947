package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

func (a *API) userRoutes() []Route {
	s, t := a.svc, a.svc.CustomerUserResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/users", Op: admin.OpUserList, Handle: pagedByCustomer(s.ListUsers)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/users", Op: admin.OpUserInvite, Locate: s.CustomerResource,
			Handle: byIDWithBody(http.StatusCreated, s.InviteUser)},
		{Method: http.MethodGet, Pattern: "/users/{id}", Op: admin.OpUserGet, Locate: t, Handle: byID(http.StatusOK, s.User)},
		{Method: http.MethodPatch, Pattern: "/users/{id}", Op: admin.OpUserUpdate, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateUser)},
		{Method: http.MethodDelete, Pattern: "/users/{id}", Op: admin.OpUserDelete, Locate: t,
			Handle: deleteByID(s.DeleteUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/suspend", Op: admin.OpUserSuspend, Locate: t,
			Handle: byID(http.StatusOK, s.SuspendUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/reactivate", Op: admin.OpUserReactivate, Locate: t,
			Handle: byID(http.StatusOK, s.ReactivateUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/resend-invitation", Op: admin.OpUserInvitationResend, Locate: t,
			Handle: byID(http.StatusOK, s.ResendInvitation)},
		{Method: http.MethodPost, Pattern: "/users/{id}/revoke-invitation", Op: admin.OpUserInvitationRevoke, Locate: t,
			Handle: byID(http.StatusOK, s.RevokeInvitation)},
		{Method: http.MethodPost, Pattern: "/users/{id}/unlock", Op: admin.OpUserUnlock, Locate: t,
			Handle: byID(http.StatusOK, s.UnlockUser)},
		{Method: http.MethodPost, Pattern: "/users/{id}/transfer-home-org", Op: admin.OpUserTransferHomeOrg, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.TransferHomeOrg)},
	}
}
