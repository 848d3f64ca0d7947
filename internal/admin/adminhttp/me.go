package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

func (a *API) meRoutes() []Route {
	return []Route{
		// Every caller may read its own permissions; the action is the one every role holds.
		{Method: http.MethodGet, Pattern: "/me/permissions", Op: admin.OpMePermissions, Handle: a.mePermissions},
	}
}

func (a *API) mePermissions(_ *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return http.StatusOK, a.svc.Permissions(c), nil
}
