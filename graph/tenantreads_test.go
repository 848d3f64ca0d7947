package graph_test

import "testing"

// TestInfraOpsReadsTenantsToMigrate: infra_ops holds trigger_migration but
// not manage_tenant, so it reads tenants (the list, one tenant, an
// instance's and a customer's) to reach the ones it migrates, and nothing
// of them that manage_tenant guards: settings, members, any write
// (D-tenant-reads). A role holding neither is still refused.
//
// spec: R5.7-matrix
// attack: infra-ops-tenant-reads
func TestInfraOpsReadsTenantsToMigrate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, user, query string
		wantCodes         []string
		wantData          []any
		wantNull          []any
	}{
		{name: "list", user: infraOps, query: `{ tenants { items { id name customer { name } } } }`,
			wantData: []any{"tenants", "items", 2, "customer", "name"}},
		{name: "one, with its migrations", user: infraOps, query: `{ tenant(id: "ten-acme") { id name migrations { id } } }`,
			wantData: []any{"tenant", "migrations"}},
		{name: "an instance's", user: infraOps, query: `{ instance(id: "inst-acme-1") { tenants { id } } }`,
			wantData: []any{"instance", "tenants", 0, "id"}},
		{name: "a customer's", user: infraOps, query: `{ customer(id: "cust-acme") { tenants { id } } }`,
			wantData: []any{"customer", "tenants", 1, "id"}},
		{name: "trigger a migration", user: infraOps, query: `mutation { triggerMigration(id: "ten-acme", targetVersion: "v9") { status } }`,
			wantData: []any{"triggerMigration", "status"}},
		{name: "settings stay manage_tenant's", user: infraOps, query: `{ tenant(id: "ten-acme") { id settings } }`,
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"tenant", "id"}, wantNull: []any{"tenant", "settings"}},
		{name: "members stay manage_tenant's", user: infraOps, query: `{ tenant(id: "ten-acme") { id members { userId } } }`,
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"tenant", "id"}, wantNull: []any{"tenant", "members"}},
		{name: "no rename", user: infraOps, query: `mutation { updateTenant(id: "ten-acme", input: {name: "X"}) { id } }`,
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"updateTenant"}},
		{name: "no settings write", user: infraOps, query: `mutation { putTenantSettings(id: "ten-acme", settings: {}) }`,
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"putTenantSettings"}},
		{name: "finance_admin holds neither", user: financeAdm, query: `{ tenant(id: "ten-acme") { id } }`,
			wantCodes: []string{"FORBIDDEN"}, wantNull: []any{"tenant"}},
		{name: "finance_admin, an instance's", user: financeAdm, query: `{ customer(id: "cust-acme") { id tenants { id } } }`,
			wantCodes: []string{"FORBIDDEN"}, wantData: []any{"customer", "id"}, wantNull: []any{"customer", "tenants"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.gql(tc.user, tc.query, nil).expect(t, tc.wantCodes, tc.wantData, tc.wantNull)
		})
	}
	// The REST shims stay as they were: GET /tenants is manage_tenant's.
	if status, body := e.rest(infraOps, "GET", "/api/v1/tenants", nil); status != 403 {
		t.Errorf("REST GET /tenants as infra_ops = %d, want 403: %s", status, body)
	}
}
