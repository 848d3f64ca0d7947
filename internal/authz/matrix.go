package authz

// specRows is the capability matrix (R5.7-matrix), one line per row: the roles
// of the "Full access" column and of the "Read only" column. The notes
// "(scope)", "(assigned)" and "(own customer only)" are not access levels:
// Decide applies them through the caller's scope.
//
// Where R4.6-infra calls the infrastructure routes "reachable by platform_admin
// and infra_ops", the matrix is the finer rule and wins: infra_ops holds
// releases, instances, the database URI, system workers and discrepancies,
// but not plans and meters (finance_admin's), internal users or user
// attributes (platform_admin's).
var specRows = [...]struct {
	action     Action
	full, read []Role
}{
	{CreateCustomer, []Role{PlatformAdmin}, nil},
	{DeleteCustomer, []Role{PlatformAdmin, Owner}, nil},
	{CreateTenant, []Role{PlatformAdmin, AccountManager, QAAdmin}, nil},
	{DeleteTenant, []Role{PlatformAdmin, AccountManager, QAAdmin}, nil},
	{TransferTenant, []Role{PlatformAdmin}, nil},
	{ManageTenant, []Role{PlatformAdmin, AccountManager, QAAdmin, Owner, Admin}, []Role{ComplianceAdmin, Reader, Billing, Viewer}},
	{TriggerMigration, []Role{PlatformAdmin, InfraOps, AccountManager, QAAdmin}, nil},
	{ManageCustomerUser, []Role{PlatformAdmin, AccountManager, QAAdmin, Owner, Admin}, []Role{ComplianceAdmin, Reader}},
	{SuspendUser, []Role{PlatformAdmin, AccountManager, QAAdmin, Owner, Admin}, nil},
	{TransferOwnership, []Role{PlatformAdmin, Owner}, nil},
	{TransferHomeOrg, []Role{PlatformAdmin}, nil},
	{ManageCustomerConfig, []Role{PlatformAdmin, AccountManager, Owner, Admin}, nil},
	{ViewBilling, []Role{PlatformAdmin, AccountManager, FinanceAdmin, Owner, Admin, Billing}, []Role{ComplianceAdmin, Reader}},
	{ManageBilling, []Role{PlatformAdmin, AccountManager, FinanceAdmin, Owner, Admin, Billing}, nil},
	{ViewBilledUnits, []Role{PlatformAdmin, AccountManager, FinanceAdmin, Owner, Admin, Billing}, []Role{ComplianceAdmin, Reader}},
	{ViewUsageUnits, []Role{PlatformAdmin, AccountManager, QAAdmin, InfraOps, FinanceAdmin, ComplianceAdmin, Reader, Owner, Admin, Billing, Viewer, Member}, nil},
	{ManageCatalog, []Role{PlatformAdmin, FinanceAdmin}, []Role{ComplianceAdmin, Reader}},
	{ManageReleases, []Role{PlatformAdmin, InfraOps}, []Role{ComplianceAdmin, Reader}},
	{ManageInstances, []Role{PlatformAdmin, InfraOps}, []Role{Reader}},
	{ResolveDatabaseURI, []Role{PlatformAdmin, InfraOps}, nil},
	{ManageSystemWorkers, []Role{PlatformAdmin, InfraOps}, []Role{ComplianceAdmin, Reader}},
	{ManageInternalUsers, []Role{PlatformAdmin}, []Role{ComplianceAdmin, Reader}},
	{ManageUserAttributes, []Role{PlatformAdmin}, nil},
	{ViewAuditLog, []Role{PlatformAdmin, AccountManager, QAAdmin, InfraOps, FinanceAdmin, ComplianceAdmin}, []Role{Reader, Owner, Admin, Billing, Viewer}},
	{ManageDiscrepancies, []Role{PlatformAdmin, InfraOps}, []Role{ComplianceAdmin, Reader}},
	// The data API's actions (D-data-access, docs/decisions.md), not rows of
	// the matrix (R5.7-matrix): every role reads tenant data within its scope (a portal role
	// its own customer's tenants); the customer's owner, admin and member
	// upload cx data, nobody else.
	{ReadTenantData, nil, []Role{PlatformAdmin, AccountManager, QAAdmin, InfraOps, FinanceAdmin, ComplianceAdmin, Reader,
		Owner, Admin, Billing, Viewer, Member}},
	{UploadCxData, []Role{Owner, Admin, Member}, nil},
	// Trusting an external provider to link existing accounts (D-linking,
	// docs/decisions.md) is platform_admin's alone: a customer who could
	// trust its own provider could take over its own owner's account.
	{TrustIdentityProvider, []Role{PlatformAdmin}, nil},
	// Support impersonation (D-impersonation, docs/decisions.md): support
	// staff who manage a customer's users act as one of them, within their
	// scope; the customer's owner and admins decide whether support may.
	{ImpersonateUser, []Role{PlatformAdmin, AccountManager, QAAdmin}, nil},
	{AllowImpersonation, []Role{Owner, Admin}, nil},
}

// SpecMatrix returns the capability matrix (R5.7-matrix), followed by the
// data API's rows (D-data-access), as catalog entries, by matrix row,
// full-access roles before read-only ones. The migrations 0003_authz.sql
// 0013_access_path.sql, 0014_trust_identity_provider.sql and
// 0038_impersonation.sql seed
// role_permissions with exactly these rows.
func SpecMatrix() []Entry {
	var out []Entry
	for _, row := range specRows {
		for _, r := range row.full {
			out = append(out, Entry{Role: r, Action: row.action, Access: AccessFull})
		}
		for _, r := range row.read {
			out = append(out, Entry{Role: r, Action: row.action, Access: AccessRead})
		}
	}
	return out
}

// SpecCatalog compiles SpecMatrix. It panics if the matrix broke an invariant,
// which the package's tests rule out.
func SpecCatalog() *Catalog {
	c, err := NewCatalog(SpecMatrix())
	if err != nil {
		panic(err)
	}
	return c
}
