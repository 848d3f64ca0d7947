package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

// catalogRoutes: the plan and meter catalog, an internal-infrastructure
// resource (R4.6-infra): platform_admin and finance_admin write it,
// compliance_admin and reader read it, nobody else. Its records belong to
// no customer, so an {id} is decided on the role alone.
func (a *API) catalogRoutes() []Route {
	const act = authz.ManageCatalog
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/plans", Action: act, Handle: ofCaller(http.StatusOK, s.ListPlans)},
		{Method: http.MethodPost, Pattern: "/plans", Action: act, Write: true, Handle: withBody(http.StatusCreated, s.CreatePlan)},
		{Method: http.MethodGet, Pattern: "/plans/{id}", Action: act, Handle: byID(http.StatusOK, s.Plan)},
		{Method: http.MethodPatch, Pattern: "/plans/{id}", Action: act, Write: true, Handle: byIDWithBody(http.StatusOK, s.UpdatePlan)},
		{Method: http.MethodDelete, Pattern: "/plans/{id}", Action: act, Write: true, Handle: deleteByID(s.DeletePlan)},
		{Method: http.MethodGet, Pattern: "/meters", Action: act, Handle: ofCaller(http.StatusOK, s.ListMeters)},
		{Method: http.MethodPost, Pattern: "/meters", Action: act, Write: true, Handle: withBody(http.StatusCreated, s.CreateMeter)},
		{Method: http.MethodGet, Pattern: "/meters/{id}", Action: act, Handle: byID(http.StatusOK, s.Meter)},
		{Method: http.MethodPatch, Pattern: "/meters/{id}", Action: act, Write: true, Handle: byIDWithBody(http.StatusOK, s.UpdateMeter)},
		{Method: http.MethodDelete, Pattern: "/meters/{id}", Action: act, Write: true, Handle: deleteByID(s.DeleteMeter)},
	}
}
