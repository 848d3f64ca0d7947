package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// Grants give account managers and QA admins their customers and instances
// (R2.6-grant-key). Managing them is managing internal users: platform_admin, with
// compliance_admin and reader reading.
func (a *API) grantRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/grants", Op: admin.OpGrantList, Handle: a.listGrants},
		{Method: http.MethodPost, Pattern: "/grants", Op: admin.OpGrantCreate,
			Handle: withBody(http.StatusCreated, s.CreateGrant)},
		{Method: http.MethodDelete, Pattern: "/customers/{id}/grants/{userId}", Op: admin.OpGrantDeleteCustomer,
			Locate: s.CustomerResource, Handle: a.deleteGrant(false)},
		{Method: http.MethodDelete, Pattern: "/instances/{id}/grants/{userId}", Op: admin.OpGrantDeleteInstance,
			Locate: s.InstanceResource, Handle: a.deleteGrant(true)},
	}
}

func (a *API) listGrants(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	q := r.URL.Query()
	v, err := a.svc.ListGrants(r.Context(), c, admin.GrantFilter{UserID: q.Get("userId"), CustomerID: q.Get("customerId"),
		InstanceID: q.Get("instanceId")})
	return respond(http.StatusOK, map[string]any{"items": v}, err)
}

// deleteGrant removes the user's customer grant, or instance grant.
func (a *API) deleteGrant(instance bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, a.svc.DeleteGrant(r.Context(), c, instance, id(r), param(r, "userId")))
	}
}
