package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

// userAttributeRoutes: definitions of custom user attributes, an
// internal-infrastructure resource (R4.6-infra) of platform_admin alone.
func (a *API) userAttributeRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/user-attributes", Op: admin.OpUserAttributeList, Handle: ofCaller(http.StatusOK, s.ListUserAttributes)},
		{Method: http.MethodPost, Pattern: "/user-attributes", Op: admin.OpUserAttributeCreate, Handle: withBody(http.StatusCreated, s.CreateUserAttribute)},
		{Method: http.MethodGet, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeGet, Handle: byID(http.StatusOK, s.UserAttribute)},
		{Method: http.MethodPatch, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeUpdate,
			Handle: byIDWithBody(http.StatusOK, s.UpdateUserAttribute)},
		{Method: http.MethodDelete, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeDelete, Handle: deleteByID(s.DeleteUserAttribute)},
	}
}
