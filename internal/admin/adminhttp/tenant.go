package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

func (a *API) tenantRoutes() []Route {
	s, t := a.svc, a.svc.TenantResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/tenants", Op: admin.OpTenantListWithSettings, Handle: a.listTenants},
		{Method: http.MethodPost, Pattern: "/tenants", Op: admin.OpTenantCreate, Handle: withBody(http.StatusCreated, s.CreateTenant)},
		{Method: http.MethodGet, Pattern: "/tenants/{id}", Op: admin.OpTenantGetWithSettings, Locate: t, Handle: byID(http.StatusOK, s.Tenant)},
		{Method: http.MethodPatch, Pattern: "/tenants/{id}", Op: admin.OpTenantUpdate, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.UpdateTenant)},
		{Method: http.MethodDelete, Pattern: "/tenants/{id}", Op: admin.OpTenantDelete, Locate: t, Handle: deleteByID(s.DeleteTenant)},
		{Method: http.MethodGet, Pattern: "/tenants/{id}/settings", Op: admin.OpTenantSettings, Locate: t,
			Handle: byID(http.StatusOK, s.TenantSettings)},
		{Method: http.MethodPut, Pattern: "/tenants/{id}/settings", Op: admin.OpTenantSettingsPut, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.PutTenantSettings)},
		{Method: http.MethodGet, Pattern: "/tenants/{id}/members", Op: admin.OpTenantMembers, Locate: t, Handle: itemsByID(s.TenantMembers)},
		{Method: http.MethodPut, Pattern: "/tenants/{id}/members/{userId}", Op: admin.OpTenantMemberPut, Locate: t,
			Handle: a.putTenantMember},
		{Method: http.MethodDelete, Pattern: "/tenants/{id}/members/{userId}", Op: admin.OpTenantMemberRemove, Locate: t,
			Handle: a.deleteTenantMember},
		{Method: http.MethodPost, Pattern: "/tenants/{id}/transfer", Op: admin.OpTenantTransfer, Locate: t,
			Handle: byIDWithBody(http.StatusOK, s.TransferTenant)},
		{Method: http.MethodGet, Pattern: "/tenants/{id}/migrations", Op: admin.OpTenantMigrations, Locate: t,
			Handle: itemsByID(s.TenantMigrations)},
		{Method: http.MethodPost, Pattern: "/tenants/{id}/migrations", Op: admin.OpTenantMigrate, Locate: t,
			Handle: byIDWithBody(http.StatusAccepted, s.TriggerMigration)},
	}
}

func (a *API) listTenants(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r, platform.NamePages)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	v, err := a.svc.ListTenants(r.Context(), c, admin.TenantFilter{CustomerID: q.Get("customerId"), InstanceID: q.Get("instanceId")}, p)
	return respond(http.StatusOK, v, err)
}

func (a *API) putTenantMember(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in admin.MemberInput
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.PutTenantMember(r.Context(), c, id(r), param(r, "userId"), in)
	return respond(http.StatusOK, v, err)
}

func (a *API) deleteTenantMember(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.RemoveTenantMember(r.Context(), c, id(r), param(r, "userId")))
}
