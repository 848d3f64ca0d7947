package admin

import "github.com/platform/platform/internal/authz"

// Every administration operation, by noun. A route of the REST API
// (adminhttp) and a field of the GraphQL schema (graph/operations.go) each
// name one of these; the service method they call decides on the same one.
// testdata/routes.csv in adminhttp lists the routes with their operations.

// The caller's own permissions, focus mode and notification subscriptions:
// every role holds view_usage_units, and focus mode is for internal roles.
var (
	OpMePermissions      = declare(Operation{Name: "me.permissions", Action: authz.ViewUsageUnits, Target: TargetSelf})
	OpFocusGet           = declare(Operation{Name: "focus.get", Action: authz.ViewUsageUnits, Target: TargetSelf})
	OpFocusEnter         = declare(Operation{Name: "focus.enter", Action: authz.ViewUsageUnits, Write: true, Target: TargetSelfInternal})
	OpFocusLeave         = declare(Operation{Name: "focus.leave", Action: authz.ViewUsageUnits, Write: true, Target: TargetSelf})
	OpSubscriptionList   = declare(Operation{Name: "subscription.list", Action: authz.ViewUsageUnits, Target: TargetSelf})
	OpSubscriptionCreate = declare(Operation{Name: "subscription.create", Action: authz.ViewUsageUnits, Write: true, Target: TargetSelf})
	OpSubscriptionDelete = declare(Operation{Name: "subscription.delete", Action: authz.ViewUsageUnits, Write: true, Target: TargetSelf})
)

// Support impersonation (D-impersonation): support staff act as a
// customer's user in scope (impersonate_user); the customer's owner and
// admins (and support in scope) list and end them; the customer's owner
// and admins decide whether support may (allow_impersonation). Nobody
// acting for a user holds either (authz.ActorForbidden). Ending one's own
// impersonation (the banner's End) is the caller's own.
var (
	OpUserImpersonate        = declare(Operation{Name: "user.impersonate", Action: authz.ImpersonateUser, Write: true, Target: TargetCustomer})
	OpImpersonationList      = declare(Operation{Name: "impersonation.list", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpImpersonationEnd       = declare(Operation{Name: "impersonation.end", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpImpersonationEndOwn    = declare(Operation{Name: "impersonation.end_own", Action: authz.ViewUsageUnits, Write: true, Target: TargetSelf})
	OpImpersonationPolicyGet = declare(Operation{Name: "impersonation.policy", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpImpersonationPolicyPut = declare(Operation{Name: "impersonation.policy_put", Action: authz.AllowImpersonation, Write: true, Target: TargetCustomer})
	// With an approver (D-impersonation-approval): the support user reads
	// its request and collects the subject token once approved; the
	// customer's owners and admins hold the decision, which only the named
	// approver makes.
	OpImpersonationGet     = declare(Operation{Name: "impersonation.get", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpImpersonationToken   = declare(Operation{Name: "impersonation.token", Action: authz.ImpersonateUser, Write: true, Target: TargetCustomer})
	OpImpersonationApprove = declare(Operation{Name: "impersonation.approve", Action: authz.AllowImpersonation, Write: true, Target: TargetCustomer})
	OpImpersonationDeny    = declare(Operation{Name: "impersonation.deny", Action: authz.AllowImpersonation, Write: true, Target: TargetCustomer})
)

// Customers.
var (
	OpCustomerList = declare(Operation{Name: "customer.list", Action: authz.ViewUsageUnits})
	// OpOverview is the console's home; every role holds its action, and
	// each count is shown to the roles that read its list (Service.Overview)
	OpOverview                  = declare(Operation{Name: "overview.read", Action: authz.ViewUsageUnits})
	OpCustomerCreate            = declare(Operation{Name: "customer.create", Action: authz.CreateCustomer, Write: true})
	OpCustomerGet               = declare(Operation{Name: "customer.get", Action: authz.ViewUsageUnits, Target: TargetCustomer})
	OpCustomerUpdate            = declare(Operation{Name: "customer.update", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpCustomerDelete            = declare(Operation{Name: "customer.delete", Action: authz.DeleteCustomer, Write: true, Target: TargetCustomer, StepUp: true})
	OpCustomerSettings          = declare(Operation{Name: "customer.settings", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpCustomerSettingsPut       = declare(Operation{Name: "customer.settings_put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpCustomerTransferOwnership = declare(Operation{Name: "customer.transfer_ownership", Action: authz.TransferOwnership, Write: true, Target: TargetCustomer, StepUp: true})
)

// A customer's branding and e-mail sender (D-branding, D-org-mail).
var (
	OpBrandingGet        = declare(Operation{Name: "branding.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpBrandingPut        = declare(Operation{Name: "branding.put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpBrandingLogoPut    = declare(Operation{Name: "branding.logo_put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpBrandingLogoDelete = declare(Operation{Name: "branding.logo_delete", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
)

// Tenants. A role that holds trigger_migration and not manage_tenant
// (infra_ops) reads tenants to reach the ones it migrates (D-tenant-reads);
// the REST routes answer a tenant with its settings, which stay
// manage_tenant's, so they read with manage_tenant alone.
var (
	OpTenantList             = declare(Operation{Name: "tenant.list", Action: authz.ManageTenant, Or: authz.TriggerMigration})
	OpTenantGet              = declare(Operation{Name: "tenant.get", Action: authz.ManageTenant, Or: authz.TriggerMigration, Target: TargetInstance})
	OpTenantListWithSettings = declare(Operation{Name: "tenant.list_with_settings", Action: authz.ManageTenant})
	OpTenantGetWithSettings  = declare(Operation{Name: "tenant.get_with_settings", Action: authz.ManageTenant, Target: TargetInstance})
	OpTenantCreate           = declare(Operation{Name: "tenant.create", Action: authz.CreateTenant, Write: true, Target: TargetInstance})
	OpTenantUpdate           = declare(Operation{Name: "tenant.update", Action: authz.ManageTenant, Write: true, Target: TargetInstance})
	OpTenantDelete           = declare(Operation{Name: "tenant.delete", Action: authz.DeleteTenant, Write: true, Target: TargetInstance})
	OpTenantSettings         = declare(Operation{Name: "tenant.settings", Action: authz.ManageTenant, Target: TargetInstance})
	OpTenantSettingsPut      = declare(Operation{Name: "tenant.settings_put", Action: authz.ManageTenant, Write: true, Target: TargetInstance})
	OpTenantMembers          = declare(Operation{Name: "tenant.members", Action: authz.ManageTenant, Target: TargetInstance})
	OpTenantMemberPut        = declare(Operation{Name: "tenant.member_put", Action: authz.ManageTenant, Write: true, Target: TargetInstance})
	OpTenantMemberRemove     = declare(Operation{Name: "tenant.member_remove", Action: authz.ManageTenant, Write: true, Target: TargetInstance})
	OpTenantTransfer         = declare(Operation{Name: "tenant.transfer", Action: authz.TransferTenant, Write: true, Target: TargetInstance})
	OpTenantMigrations       = declare(Operation{Name: "tenant.migrations", Action: authz.TriggerMigration, Target: TargetInstance})
	OpTenantMigrate          = declare(Operation{Name: "tenant.migrate", Action: authz.TriggerMigration, Write: true, Target: TargetInstance})
)

// Instances. account_manager and qa_admin read the instances of their scope
// through create_tenant (D-instance-reads), without their connection.
var (
	OpInstanceList               = declare(Operation{Name: "instance.list", Action: authz.ManageInstances, Or: authz.CreateTenant})
	OpInstanceCreate             = declare(Operation{Name: "instance.create", Action: authz.ManageInstances, Write: true, Target: TargetCustomer})
	OpInstanceGet                = declare(Operation{Name: "instance.get", Action: authz.ManageInstances, Or: authz.CreateTenant, Target: TargetInstance})
	OpInstanceUpdate             = declare(Operation{Name: "instance.update", Action: authz.ManageInstances, Write: true, Target: TargetInstance})
	OpInstanceDelete             = declare(Operation{Name: "instance.delete", Action: authz.ManageInstances, Write: true, Target: TargetInstance})
	OpInstanceConnection         = declare(Operation{Name: "instance.connection", Action: authz.ManageInstances, Target: TargetInstance})
	OpInstanceConnectionRepair   = declare(Operation{Name: "instance.connection_repair", Action: authz.ManageInstances, Write: true, Target: TargetInstance})
	OpInstanceConnectionRotate   = declare(Operation{Name: "instance.connection_rotate", Action: authz.ManageInstances, Write: true, Target: TargetInstance})
	OpInstanceSecretRotate       = declare(Operation{Name: "instance.secret_rotate", Action: authz.ManageInstances, Write: true, Target: TargetInstance})
	OpInstanceDatabaseURIResolve = declare(Operation{Name: "instance.database_uri_resolve", Action: authz.ResolveDatabaseURI, Write: true, Target: TargetInstance, StepUp: true})
)

// Customers' users.
var (
	OpUserList             = declare(Operation{Name: "user.list", Action: authz.ManageCustomerUser})
	OpUserInvite           = declare(Operation{Name: "user.invite", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpUserGet              = declare(Operation{Name: "user.get", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpUserUpdate           = declare(Operation{Name: "user.update", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpUserDelete           = declare(Operation{Name: "user.delete", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpUserSuspend          = declare(Operation{Name: "user.suspend", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
	OpUserReactivate       = declare(Operation{Name: "user.reactivate", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
	OpUserInvitationResend = declare(Operation{Name: "user.invitation_resend", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpUserInvitationRevoke = declare(Operation{Name: "user.invitation_revoke", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpUserUnlock           = declare(Operation{Name: "user.unlock", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
	OpUserTransferHomeOrg  = declare(Operation{Name: "user.transfer_home_org", Action: authz.TransferHomeOrg, Write: true, Target: TargetCustomer})
	// Support tools (D-support-tools): a user's sessions are read as the
	// user is; signing it out and resetting its second factor are for
	// those who may suspend it.
	OpUserSessions          = declare(Operation{Name: "user.sessions", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpUserSessionEnd        = declare(Operation{Name: "user.session_end", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
	OpUserSessionsEnd       = declare(Operation{Name: "user.sessions_end", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
	OpUserSecondFactorReset = declare(Operation{Name: "user.second_factor_reset", Action: authz.SuspendUser, Write: true, Target: TargetCustomer})
)

// Internal users, their grants, and internal service accounts: platform_admin's,
// compliance_admin and reader read.
var (
	OpInternalUserList              = declare(Operation{Name: "internal_user.list", Action: authz.ManageInternalUsers})
	OpInternalUserCreate            = declare(Operation{Name: "internal_user.create", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserGet               = declare(Operation{Name: "internal_user.get", Action: authz.ManageInternalUsers})
	OpInternalUserUpdate            = declare(Operation{Name: "internal_user.update", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserRemove            = declare(Operation{Name: "internal_user.remove", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserInvitationResend  = declare(Operation{Name: "internal_user.invitation_resend", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserInvitationRevoke  = declare(Operation{Name: "internal_user.invitation_revoke", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserUnlock            = declare(Operation{Name: "internal_user.unlock", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserSessions          = declare(Operation{Name: "internal_user.sessions", Action: authz.ManageInternalUsers})
	OpInternalUserSessionEnd        = declare(Operation{Name: "internal_user.session_end", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserSessionsEnd       = declare(Operation{Name: "internal_user.sessions_end", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserSecondFactorReset = declare(Operation{Name: "internal_user.second_factor_reset", Action: authz.ManageInternalUsers, Write: true})
	OpGrantList                     = declare(Operation{Name: "grant.list", Action: authz.ManageInternalUsers})
	OpGrantCreate                   = declare(Operation{Name: "grant.create", Action: authz.ManageInternalUsers, Write: true})
	OpGrantDeleteCustomer           = declare(Operation{Name: "grant.delete_customer", Action: authz.ManageInternalUsers, Write: true, Target: TargetCustomer})
	OpGrantDeleteInstance           = declare(Operation{Name: "grant.delete_instance", Action: authz.ManageInternalUsers, Write: true, Target: TargetInstance})
	OpInternalServiceAccountList    = declare(Operation{Name: "internal_service_account.list", Action: authz.ManageInternalUsers})
	OpInternalServiceAccountCreate  = declare(Operation{Name: "internal_service_account.create", Action: authz.ManageInternalUsers, Write: true})
	// An internal service account's own operations (the service_account
	// ones) are decided again as managing internal users.
	OpInternalServiceAccountRead   = declare(Operation{Name: "internal_service_account.read", Action: authz.ManageInternalUsers})
	OpInternalServiceAccountChange = declare(Operation{Name: "internal_service_account.change", Action: authz.ManageInternalUsers, Write: true})
)

// The audit and e-mail logs.
var (
	OpAuditLog    = declare(Operation{Name: "audit.log", Action: authz.ViewAuditLog})
	OpAuditExport = declare(Operation{Name: "audit.export", Action: authz.ViewAuditLog})
	OpEmailLog    = declare(Operation{Name: "email.log", Action: authz.ViewAuditLog})
)

// A customer's configuration: SSO, identity providers, webhooks and service
// accounts, open to account_manager within scope (R4.6-customer-side).
// Trusting a provider to link accounts is platform_admin's (D-linking).
var (
	OpSSOSettings                = declare(Operation{Name: "sso.settings", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpSSOSettingsPut             = declare(Operation{Name: "sso.settings_put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpSecurityPolicy             = declare(Operation{Name: "security_policy.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpSecurityPolicyPut          = declare(Operation{Name: "security_policy.put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpIdentityProviderList       = declare(Operation{Name: "identity_provider.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpIdentityProviderCreate     = declare(Operation{Name: "identity_provider.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpIdentityProviderGet        = declare(Operation{Name: "identity_provider.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpIdentityProviderUpdate     = declare(Operation{Name: "identity_provider.update", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpIdentityProviderDelete     = declare(Operation{Name: "identity_provider.delete", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpIdentityProviderTrust      = declare(Operation{Name: "identity_provider.trust", Action: authz.TrustIdentityProvider, Write: true, Target: TargetCustomer})
	OpWebhookList                = declare(Operation{Name: "webhook.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpWebhookCreate              = declare(Operation{Name: "webhook.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpWebhookGet                 = declare(Operation{Name: "webhook.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpWebhookUpdate              = declare(Operation{Name: "webhook.update", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpWebhookDelete              = declare(Operation{Name: "webhook.delete", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpWebhookSecretRotate        = declare(Operation{Name: "webhook.secret_rotate", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpWebhookDeliveries          = declare(Operation{Name: "webhook.deliveries", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpServiceAccountList         = declare(Operation{Name: "service_account.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpServiceAccountCreate       = declare(Operation{Name: "service_account.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpServiceAccountGet          = declare(Operation{Name: "service_account.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpServiceAccountDelete       = declare(Operation{Name: "service_account.delete", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpServiceAccountSecretRotate = declare(Operation{Name: "service_account.secret_rotate", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpServiceAccountKeysPut      = declare(Operation{Name: "service_account.keys_put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpServiceAccountRolePut      = declare(Operation{Name: "service_account.role_put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
)

// Billing and usage, open to account_manager within scope
// (R4.6-customer-side); lists without a customer are filtered by scope.
var (
	OpInvoiceList         = declare(Operation{Name: "invoice.list", Action: authz.ViewBilling})
	OpInvoiceGet          = declare(Operation{Name: "invoice.get", Action: authz.ViewBilling, Target: TargetCustomer})
	OpCustomerInvoiceList = declare(Operation{Name: "invoice.customer_list", Action: authz.ViewBilling, Target: TargetCustomer})
	OpInvoiceNext         = declare(Operation{Name: "invoice.next", Action: authz.ViewBilling, Target: TargetCustomer})
	OpPaymentList         = declare(Operation{Name: "payment.list", Action: authz.ViewBilling, Target: TargetCustomer})
	OpCreditList          = declare(Operation{Name: "credit.list", Action: authz.ViewBilling, Target: TargetCustomer})
	OpCreditIssue         = declare(Operation{Name: "credit.issue", Action: authz.ManageBilling, Write: true, Target: TargetCustomer})
	OpBillingSetupGet     = declare(Operation{Name: "billing_setup.get", Action: authz.ViewBilling, Target: TargetCustomer})
	OpBillingSetupPut     = declare(Operation{Name: "billing_setup.put", Action: authz.ManageBilling, Write: true, Target: TargetCustomer})
	OpUsageList           = declare(Operation{Name: "usage.list", Action: authz.ViewUsageUnits})
	OpCustomerUsageList   = declare(Operation{Name: "usage.customer_list", Action: authz.ViewUsageUnits, Target: TargetCustomer})
	OpBilledTotals        = declare(Operation{Name: "usage.billed_totals", Action: authz.ViewBilledUnits, Target: TargetCustomer})
)

// The internal-infrastructure resources (R4.6-infra), which no customer
// owns: the plan and meter catalog, releases and environment variables,
// system workers, user attributes and the discrepancies inbox.
var (
	OpPlanList        = declare(Operation{Name: "plan.list", Action: authz.ManageCatalog})
	OpPlanCreate      = declare(Operation{Name: "plan.create", Action: authz.ManageCatalog, Write: true})
	OpPlanGet         = declare(Operation{Name: "plan.get", Action: authz.ManageCatalog})
	OpPlanUpdate      = declare(Operation{Name: "plan.update", Action: authz.ManageCatalog, Write: true})
	OpPlanDelete      = declare(Operation{Name: "plan.delete", Action: authz.ManageCatalog, Write: true})
	OpMeterList       = declare(Operation{Name: "meter.list", Action: authz.ManageCatalog})
	OpMeterCreate     = declare(Operation{Name: "meter.create", Action: authz.ManageCatalog, Write: true})
	OpMeterGet        = declare(Operation{Name: "meter.get", Action: authz.ManageCatalog})
	OpMeterUpdate     = declare(Operation{Name: "meter.update", Action: authz.ManageCatalog, Write: true})
	OpMeterDelete     = declare(Operation{Name: "meter.delete", Action: authz.ManageCatalog, Write: true})
	OpReleaseList     = declare(Operation{Name: "release.list", Action: authz.ManageReleases})
	OpReleaseCreate   = declare(Operation{Name: "release.create", Action: authz.ManageReleases, Write: true})
	OpReleaseGet      = declare(Operation{Name: "release.get", Action: authz.ManageReleases})
	OpReleaseUpdate   = declare(Operation{Name: "release.update", Action: authz.ManageReleases, Write: true})
	OpReleasePublish  = declare(Operation{Name: "release.publish", Action: authz.ManageReleases, Write: true})
	OpReleaseWithdraw = declare(Operation{Name: "release.withdraw", Action: authz.ManageReleases, Write: true})
	OpEnvVarList      = declare(Operation{Name: "env_var.list", Action: authz.ManageReleases})
	OpEnvVarCreate    = declare(Operation{Name: "env_var.create", Action: authz.ManageReleases, Write: true})
	OpEnvVarGet       = declare(Operation{Name: "env_var.get", Action: authz.ManageReleases})
	OpEnvVarUpdate    = declare(Operation{Name: "env_var.update", Action: authz.ManageReleases, Write: true})
	OpEnvVarDelete    = declare(Operation{Name: "env_var.delete", Action: authz.ManageReleases, Write: true})
	// OpEnvVarValue opens a variable's value for the platform's own use
	// (Service.EnvValue): no route answers it; whoever may change the
	// variable may read it, and every opening is audited.
	OpEnvVarValue         = declare(Operation{Name: "env_var.value", Action: authz.ManageReleases, Write: true})
	OpSystemWorkerList    = declare(Operation{Name: "system_worker.list", Action: authz.ManageSystemWorkers})
	OpSystemWorkerGet     = declare(Operation{Name: "system_worker.get", Action: authz.ManageSystemWorkers})
	OpSystemWorkerRun     = declare(Operation{Name: "system_worker.run", Action: authz.ManageSystemWorkers, Write: true})
	OpSystemWorkerPause   = declare(Operation{Name: "system_worker.pause", Action: authz.ManageSystemWorkers, Write: true})
	OpSystemWorkerResume  = declare(Operation{Name: "system_worker.resume", Action: authz.ManageSystemWorkers, Write: true})
	OpUserAttributeList   = declare(Operation{Name: "user_attribute.list", Action: authz.ManageUserAttributes})
	OpUserAttributeCreate = declare(Operation{Name: "user_attribute.create", Action: authz.ManageUserAttributes, Write: true})
	OpUserAttributeGet    = declare(Operation{Name: "user_attribute.get", Action: authz.ManageUserAttributes})
	OpUserAttributeUpdate = declare(Operation{Name: "user_attribute.update", Action: authz.ManageUserAttributes, Write: true})
	OpUserAttributeDelete = declare(Operation{Name: "user_attribute.delete", Action: authz.ManageUserAttributes, Write: true})
	OpDiscrepancyList     = declare(Operation{Name: "discrepancy.list", Action: authz.ManageDiscrepancies})
	OpDiscrepancyReport   = declare(Operation{Name: "discrepancy.report", Action: authz.ManageDiscrepancies, Write: true})
	OpDiscrepancyGet      = declare(Operation{Name: "discrepancy.get", Action: authz.ManageDiscrepancies})
	OpDiscrepancyResolve  = declare(Operation{Name: "discrepancy.resolve", Action: authz.ManageDiscrepancies, Write: true})
	OpDiscrepancyReopen   = declare(Operation{Name: "discrepancy.reopen", Action: authz.ManageDiscrepancies, Write: true})
)

// SCIM tokens (D-scim): a customer's directory provisions its users with
// one; managing them is customer-side configuration.
var (
	OpSCIMTokenList   = declare(Operation{Name: "scim_token.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpSCIMTokenCreate = declare(Operation{Name: "scim_token.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpSCIMTokenRevoke = declare(Operation{Name: "scim_token.revoke", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
)

// A customer's e-mail domains (D-verified-domains): claimed, proven by a
// DNS TXT record or an HTTPS well-known file, re-verified periodically
// (domain.unverify is the re-verification's own write, by no caller's
// request).
var (
	OpDomainList     = declare(Operation{Name: "domain.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpDomainClaim    = declare(Operation{Name: "domain.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpDomainVerify   = declare(Operation{Name: "domain.verify", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpDomainDelete   = declare(Operation{Name: "domain.delete", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpDomainUnverify = declare(Operation{Name: "domain.unverify", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
)

// Initial access tokens of dynamic client registration and the clients
// they registered (D-dynamic-registration): customer-side configuration.
var (
	OpRegistrationTokenList   = declare(Operation{Name: "registration_token.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpRegistrationTokenCreate = declare(Operation{Name: "registration_token.create", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpRegistrationTokenRevoke = declare(Operation{Name: "registration_token.revoke", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpRegisteredClientList    = declare(Operation{Name: "registered_client.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
)

// Client ID metadata documents (D-client-metadata-documents): whether a
// customer accepts them, the clients they described and blocking one;
// customer-side configuration.
var (
	OpClientMetadataGet   = declare(Operation{Name: "client_metadata.get", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpClientMetadataPut   = declare(Operation{Name: "client_metadata.put", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
	OpMetadataClientList  = declare(Operation{Name: "metadata_client.list", Action: authz.ManageCustomerConfig, Target: TargetCustomer})
	OpMetadataClientBlock = declare(Operation{Name: "metadata_client.block", Action: authz.ManageCustomerConfig, Write: true, Target: TargetCustomer})
)

// The administrator organization's SCIM tokens and what its directory does
// through them (D-scim-internal): managed, and decided, as internal users
// are. A directory suspends and reactivates an internal user (active false
// and true) and writes internal groups' names and members, never a role.
var (
	OpInternalSCIMTokenList   = declare(Operation{Name: "internal_scim_token.list", Action: authz.ManageInternalUsers})
	OpInternalSCIMTokenCreate = declare(Operation{Name: "internal_scim_token.create", Action: authz.ManageInternalUsers, Write: true})
	OpInternalSCIMTokenRevoke = declare(Operation{Name: "internal_scim_token.revoke", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserSuspend     = declare(Operation{Name: "internal_user.suspend", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserReactivate  = declare(Operation{Name: "internal_user.reactivate", Action: authz.ManageInternalUsers, Write: true})
	OpInternalUserDelete      = declare(Operation{Name: "internal_user.delete", Action: authz.ManageInternalUsers, Write: true})
	OpSCIMInternalGroupCreate = declare(Operation{Name: "scim_internal_group.create", Action: authz.ManageInternalUsers, Write: true})
	OpSCIMInternalGroupUpdate = declare(Operation{Name: "scim_internal_group.update", Action: authz.ManageInternalUsers, Write: true})
	OpSCIMInternalGroupDelete = declare(Operation{Name: "scim_internal_group.delete", Action: authz.ManageInternalUsers, Write: true})
)

// A customer's groups as its directory writes them through SCIM (D-scim):
// names, external ids and members, never the bound role.
var (
	OpSCIMGroupCreate = declare(Operation{Name: "scim_group.create", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpSCIMGroupUpdate = declare(Operation{Name: "scim_group.update", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpSCIMGroupDelete = declare(Operation{Name: "scim_group.delete", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
)

// Groups (D-groups): a customer's groups are managed as its users are
// (manage_customer_user, within scope), internal groups and their grants
// as internal users are (manage_internal_users). A group's managers read,
// add and remove its members without holding the action (D-group-managers):
// the member operations say so.
var (
	OpGroupList          = declare(Operation{Name: "group.list", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpGroupCreate        = declare(Operation{Name: "group.create", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpGroupGet           = declare(Operation{Name: "group.get", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpGroupUpdate        = declare(Operation{Name: "group.update", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpGroupDelete        = declare(Operation{Name: "group.delete", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpGroupMembers       = declare(Operation{Name: "group.members", Action: authz.ManageCustomerUser, Target: TargetCustomer, GroupManager: true})
	OpGroupMemberAdd     = declare(Operation{Name: "group.member_add", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer, GroupManager: true})
	OpGroupMemberRemove  = declare(Operation{Name: "group.member_remove", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer, GroupManager: true})
	OpGroupManagers      = declare(Operation{Name: "group.managers", Action: authz.ManageCustomerUser, Target: TargetCustomer})
	OpGroupManagerAdd    = declare(Operation{Name: "group.manager_add", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})
	OpGroupManagerRemove = declare(Operation{Name: "group.manager_remove", Action: authz.ManageCustomerUser, Write: true, Target: TargetCustomer})

	OpInternalGroupList          = declare(Operation{Name: "internal_group.list", Action: authz.ManageInternalUsers})
	OpInternalGroupCreate        = declare(Operation{Name: "internal_group.create", Action: authz.ManageInternalUsers, Write: true})
	OpInternalGroupGet           = declare(Operation{Name: "internal_group.get", Action: authz.ManageInternalUsers})
	OpInternalGroupUpdate        = declare(Operation{Name: "internal_group.update", Action: authz.ManageInternalUsers, Write: true})
	OpInternalGroupDelete        = declare(Operation{Name: "internal_group.delete", Action: authz.ManageInternalUsers, Write: true})
	OpInternalGroupMembers       = declare(Operation{Name: "internal_group.members", Action: authz.ManageInternalUsers, GroupManager: true})
	OpInternalGroupMemberAdd     = declare(Operation{Name: "internal_group.member_add", Action: authz.ManageInternalUsers, Write: true, GroupManager: true})
	OpInternalGroupMemberRemove  = declare(Operation{Name: "internal_group.member_remove", Action: authz.ManageInternalUsers, Write: true, GroupManager: true})
	OpInternalGroupManagers      = declare(Operation{Name: "internal_group.managers", Action: authz.ManageInternalUsers})
	OpInternalGroupManagerAdd    = declare(Operation{Name: "internal_group.manager_add", Action: authz.ManageInternalUsers, Write: true})
	OpInternalGroupManagerRemove = declare(Operation{Name: "internal_group.manager_remove", Action: authz.ManageInternalUsers, Write: true})
	OpInternalGroupGrants        = declare(Operation{Name: "internal_group.grants", Action: authz.ManageInternalUsers})
	OpInternalGroupGrantCreate   = declare(Operation{Name: "internal_group.grant_create", Action: authz.ManageInternalUsers, Write: true, Target: TargetCustomer})
	OpInternalGroupGrantDelete   = declare(Operation{Name: "internal_group.grant_delete", Action: authz.ManageInternalUsers, Write: true, Target: TargetCustomer})
)
