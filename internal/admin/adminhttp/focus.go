package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// Focus mode is a caller's own lens; every role reaches the routes, the
// service refuses customer roles.
func (a *API) focusRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/me/focus", Op: admin.OpFocusGet, Handle: ofCaller(http.StatusOK, s.Focus)},
		{Method: http.MethodPost, Pattern: "/me/focus", Op: admin.OpFocusEnter, Handle: withBody(http.StatusOK, s.EnterFocus)},
		{Method: http.MethodDelete, Pattern: "/me/focus", Op: admin.OpFocusLeave, Handle: a.leaveFocus},
	}
}

func (a *API) leaveFocus(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.LeaveFocus(r.Context(), c))
}
