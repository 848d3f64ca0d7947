package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

func (a *API) internalUserRoutes() []Route {
	s, t := a.svc, a.svc.InternalUserResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/internal-users", Op: admin.OpInternalUserList, Handle: paged(s.ListInternalUsers)},
		{Method: http.MethodPost, Pattern: "/internal-users", Op: admin.OpInternalUserCreate,
			Handle: withBody(http.StatusCreated, s.CreateInternalUser)},
		{Method: http.MethodGet, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserGet, Locate: t,
			Handle: byID(http.StatusOK, s.InternalUser)},
		{Method: http.MethodPatch, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserUpdate, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateInternalUser)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/resend-invitation", Op: admin.OpInternalUserInvitationResend,
			Locate: t, Handle: byID(http.StatusOK, s.ResendInternalInvitation)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/revoke-invitation", Op: admin.OpInternalUserInvitationRevoke,
			Locate: t, Handle: byID(http.StatusOK, s.RevokeInternalInvitation)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/unlock", Op: admin.OpInternalUserUnlock,
			Locate: t, Handle: byID(http.StatusOK, s.UnlockInternalUser)},
		{Method: http.MethodDelete, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserRemove, Locate: t,
			Handle: deleteByID(s.RemoveInternalUser)},
	}
}
