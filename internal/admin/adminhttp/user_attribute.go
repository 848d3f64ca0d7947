package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

// userAttributeRoutes: definitions of custom user attributes, an
// internal-infrastructure resource (R4.6-infra) of platform_admin alone.
func (a *API) userAttributeRoutes() []Route {
	const act = authz.ManageUserAttributes
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/user-attributes", Action: act, Handle: ofCaller(http.StatusOK, s.ListUserAttributes)},
		{Method: http.MethodPost, Pattern: "/user-attributes", Action: act, Write: true, Handle: withBody(http.StatusCreated, s.CreateUserAttribute)},
		{Method: http.MethodGet, Pattern: "/user-attributes/{id}", Action: act, Handle: byID(http.StatusOK, s.UserAttribute)},
		{Method: http.MethodPatch, Pattern: "/user-attributes/{id}", Action: act, Write: true,
			Handle: byIDWithBody(http.StatusOK, s.UpdateUserAttribute)},
		{Method: http.MethodDelete, Pattern: "/user-attributes/{id}", Action: act, Write: true, Handle: deleteByID(s.DeleteUserAttribute)},
	}
}
