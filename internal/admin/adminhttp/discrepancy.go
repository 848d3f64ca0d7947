package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// discrepancyRoutes: the discrepancies inbox, an internal-infrastructure
// resource (R4.6-infra): platform_admin and infra_ops report and resolve
// items, compliance_admin and reader read them. An item may concern a
// customer; focus mode then narrows the inbox to that customer's items and
// the platform-wide ones.
func (a *API) discrepancyRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/discrepancies", Op: admin.OpDiscrepancyList, Handle: a.listDiscrepancies},
		{Method: http.MethodPost, Pattern: "/discrepancies", Op: admin.OpDiscrepancyReport, Handle: withBody(http.StatusCreated, s.ReportDiscrepancy)},
		{Method: http.MethodGet, Pattern: "/discrepancies/{id}", Op: admin.OpDiscrepancyGet, Handle: byID(http.StatusOK, s.Discrepancy)},
		{Method: http.MethodPost, Pattern: "/discrepancies/{id}/resolve", Op: admin.OpDiscrepancyResolve,
			Handle: byIDWithBody(http.StatusOK, s.ResolveDiscrepancy)},
		{Method: http.MethodPost, Pattern: "/discrepancies/{id}/reopen", Op: admin.OpDiscrepancyReopen, Handle: byID(http.StatusOK, s.ReopenDiscrepancy)},
	}
}

func (a *API) listDiscrepancies(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	limit, err := limitParam(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListDiscrepancies(r.Context(), c, r.URL.Query().Get("status"), limit)
	return respond(http.StatusOK, v, err)
}
