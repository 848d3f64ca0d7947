package authz

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAction(t *testing.T) {
	names := []string{
		"create_customer", "delete_customer", "create_tenant", "delete_tenant", "transfer_tenant",
		"manage_tenant", "trigger_migration", "manage_customer_user", "suspend_user", "transfer_ownership",
		"transfer_home_org", "manage_customer_config", "view_billing", "manage_billing", "view_billed_units",
		"view_usage_units", "manage_catalog", "manage_releases", "manage_instances", "resolve_database_uri",
		"manage_system_workers", "manage_internal_users", "manage_user_attributes", "view_audit_log",
		"manage_discrepancies", "read_tenant_data", "upload_cx_data", "trust_identity_provider",
		"impersonate_user", "allow_impersonation",
	}
	var got []string
	for _, a := range Actions() {
		got = append(got, a.String())
		back, err := ParseAction(a.String())
		if err != nil || back != a {
			t.Errorf("ParseAction(%q) = %v, %v", a, back, err)
		}
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("Actions() (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "Create_Customer", "delete", "manage_tenants"} {
		if _, err := ParseAction(bad); !errors.Is(err, ErrUnknownAction) {
			t.Errorf("ParseAction(%q) error = %v, want ErrUnknownAction", bad, err)
		}
	}
}

// spec: R4.6-infra, R4.6-admin-only, R5.7-never, R5.7-no-tenant
func TestActionKinds(t *testing.T) {
	var infra, adminOnly, tenant []Action
	for _, a := range Actions() {
		if a.Infra() {
			infra = append(infra, a)
		}
		if a.AdminOnly() {
			adminOnly = append(adminOnly, a)
		}
		if a.TenantLifecycle() {
			tenant = append(tenant, a)
		}
	}
	// R4.6-infra: internal-users, system-workers, releases, environment, plans,
	// meters, user-attributes, instance connection and instance writes, and the
	// database URI from the vault and the discrepancies inbox beside them.
	wantInfra := []Action{ManageCatalog, ManageReleases, ManageInstances, ResolveDatabaseURI,
		ManageSystemWorkers, ManageInternalUsers, ManageUserAttributes, ManageDiscrepancies}
	if diff := cmp.Diff(wantInfra, infra); diff != "" {
		t.Errorf("infra actions (-want +got):\n%s", diff)
	}
	// D-linking: trusting a provider to link existing accounts is platform_admin's too
	if diff := cmp.Diff([]Action{CreateCustomer, TransferTenant, TransferHomeOrg, TrustIdentityProvider}, adminOnly); diff != "" {
		t.Errorf("platform_admin-only actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Action{CreateTenant, DeleteTenant, TransferTenant}, tenant); diff != "" {
		t.Errorf("tenant lifecycle actions (-want +got):\n%s", diff)
	}
	var zero Action
	if zero.Infra() || zero.AdminOnly() || zero.TenantLifecycle() || zero.valid() {
		t.Error("the zero Action must be no action")
	}
}
