package authz

import "errors"

// Action is one row of the capability matrix (R5.7-matrix), or one of the data
// API's actions (D-data-access), which the catalog holds the same way. The zero Action is
// invalid. Names are stable: they are stored in role_permissions and sent on
// the wire.
type Action uint8

// Actions, in the order of the matrix rows.
const (
	CreateCustomer Action = iota + 1 // platform_admin only
	DeleteCustomer                   // the customer's owner, or platform_admin
	CreateTenant
	DeleteTenant
	TransferTenant       // cross-customer; platform_admin only
	ManageTenant         // tenant settings and members
	TriggerMigration     // migration on a tenant
	ManageCustomerUser   // invite or manage a customer's user
	SuspendUser          // suspend or reactivate a user
	TransferOwnership    // owner transfer within a customer
	TransferHomeOrg      // a user's home organization, cross-customer; platform_admin only
	ManageCustomerConfig // SSO/IdP config, webhooks, service accounts, customer settings
	ViewBilling          // invoices, payments, credits
	ManageBilling        // billing setup, issue credits
	ViewBilledUnits      // usage with billed amounts
	ViewUsageUnits       // usage units only
	ManageCatalog        // plans and meters
	ManageReleases       // releases, environment variables
	ManageInstances      // instance create or update, instance connection
	ResolveDatabaseURI   // database URI from the vault
	ManageSystemWorkers
	ManageInternalUsers
	ManageUserAttributes // user attribute definitions
	ViewAuditLog         // audit log, e-mail logs
	ManageDiscrepancies  // discrepancies inbox
	ReadTenantData       // the data API: master records, schedules, the caller's tenants (D-data-access)
	UploadCxData         // the data API: cx upload into a tenant's schedule (D-data-access)
	// TrustIdentityProvider marks a customer's identity provider trusted to
	// link existing accounts on the customer's domains (D-linking);
	// platform_admin only.
	TrustIdentityProvider
	// ImpersonateUser starts acting as a customer's user (support
	// impersonation, D-impersonation); internal roles only, in scope.
	ImpersonateUser
	// AllowImpersonation decides whether support may act as the customer's
	// users (D-impersonation); the customer's own roles only.
	AllowImpersonation
)

// numActions sizes the catalog's arrays; index 0 is the invalid Action.
const numActions = int(AllowImpersonation) + 1

// actionInfo is what Decide and NewCatalog know about an action beyond the catalog.
type actionInfo struct {
	name string
	// infra: an internal-infrastructure action (R4.6-infra): never a portal
	// role's, never a scoped internal role's (R4.6-infra, R5.7-no-infra, R5.7-am).
	infra bool
	// adminOnly: platform_admin only, whatever the scope (R5.7-never).
	adminOnly bool
	// tenantLifecycle: create, delete or transfer a tenant; never a portal role's (R5.7-no-tenant).
	tenantLifecycle bool
	// needsCustomer: meaningless without a customer; scoped and portal roles
	// are refused when the resource names none.
	needsCustomer bool
	// customerOnly: the customer's own work; never an internal role's
	// (D-data-access: internal roles read tenant data, they never upload it).
	customerOnly bool
	// supportOnly: support's work on a customer; never a portal role's
	// (D-impersonation).
	supportOnly bool
}

var actions = [numActions]actionInfo{
	CreateCustomer:        {name: "create_customer", adminOnly: true},
	DeleteCustomer:        {name: "delete_customer", needsCustomer: true},
	CreateTenant:          {name: "create_tenant", tenantLifecycle: true},
	DeleteTenant:          {name: "delete_tenant", tenantLifecycle: true},
	TransferTenant:        {name: "transfer_tenant", tenantLifecycle: true, adminOnly: true},
	ManageTenant:          {name: "manage_tenant"},
	TriggerMigration:      {name: "trigger_migration"},
	ManageCustomerUser:    {name: "manage_customer_user"},
	SuspendUser:           {name: "suspend_user"},
	TransferOwnership:     {name: "transfer_ownership", needsCustomer: true},
	TransferHomeOrg:       {name: "transfer_home_org", adminOnly: true},
	ManageCustomerConfig:  {name: "manage_customer_config"},
	ViewBilling:           {name: "view_billing"},
	ManageBilling:         {name: "manage_billing"},
	ViewBilledUnits:       {name: "view_billed_units"},
	ViewUsageUnits:        {name: "view_usage_units"},
	ManageCatalog:         {name: "manage_catalog", infra: true},
	ManageReleases:        {name: "manage_releases", infra: true},
	ManageInstances:       {name: "manage_instances", infra: true},
	ResolveDatabaseURI:    {name: "resolve_database_uri", infra: true},
	ManageSystemWorkers:   {name: "manage_system_workers", infra: true},
	ManageInternalUsers:   {name: "manage_internal_users", infra: true},
	ManageUserAttributes:  {name: "manage_user_attributes", infra: true},
	ViewAuditLog:          {name: "view_audit_log"},
	ManageDiscrepancies:   {name: "manage_discrepancies", infra: true},
	ReadTenantData:        {name: "read_tenant_data"},
	UploadCxData:          {name: "upload_cx_data", needsCustomer: true, customerOnly: true},
	TrustIdentityProvider: {name: "trust_identity_provider", adminOnly: true},
	ImpersonateUser:       {name: "impersonate_user", needsCustomer: true, supportOnly: true},
	AllowImpersonation:    {name: "allow_impersonation", needsCustomer: true, customerOnly: true},
}

// ErrUnknownAction is wrapped by ParseAction's error for a name that is not an action.
var ErrUnknownAction = errors.New("unknown action")

var actionEnum = enum[Action]{first: CreateCustomer, n: numActions, name: func(a Action) string { return actions[a].name },
	kind: "Action", unknown: ErrUnknownAction}

// ParseAction returns the action named s, or an error wrapping ErrUnknownAction.
func ParseAction(s string) (Action, error) { return actionEnum.parse(s) }

// Actions returns every action in the order of the matrix rows.
func Actions() []Action { return actionEnum.all() }

// String returns the action's stable snake_case name.
func (a Action) String() string { return actionEnum.str(a) }

// Infra reports whether a is an internal-infrastructure action (R4.6-infra):
// releases and environment, instances and their connection, the database URI,
// system workers, internal users, user attributes, plans and meters, and the
// discrepancies inbox. No portal role and no scoped internal role may hold one.
func (a Action) Infra() bool { return a.valid() && actions[a].infra }

// AdminOnly reports whether a is one of the three platform_admin-only actions:
// create customer, cross-customer tenant transfer, cross-customer home-org transfer.
func (a Action) AdminOnly() bool { return a.valid() && actions[a].adminOnly }

// CustomerOnly reports whether a is the customer's own work, which no
// internal role may hold (uploading cx data, D-data-access).
func (a Action) CustomerOnly() bool { return a.valid() && actions[a].customerOnly }

// SupportOnly reports whether a is support's work on a customer, which no
// portal role may hold (impersonating a user, D-impersonation).
func (a Action) SupportOnly() bool { return a.valid() && actions[a].supportOnly }

// TenantLifecycle reports whether a creates, deletes or transfers a tenant.
func (a Action) TenantLifecycle() bool { return a.valid() && actions[a].tenantLifecycle }

// MarshalText encodes the action as its name.
func (a Action) MarshalText() ([]byte, error) { return actionEnum.marshal(a) }

// UnmarshalText decodes an action name as ParseAction does.
func (a *Action) UnmarshalText(b []byte) error {
	return decode(a, b, ParseAction)
}

func (a Action) valid() bool { return a >= CreateCustomer && int(a) < numActions }
