package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

func (a *API) internalUserRoutes() []Route {
	s, t := a.svc, a.svc.InternalUserResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/internal-users", Action: authz.ManageInternalUsers, Handle: paged(s.ListInternalUsers)},
		{Method: http.MethodPost, Pattern: "/internal-users", Action: authz.ManageInternalUsers, Write: true,
			Handle: withBody(http.StatusCreated, s.CreateInternalUser)},
		{Method: http.MethodGet, Pattern: "/internal-users/{id}", Action: authz.ManageInternalUsers, Target: t,
			Handle: byID(http.StatusOK, s.InternalUser)},
		{Method: http.MethodPatch, Pattern: "/internal-users/{id}", Action: authz.ManageInternalUsers, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateInternalUser)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/resend-invitation", Action: authz.ManageInternalUsers, Write: true,
			Target: t, Handle: byID(http.StatusOK, s.ResendInternalInvitation)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/revoke-invitation", Action: authz.ManageInternalUsers, Write: true,
			Target: t, Handle: byID(http.StatusOK, s.RevokeInternalInvitation)},
		{Method: http.MethodPost, Pattern: "/internal-users/{id}/unlock", Action: authz.ManageInternalUsers, Write: true,
			Target: t, Handle: byID(http.StatusOK, s.UnlockInternalUser)},
		{Method: http.MethodDelete, Pattern: "/internal-users/{id}", Action: authz.ManageInternalUsers, Write: true, Target: t,
			Handle: deleteByID(s.RemoveInternalUser)},
	}
}
