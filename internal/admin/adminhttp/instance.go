package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
)

func (a *API) instanceRoutes() []Route {
	s, t := a.svc, a.svc.InstanceResource
	return []Route{
		// account_manager and qa_admin read the instances of their scope through create_tenant (D-instance-reads)
		{Method: http.MethodGet, Pattern: "/instances", Op: admin.OpInstanceList,
			Handle: pagedByCustomer(s.ListInstances)},
		{Method: http.MethodPost, Pattern: "/instances", Op: admin.OpInstanceCreate,
			Handle: withBody(http.StatusCreated, s.CreateInstance)},
		{Method: http.MethodGet, Pattern: "/instances/{id}", Op: admin.OpInstanceGet, Locate: t,
			Handle: byID(http.StatusOK, s.Instance)},
		{Method: http.MethodPut, Pattern: "/instances/{id}", Op: admin.OpInstanceUpdate, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateInstance)},
		{Method: http.MethodDelete, Pattern: "/instances/{id}", Op: admin.OpInstanceDelete, Locate: t,
			Handle: deleteByID(s.DeleteInstance)},
		{Method: http.MethodGet, Pattern: "/instances/{id}/connection", Op: admin.OpInstanceConnection, Locate: t,
			Handle: byID(http.StatusOK, s.Connection)},
		{Method: http.MethodPut, Pattern: "/instances/{id}/connection", Op: admin.OpInstanceConnectionRepair, Locate: t,
			Handle: byID(http.StatusOK, s.RepairConnection)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/connection/rotate", Op: admin.OpInstanceConnectionRotate, Locate: t,
			Handle: byID(http.StatusOK, s.RotateConnection)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/rotate-secret", Op: admin.OpInstanceSecretRotate, Locate: t,
			Handle: byID(http.StatusOK, s.RotateInstanceSecret)},
		{Method: http.MethodPost, Pattern: "/instances/{id}/resolve-database-uri", Op: admin.OpInstanceDatabaseURIResolve, Locate: t,
			Handle: byID(http.StatusOK, s.ResolveDatabaseURI)},
	}
}
