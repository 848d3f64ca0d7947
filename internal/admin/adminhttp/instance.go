package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/authz"
)

func (a *API) instanceRoutes() []Route {
	s, t := a.svc, a.svc.InstanceResource
	return []Route{
		// account_manager and qa_admin read the instances of their scope through create_tenant (D-instance-reads)
		{Method: http.MethodGet, Pattern: "/instances", Action: authz.ManageInstances, Or: authz.CreateTenant,
			Handle: pagedByCustomer(s.ListInstances)},
		{Method: http.MethodPost, Pattern: "/instances", Action: authz.ManageInstances, Write: true,
			Handle: withBody(http.StatusCreated, s.CreateInstance)},
		{Method: http.MethodGet, Pattern: "/instances/{id}", Action: authz.ManageInstances, Or: authz.CreateTenant, Target: t,
			Handle: byID(http.StatusOK, s.Instance)},
		{Method: http.MethodPut, Pattern: "/instances/{id}", Action: authz.ManageInstances, Write: true, Target: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateInstance)},
		{Method: http.MethodDelete, Pattern: "/instances/{id}", Action: authz.ManageInstances, Write: true, Target: t,
			Handle: deleteByID(s.DeleteInstance)},
		{Method: http.MethodGet, Pattern: "/instances/{id}/connection", Action: authz.ManageInstances, Target: t,
			Handle: byID(http.StatusOK, s.Connection)},
		{Method: http.MethodPut, Pattern: "/instances/{id}/connection", Action: authz.ManageInstances, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.RepairConnection)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/connection/rotate", Action: authz.ManageInstances, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.RotateConnection)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/rotate-secret", Action: authz.ManageInstances, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.RotateInstanceSecret)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/resolve-database-uri", Action: authz.ResolveDatabaseURI, Write: true, Target: t,
			Handle: byID(http.StatusOK, s.ResolveDatabaseURI)},
	}
}
