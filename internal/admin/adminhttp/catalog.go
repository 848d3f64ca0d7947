package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

// catalogRoutes: the plan and meter catalog, an internal-infrastructure
// resource (R4.6-infra): platform_admin and finance_admin write it,
// compliance_admin and reader read it, nobody else. Its records belong to
// no customer, so an {id} is decided on the role alone.
func (a *API) catalogRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/plans", Op: admin.OpPlanList, Handle: ofCaller(http.StatusOK, s.ListPlans)},
		{Method: http.MethodPost, Pattern: "/plans", Op: admin.OpPlanCreate, Handle: withBody(http.StatusCreated, s.CreatePlan)},
		{Method: http.MethodGet, Pattern: "/plans/{id}", Op: admin.OpPlanGet, Handle: byID(http.StatusOK, s.Plan)},
		{Method: http.MethodPatch, Pattern: "/plans/{id}", Op: admin.OpPlanUpdate, Handle: byIDWithBody(http.StatusOK, s.UpdatePlan)},
		{Method: http.MethodDelete, Pattern: "/plans/{id}", Op: admin.OpPlanDelete, Handle: deleteByID(s.DeletePlan)},
		{Method: http.MethodGet, Pattern: "/meters", Op: admin.OpMeterList, Handle: ofCaller(http.StatusOK, s.ListMeters)},
		{Method: http.MethodPost, Pattern: "/meters", Op: admin.OpMeterCreate, Handle: withBody(http.StatusCreated, s.CreateMeter)},
		{Method: http.MethodGet, Pattern: "/meters/{id}", Op: admin.OpMeterGet, Handle: byID(http.StatusOK, s.Meter)},
		{Method: http.MethodPatch, Pattern: "/meters/{id}", Op: admin.OpMeterUpdate, Handle: byIDWithBody(http.StatusOK, s.UpdateMeter)},
		{Method: http.MethodDelete, Pattern: "/meters/{id}", Op: admin.OpMeterDelete, Handle: deleteByID(s.DeleteMeter)},
	}
}
