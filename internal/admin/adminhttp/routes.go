package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// table declares every route, one line each: method, pattern, the
// operation it performs, the look-up of its {id} (Locate) and its handler,
// a shape of handler.go over one service method, or one of the few of
// custom.go that no shape fits.
func (a *API) table() []Route {
	const get, post, put, patch, del = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete
	const ok, created, accepted = http.StatusOK, http.StatusCreated, http.StatusAccepted
	s := a.svc
	cust, tenant, inst, user, intUser := s.CustomerResource, s.TenantResource, s.InstanceResource, s.CustomerUserResource, s.InternalUserResource
	idp, hook, sa := s.IdentityProviderResource, s.WebhookResource, s.ServiceAccountResource
	group, intGroup := s.GroupResource, s.InternalGroupResource
	return []Route{
		// Every caller may read its own permissions; the action is the one every role holds.
		{Method: get, Pattern: "/me/permissions", Op: admin.OpMePermissions, Handle: a.mePermissions},

		// Customers.
		{Method: get, Pattern: "/customers", Op: admin.OpCustomerList, Handle: searched(s.SearchCustomers)},
		{Method: post, Pattern: "/customers", Op: admin.OpCustomerCreate, Handle: withBody(created, s.CreateCustomer)},
		{Method: get, Pattern: "/customers/{id}", Op: admin.OpCustomerGet, Locate: cust, Handle: byID(ok, s.Customer)},
		{Method: patch, Pattern: "/customers/{id}", Op: admin.OpCustomerUpdate, Locate: cust, Handle: byIDWithBody(ok, s.UpdateCustomer)},
		{Method: del, Pattern: "/customers/{id}", Op: admin.OpCustomerDelete, Locate: cust, Handle: deleteByID(s.DeleteCustomer)},
		{Method: get, Pattern: "/customers/{id}/settings", Op: admin.OpCustomerSettings, Locate: cust, Handle: byID(ok, s.CustomerSettings)},
		{Method: put, Pattern: "/customers/{id}/settings", Op: admin.OpCustomerSettingsPut, Locate: cust, Handle: byIDWithBody(ok, s.PutCustomerSettings)},
		// A customer's branding and e-mail sender; the logo is the raw image (logo.go).
		{Method: get, Pattern: "/customers/{id}/branding", Op: admin.OpBrandingGet, Locate: cust, Handle: byID(ok, s.CustomerBranding)},
		{Method: put, Pattern: "/customers/{id}/branding", Op: admin.OpBrandingPut, Locate: cust, Handle: byIDWithBody(ok, s.PutCustomerBranding)},
		{Method: put, Pattern: "/customers/{id}/branding/logo", Op: admin.OpBrandingLogoPut, Locate: cust, Handle: a.putLogo},
		{Method: del, Pattern: "/customers/{id}/branding/logo", Op: admin.OpBrandingLogoDelete, Locate: cust, Handle: byID(ok, s.DeleteCustomerLogo)},
		{Method: post, Pattern: "/customers/{id}/transfer-ownership", Op: admin.OpCustomerTransferOwnership, Locate: cust, Handle: byIDWithBody(ok, s.TransferOwnership)},

		// Tenants, answered with their settings.
		{Method: get, Pattern: "/tenants", Op: admin.OpTenantListWithSettings, Handle: a.listTenants},
		{Method: post, Pattern: "/tenants", Op: admin.OpTenantCreate, Handle: withBody(created, s.CreateTenant)},
		{Method: get, Pattern: "/tenants/{id}", Op: admin.OpTenantGetWithSettings, Locate: tenant, Handle: byID(ok, s.Tenant)},
		{Method: patch, Pattern: "/tenants/{id}", Op: admin.OpTenantUpdate, Locate: tenant, Handle: byIDWithBody(ok, s.UpdateTenant)},
		{Method: del, Pattern: "/tenants/{id}", Op: admin.OpTenantDelete, Locate: tenant, Handle: deleteByID(s.DeleteTenant)},
		{Method: get, Pattern: "/tenants/{id}/settings", Op: admin.OpTenantSettings, Locate: tenant, Handle: byID(ok, s.TenantSettings)},
		{Method: put, Pattern: "/tenants/{id}/settings", Op: admin.OpTenantSettingsPut, Locate: tenant, Handle: byIDWithBody(ok, s.PutTenantSettings)},
		{Method: get, Pattern: "/tenants/{id}/members", Op: admin.OpTenantMembers, Locate: tenant, Handle: itemsByID(s.TenantMembers)},
		{Method: put, Pattern: "/tenants/{id}/members/{userId}", Op: admin.OpTenantMemberPut, Locate: tenant, Handle: a.putTenantMember},
		{Method: del, Pattern: "/tenants/{id}/members/{userId}", Op: admin.OpTenantMemberRemove, Locate: tenant, Handle: deleteByIDAnd("userId", s.RemoveTenantMember)},
		{Method: post, Pattern: "/tenants/{id}/transfer", Op: admin.OpTenantTransfer, Locate: tenant, Handle: byIDWithBody(ok, s.TransferTenant)},
		{Method: get, Pattern: "/tenants/{id}/migrations", Op: admin.OpTenantMigrations, Locate: tenant, Handle: itemsByID(s.TenantMigrations)},
		{Method: post, Pattern: "/tenants/{id}/migrations", Op: admin.OpTenantMigrate, Locate: tenant, Handle: byIDWithBody(accepted, s.TriggerMigration)},

		// Instances. account_manager and qa_admin read the instances of their
		// scope through create_tenant (D-instance-reads).
		{Method: get, Pattern: "/instances", Op: admin.OpInstanceList, Handle: searchedByCustomer(s.SearchInstances)},
		{Method: post, Pattern: "/instances", Op: admin.OpInstanceCreate, Handle: withBody(created, s.CreateInstance)},
		{Method: get, Pattern: "/instances/{id}", Op: admin.OpInstanceGet, Locate: inst, Handle: byID(ok, s.Instance)},
		{Method: put, Pattern: "/instances/{id}", Op: admin.OpInstanceUpdate, Locate: inst, Handle: byIDWithBody(ok, s.UpdateInstance)},
		{Method: del, Pattern: "/instances/{id}", Op: admin.OpInstanceDelete, Locate: inst, Handle: deleteByID(s.DeleteInstance)},
		{Method: get, Pattern: "/instances/{id}/connection", Op: admin.OpInstanceConnection, Locate: inst, Handle: byID(ok, s.Connection)},
		{Method: put, Pattern: "/instances/{id}/connection", Op: admin.OpInstanceConnectionRepair, Locate: inst, Handle: byID(ok, s.RepairConnection)},
		{Method: post, Pattern: "/instances/{id}/connection/rotate", Op: admin.OpInstanceConnectionRotate, Locate: inst, Handle: byID(ok, s.RotateConnection)},
		{Method: post, Pattern: "/instances/{id}/rotate-secret", Op: admin.OpInstanceSecretRotate, Locate: inst, Handle: byID(ok, s.RotateInstanceSecret)},
		{Method: post, Pattern: "/instances/{id}/resolve-database-uri", Op: admin.OpInstanceDatabaseURIResolve, Locate: inst, Handle: byID(ok, s.ResolveDatabaseURI)},

		// Customers' users.
		{Method: get, Pattern: "/users", Op: admin.OpUserList, Handle: searchedByCustomer(s.SearchUsers)},
		{Method: post, Pattern: "/customers/{id}/users", Op: admin.OpUserInvite, Locate: cust, Handle: byIDWithBody(created, s.InviteUser)},
		{Method: get, Pattern: "/users/{id}", Op: admin.OpUserGet, Locate: user, Handle: byID(ok, s.User)},
		{Method: patch, Pattern: "/users/{id}", Op: admin.OpUserUpdate, Locate: user, Handle: byIDWithBody(ok, s.UpdateUser)},
		{Method: del, Pattern: "/users/{id}", Op: admin.OpUserDelete, Locate: user, Handle: deleteByID(s.DeleteUser)},
		{Method: post, Pattern: "/users/{id}/suspend", Op: admin.OpUserSuspend, Locate: user, Handle: byID(ok, s.SuspendUser)},
		{Method: post, Pattern: "/users/{id}/reactivate", Op: admin.OpUserReactivate, Locate: user, Handle: byID(ok, s.ReactivateUser)},
		{Method: post, Pattern: "/users/{id}/resend-invitation", Op: admin.OpUserInvitationResend, Locate: user, Handle: byID(ok, s.ResendInvitation)},
		{Method: post, Pattern: "/users/{id}/revoke-invitation", Op: admin.OpUserInvitationRevoke, Locate: user, Handle: deleteByID(s.RevokeInvitation)},
		{Method: post, Pattern: "/users/{id}/unlock", Op: admin.OpUserUnlock, Locate: user, Handle: byID(ok, s.UnlockUser)},
		{Method: post, Pattern: "/users/{id}/transfer-home-org", Op: admin.OpUserTransferHomeOrg, Locate: user, Handle: byIDWithBody(ok, s.TransferHomeOrg)},
		// Support tools (D-support-tools): the user's sessions at the
		// identity provider, signing out of one or all, the second factor reset.
		{Method: get, Pattern: "/users/{id}/sessions", Op: admin.OpUserSessions, Locate: user, Handle: pagedByID(s.UserSessions)},
		{Method: del, Pattern: "/users/{id}/sessions", Op: admin.OpUserSessionsEnd, Locate: user, Handle: deleteByID(s.EndUserSessions)},
		{Method: del, Pattern: "/users/{id}/sessions/{sessionId}", Op: admin.OpUserSessionEnd, Locate: user, Handle: deleteByIDAnd("sessionId", s.EndUserSession)},
		{Method: post, Pattern: "/users/{id}/reset-second-factor", Op: admin.OpUserSecondFactorReset, Locate: user, Handle: byID(ok, s.ResetSecondFactor)},

		// Support impersonation (D-impersonation): a one-time subject token
		// for the token exchange; the customer's list, its decision, ending one.
		{Method: post, Pattern: "/users/{id}/impersonate", Op: admin.OpUserImpersonate, Locate: user, Handle: byIDWithBody(created, s.Impersonate)},
		{Method: get, Pattern: "/customers/{id}/impersonations", Op: admin.OpImpersonationList, Locate: cust, Handle: pagedByID(s.ListImpersonations)},
		{Method: get, Pattern: "/customers/{id}/impersonation-policy", Op: admin.OpImpersonationPolicyGet, Locate: cust, Handle: byID(ok, s.CustomerImpersonationPolicy)},
		{Method: put, Pattern: "/customers/{id}/impersonation-policy", Op: admin.OpImpersonationPolicyPut, Locate: cust, Handle: byIDWithBody(ok, s.PutCustomerImpersonationPolicy)},
		{Method: del, Pattern: "/impersonations/{id}", Op: admin.OpImpersonationEnd, Locate: s.ImpersonationResource, Handle: byID(ok, s.EndImpersonation)},
		{Method: del, Pattern: "/me/impersonation", Op: admin.OpImpersonationEndOwn, Handle: a.endOwnImpersonation},
		// With the customer's approver (D-impersonation-approval)
		{Method: get, Pattern: "/impersonations/{id}", Op: admin.OpImpersonationGet, Locate: s.ImpersonationResource, Handle: byID(ok, s.GetImpersonation)},
		{Method: post, Pattern: "/impersonations/{id}/approve", Op: admin.OpImpersonationApprove, Locate: s.ImpersonationResource, Handle: byID(ok, s.ApproveImpersonation)},
		{Method: post, Pattern: "/impersonations/{id}/deny", Op: admin.OpImpersonationDeny, Locate: s.ImpersonationResource, Handle: byID(ok, s.DenyImpersonation)},
		{Method: post, Pattern: "/impersonations/{id}/subject-token", Op: admin.OpImpersonationToken, Locate: s.ImpersonationResource, Handle: byID(created, s.CollectSubjectToken)},

		// Internal users.
		{Method: get, Pattern: "/internal-users", Op: admin.OpInternalUserList, Handle: searched(s.SearchInternalUsers)},
		{Method: post, Pattern: "/internal-users", Op: admin.OpInternalUserCreate, Handle: withBody(created, s.CreateInternalUser)},
		{Method: get, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserGet, Locate: intUser, Handle: byID(ok, s.InternalUser)},
		{Method: patch, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserUpdate, Locate: intUser, Handle: byIDWithBody(ok, s.UpdateInternalUser)},
		{Method: post, Pattern: "/internal-users/{id}/resend-invitation", Op: admin.OpInternalUserInvitationResend, Locate: intUser, Handle: byID(ok, s.ResendInternalInvitation)},
		{Method: post, Pattern: "/internal-users/{id}/revoke-invitation", Op: admin.OpInternalUserInvitationRevoke, Locate: intUser, Handle: deleteByID(s.RevokeInternalInvitation)},
		{Method: post, Pattern: "/internal-users/{id}/unlock", Op: admin.OpInternalUserUnlock, Locate: intUser, Handle: byID(ok, s.UnlockInternalUser)},
		{Method: get, Pattern: "/internal-users/{id}/sessions", Op: admin.OpInternalUserSessions, Locate: intUser, Handle: pagedByID(s.InternalUserSessions)},
		{Method: del, Pattern: "/internal-users/{id}/sessions", Op: admin.OpInternalUserSessionsEnd, Locate: intUser, Handle: deleteByID(s.EndInternalUserSessions)},
		{Method: del, Pattern: "/internal-users/{id}/sessions/{sessionId}", Op: admin.OpInternalUserSessionEnd, Locate: intUser, Handle: deleteByIDAnd("sessionId", s.EndInternalUserSession)},
		{Method: post, Pattern: "/internal-users/{id}/reset-second-factor", Op: admin.OpInternalUserSecondFactorReset, Locate: intUser, Handle: byID(ok, s.ResetInternalSecondFactor)},
		{Method: del, Pattern: "/internal-users/{id}", Op: admin.OpInternalUserRemove, Locate: intUser, Handle: deleteByID(s.RemoveInternalUser)},

		// Grants give account managers and QA admins their customers and
		// instances (R2.6-instance-grant). Managing them is managing internal
		// users: platform_admin, with compliance_admin and reader reading.
		{Method: get, Pattern: "/grants", Op: admin.OpGrantList, Handle: answer(ok, none, grantFilter, items(unkeyed(s.ListGrants)))},
		{Method: post, Pattern: "/grants", Op: admin.OpGrantCreate, Handle: withBody(created, s.CreateGrant)},
		{Method: del, Pattern: "/customers/{id}/grants/{userId}", Op: admin.OpGrantDeleteCustomer, Locate: cust, Handle: a.deleteGrant(false)},
		{Method: del, Pattern: "/instances/{id}/grants/{userId}", Op: admin.OpGrantDeleteInstance, Locate: inst, Handle: a.deleteGrant(true)},

		// Groups (D-groups): a customer's groups are managed as its users
		// are; internal groups and their grants as internal users are. A
		// group's managers reach its member routes without the action
		// (D-group-managers; wrap lets them through, the service decides).
		{Method: get, Pattern: "/customers/{id}/groups", Op: admin.OpGroupList, Locate: cust, Handle: answer(ok, id, pages(platform.NamePages), s.ListGroups)},
		{Method: post, Pattern: "/customers/{id}/groups", Op: admin.OpGroupCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateGroup)},
		{Method: get, Pattern: "/groups/{id}", Op: admin.OpGroupGet, Locate: group, Handle: byID(ok, groupCall(false, s.Group))},
		{Method: patch, Pattern: "/groups/{id}", Op: admin.OpGroupUpdate, Locate: group, Handle: byIDWithBody(ok, groupBodyCall(false, s.UpdateGroup))},
		{Method: del, Pattern: "/groups/{id}", Op: admin.OpGroupDelete, Locate: group, Handle: deleteByID(groupDelete(false, s.DeleteGroup))},
		{Method: get, Pattern: "/groups/{id}/members", Op: admin.OpGroupMembers, Locate: group, Handle: a.groupMembers(false, false)},
		{Method: put, Pattern: "/groups/{id}/members/{userId}", Op: admin.OpGroupMemberAdd, Locate: group, Handle: a.putGroupMember(false, false)},
		{Method: del, Pattern: "/groups/{id}/members/{userId}", Op: admin.OpGroupMemberRemove, Locate: group, Handle: a.deleteGroupMember(false, false)},
		{Method: get, Pattern: "/groups/{id}/managers", Op: admin.OpGroupManagers, Locate: group, Handle: a.groupMembers(false, true)},
		{Method: put, Pattern: "/groups/{id}/managers/{userId}", Op: admin.OpGroupManagerAdd, Locate: group, Handle: a.putGroupMember(false, true)},
		{Method: del, Pattern: "/groups/{id}/managers/{userId}", Op: admin.OpGroupManagerRemove, Locate: group, Handle: a.deleteGroupMember(false, true)},
		{Method: get, Pattern: "/internal-groups", Op: admin.OpInternalGroupList, Handle: paged(s.ListInternalGroups)},
		{Method: post, Pattern: "/internal-groups", Op: admin.OpInternalGroupCreate, Handle: withBody(created, s.CreateInternalGroup)},
		{Method: get, Pattern: "/internal-groups/{id}", Op: admin.OpInternalGroupGet, Locate: intGroup, Handle: byID(ok, groupCall(true, s.Group))},
		{Method: patch, Pattern: "/internal-groups/{id}", Op: admin.OpInternalGroupUpdate, Locate: intGroup, Handle: byIDWithBody(ok, groupBodyCall(true, s.UpdateGroup))},
		{Method: del, Pattern: "/internal-groups/{id}", Op: admin.OpInternalGroupDelete, Locate: intGroup, Handle: deleteByID(groupDelete(true, s.DeleteGroup))},
		{Method: get, Pattern: "/internal-groups/{id}/members", Op: admin.OpInternalGroupMembers, Locate: intGroup, Handle: a.groupMembers(true, false)},
		{Method: put, Pattern: "/internal-groups/{id}/members/{userId}", Op: admin.OpInternalGroupMemberAdd, Locate: intGroup, Handle: a.putGroupMember(true, false)},
		{Method: del, Pattern: "/internal-groups/{id}/members/{userId}", Op: admin.OpInternalGroupMemberRemove, Locate: intGroup, Handle: a.deleteGroupMember(true, false)},
		{Method: get, Pattern: "/internal-groups/{id}/managers", Op: admin.OpInternalGroupManagers, Locate: intGroup, Handle: a.groupMembers(true, true)},
		{Method: put, Pattern: "/internal-groups/{id}/managers/{userId}", Op: admin.OpInternalGroupManagerAdd, Locate: intGroup, Handle: a.putGroupMember(true, true)},
		{Method: del, Pattern: "/internal-groups/{id}/managers/{userId}", Op: admin.OpInternalGroupManagerRemove, Locate: intGroup, Handle: a.deleteGroupMember(true, true)},
		{Method: get, Pattern: "/internal-groups/{id}/grants", Op: admin.OpInternalGroupGrants, Locate: intGroup, Handle: itemsByID(s.GroupGrants)},
		{Method: post, Pattern: "/internal-groups/{id}/grants", Op: admin.OpInternalGroupGrantCreate, Locate: intGroup, Handle: byIDWithBody(created, s.CreateGroupGrant)},
		{Method: del, Pattern: "/internal-groups/{id}/grants/customers/{targetId}", Op: admin.OpInternalGroupGrantDelete, Locate: intGroup, Handle: a.deleteGroupGrant(false)},
		{Method: del, Pattern: "/internal-groups/{id}/grants/instances/{targetId}", Op: admin.OpInternalGroupGrantDelete, Locate: intGroup, Handle: a.deleteGroupGrant(true)},

		// Focus mode is a caller's own lens; every role reaches the routes,
		// the service refuses customer roles.
		{Method: get, Pattern: "/me/focus", Op: admin.OpFocusGet, Handle: ofCaller(ok, s.Focus)},
		{Method: post, Pattern: "/me/focus", Op: admin.OpFocusEnter, Handle: withBody(ok, s.EnterFocus)},
		{Method: del, Pattern: "/me/focus", Op: admin.OpFocusLeave, Handle: a.leaveFocus},

		// The audit and e-mail logs.
		{Method: get, Pattern: "/audit-log", Op: admin.OpAuditLog, Handle: listed(auditQuery, s.AuditLog)},
		{Method: get, Pattern: "/audit-log/export", Op: admin.OpAuditExport, Handle: listed(exportQuery, exported(s.AuditExport))},
		{Method: get, Pattern: "/email-log", Op: admin.OpEmailLog, Handle: listed(logQuery, s.EmailLog)},

		// Subscriptions are the caller's own; every role may hold them, and
		// they grant nothing (R6-subscription).
		{Method: get, Pattern: "/me/subscriptions", Op: admin.OpSubscriptionList, Handle: answer(ok, none, nothing, items(callerOnly(s.Subscriptions)))},
		{Method: post, Pattern: "/me/subscriptions", Op: admin.OpSubscriptionCreate, Handle: withBody(created, s.Subscribe)},
		{Method: del, Pattern: "/me/subscriptions/{eventType}", Op: admin.OpSubscriptionDelete, Handle: a.unsubscribe},

		// A customer's SSO settings and identity providers, open to
		// account_manager within scope (R4.6-customer-side).
		{Method: get, Pattern: "/customers/{id}/sso", Op: admin.OpSSOSettings, Locate: cust, Handle: byID(ok, s.SSOSettings)},
		{Method: put, Pattern: "/customers/{id}/sso", Op: admin.OpSSOSettingsPut, Locate: cust, Handle: byIDWithBody(ok, s.PutSSOSettings)},
		// The organization's security policy (D-org-policy): session lifetimes, password length, what satisfies MFA.
		{Method: get, Pattern: "/customers/{id}/security-policy", Op: admin.OpSecurityPolicy, Locate: cust, Handle: byID(ok, s.SecurityPolicy)},
		{Method: put, Pattern: "/customers/{id}/security-policy", Op: admin.OpSecurityPolicyPut, Locate: cust, Handle: byIDWithBody(ok, s.PutSecurityPolicy)},
		{Method: get, Pattern: "/customers/{id}/identity-providers", Op: admin.OpIdentityProviderList, Locate: cust, Handle: byID(ok, s.ListIdentityProviders)},
		{Method: post, Pattern: "/customers/{id}/identity-providers", Op: admin.OpIdentityProviderCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateIdentityProvider)},
		{Method: get, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderGet, Locate: idp, Handle: byID(ok, s.IdentityProvider)},
		{Method: patch, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderUpdate, Locate: idp, Handle: byIDWithBody(ok, s.UpdateIdentityProvider)},
		{Method: del, Pattern: "/identity-providers/{id}", Op: admin.OpIdentityProviderDelete, Locate: idp, Handle: deleteByID(s.DeleteIdentityProvider)},
		// platform_admin's trust in a provider to link accounts (D-linking)
		{Method: put, Pattern: "/identity-providers/{id}/trust", Op: admin.OpIdentityProviderTrust, Locate: idp, Handle: byIDWithBody(ok, s.TrustIdentityProvider)},

		// A customer's webhooks and their deliveries, open to account_manager
		// within scope (R4.6-customer-side).
		{Method: get, Pattern: "/customers/{id}/webhooks", Op: admin.OpWebhookList, Locate: cust, Handle: byID(ok, s.ListWebhooks)},
		{Method: post, Pattern: "/customers/{id}/webhooks", Op: admin.OpWebhookCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateWebhook)},
		{Method: get, Pattern: "/webhooks/{id}", Op: admin.OpWebhookGet, Locate: hook, Handle: byID(ok, s.Webhook)},
		{Method: patch, Pattern: "/webhooks/{id}", Op: admin.OpWebhookUpdate, Locate: hook, Handle: byIDWithBody(ok, s.UpdateWebhook)},
		{Method: del, Pattern: "/webhooks/{id}", Op: admin.OpWebhookDelete, Locate: hook, Handle: deleteByID(s.DeleteWebhook)},
		{Method: post, Pattern: "/webhooks/{id}/rotate-secret", Op: admin.OpWebhookSecretRotate, Locate: hook, Handle: byID(ok, s.RotateWebhookSecret)},
		{Method: get, Pattern: "/webhooks/{id}/deliveries", Op: admin.OpWebhookDeliveries, Locate: hook, Handle: listedByID(limitParam, s.ListWebhookDeliveries)},

		// A customer's service accounts, open to account_manager within scope
		// (R4.6-customer-side), and the internal ones (platform_admin). An
		// internal account's own routes are decided again in the service, as
		// internal users.
		{Method: get, Pattern: "/customers/{id}/service-accounts", Op: admin.OpServiceAccountList, Locate: cust, Handle: byID(ok, s.ListServiceAccounts)},
		{Method: post, Pattern: "/customers/{id}/service-accounts", Op: admin.OpServiceAccountCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateServiceAccount)},
		{Method: get, Pattern: "/service-accounts/{id}", Op: admin.OpServiceAccountGet, Locate: sa, Handle: byID(ok, s.ServiceAccount)},
		{Method: del, Pattern: "/service-accounts/{id}", Op: admin.OpServiceAccountDelete, Locate: sa, Handle: deleteByID(s.DeleteServiceAccount)},
		{Method: post, Pattern: "/service-accounts/{id}/rotate-secret", Op: admin.OpServiceAccountSecretRotate, Locate: sa, Handle: byID(ok, s.RotateServiceAccountSecret)},
		{Method: put, Pattern: "/service-accounts/{id}/keys", Op: admin.OpServiceAccountKeysPut, Locate: sa, Handle: byIDWithBody(ok, s.SetServiceAccountKeys)},
		{Method: put, Pattern: "/service-accounts/{id}/role", Op: admin.OpServiceAccountRolePut, Locate: sa, Handle: byIDWithBody(ok, s.SetServiceAccountRole)},
		// internal service accounts: platform_admin's, like internal users
		{Method: get, Pattern: "/service-accounts", Op: admin.OpInternalServiceAccountList, Handle: ofCaller(ok, s.ListInternalServiceAccounts)},
		{Method: post, Pattern: "/service-accounts", Op: admin.OpInternalServiceAccountCreate, Handle: withBody(created, s.CreateInternalServiceAccount)},

		// A customer's SCIM tokens (D-scim): its directory provisions users with
		// one; the token is answered once, a revoked one is refused at once.
		{Method: get, Pattern: "/customers/{id}/scim-tokens", Op: admin.OpSCIMTokenList, Locate: cust, Handle: byID(ok, s.ListSCIMTokens)},
		{Method: post, Pattern: "/customers/{id}/scim-tokens", Op: admin.OpSCIMTokenCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateSCIMToken)},
		{Method: post, Pattern: "/scim-tokens/{id}/revoke", Op: admin.OpSCIMTokenRevoke, Locate: s.SCIMTokenResource, Handle: deleteByID(s.RevokeSCIMToken)},
		// The administrator organization's (D-scim-internal): its directory
		// provisions internal users and internal groups.
		{Method: get, Pattern: "/internal-scim-tokens", Op: admin.OpInternalSCIMTokenList, Handle: ofCaller(ok, s.ListInternalSCIMTokens)},
		{Method: post, Pattern: "/internal-scim-tokens", Op: admin.OpInternalSCIMTokenCreate, Handle: withBody(created, s.CreateInternalSCIMToken)},
		{Method: post, Pattern: "/internal-scim-tokens/{id}/revoke", Op: admin.OpInternalSCIMTokenRevoke, Handle: deleteByID(s.RevokeInternalSCIMToken)},

		// A customer's e-mail domains (D-verified-domains): claimed, proven
		// by a DNS TXT record or an HTTPS well-known file, deleted.
		{Method: get, Pattern: "/customers/{id}/domains", Op: admin.OpDomainList, Locate: cust, Handle: byID(ok, s.ListDomains)},
		{Method: post, Pattern: "/customers/{id}/domains", Op: admin.OpDomainClaim, Locate: cust, Handle: byIDWithBody(created, s.ClaimDomain)},
		{Method: post, Pattern: "/customers/{id}/domains/{domainId}/verify", Op: admin.OpDomainVerify, Locate: cust, Handle: a.verifyDomain},
		{Method: del, Pattern: "/customers/{id}/domains/{domainId}", Op: admin.OpDomainDelete, Locate: cust, Handle: deleteByIDAnd("domainId", s.DeleteDomain)},
		// A customer's initial access tokens of dynamic client registration
		// (D-dynamic-registration): answered once, stored hashed; and the
		// clients they registered.
		{Method: get, Pattern: "/customers/{id}/registration-tokens", Op: admin.OpRegistrationTokenList, Locate: cust, Handle: byID(ok, s.ListRegistrationTokens)},
		{Method: post, Pattern: "/customers/{id}/registration-tokens", Op: admin.OpRegistrationTokenCreate, Locate: cust, Handle: byIDWithBody(created, s.CreateRegistrationToken)},
		{Method: post, Pattern: "/registration-tokens/{id}/revoke", Op: admin.OpRegistrationTokenRevoke, Locate: s.RegistrationTokenResource, Handle: deleteByID(s.RevokeRegistrationToken)},
		{Method: get, Pattern: "/customers/{id}/registered-clients", Op: admin.OpRegisteredClientList, Locate: cust, Handle: byID(ok, s.ListRegisteredClients)},

		// Invoices, payments, credits, billing setup and usage of customers,
		// open to account_manager within scope (R4.6-customer-side). Lists
		// without a customer in the path are filtered by the caller's scope.
		{Method: get, Pattern: "/invoices", Op: admin.OpInvoiceList, Handle: listed(invoiceFilter, s.ListInvoices)},
		{Method: get, Pattern: "/invoices/{id}", Op: admin.OpInvoiceGet, Locate: s.InvoiceResource, Handle: byID(ok, s.Invoice)},
		{Method: get, Pattern: "/customers/{id}/invoices", Op: admin.OpCustomerInvoiceList, Locate: cust, Handle: listedByID(invoiceFilter, s.ListCustomerInvoices)},
		{Method: get, Pattern: "/customers/{id}/invoices/next", Op: admin.OpInvoiceNext, Locate: cust, Handle: byID(ok, s.NextInvoice)},
		{Method: get, Pattern: "/customers/{id}/payments", Op: admin.OpPaymentList, Locate: cust, Handle: pagedByID(s.ListPayments)},
		{Method: get, Pattern: "/customers/{id}/credits", Op: admin.OpCreditList, Locate: cust, Handle: pagedByID(s.ListCredits)},
		{Method: post, Pattern: "/customers/{id}/credits", Op: admin.OpCreditIssue, Locate: cust, Handle: byIDWithBody(created, s.IssueCredit)},
		{Method: get, Pattern: "/customers/{id}/billing-setup", Op: admin.OpBillingSetupGet, Locate: cust, Handle: byID(ok, s.BillingSetup)},
		{Method: put, Pattern: "/customers/{id}/billing-setup", Op: admin.OpBillingSetupPut, Locate: cust, Handle: byIDWithBody(ok, s.PutBillingSetup)},
		{Method: get, Pattern: "/usage", Op: admin.OpUsageList, Handle: listed(usageFilter, s.ListUsage)},
		{Method: get, Pattern: "/customers/{id}/usage", Op: admin.OpCustomerUsageList, Locate: cust, Handle: listed(customerUsageFilter, s.ListCustomerUsage)},
		{Method: get, Pattern: "/customers/{id}/usage/billed-totals", Op: admin.OpBilledTotals, Locate: cust, Handle: a.billedTotals},

		// The plan and meter catalog, an internal-infrastructure resource
		// (R4.6-infra): platform_admin and finance_admin write it,
		// compliance_admin and reader read it, nobody else. Its records
		// belong to no customer, so an {id} is decided on the role alone.
		{Method: get, Pattern: "/plans", Op: admin.OpPlanList, Handle: ofCaller(ok, s.ListPlans)},
		{Method: post, Pattern: "/plans", Op: admin.OpPlanCreate, Handle: withBody(created, s.CreatePlan)},
		{Method: get, Pattern: "/plans/{id}", Op: admin.OpPlanGet, Handle: byID(ok, s.Plan)},
		{Method: patch, Pattern: "/plans/{id}", Op: admin.OpPlanUpdate, Handle: byIDWithBody(ok, s.UpdatePlan)},
		{Method: del, Pattern: "/plans/{id}", Op: admin.OpPlanDelete, Handle: deleteByID(s.DeletePlan)},
		{Method: get, Pattern: "/meters", Op: admin.OpMeterList, Handle: ofCaller(ok, s.ListMeters)},
		{Method: post, Pattern: "/meters", Op: admin.OpMeterCreate, Handle: withBody(created, s.CreateMeter)},
		{Method: get, Pattern: "/meters/{id}", Op: admin.OpMeterGet, Handle: byID(ok, s.Meter)},
		{Method: patch, Pattern: "/meters/{id}", Op: admin.OpMeterUpdate, Handle: byIDWithBody(ok, s.UpdateMeter)},
		{Method: del, Pattern: "/meters/{id}", Op: admin.OpMeterDelete, Handle: deleteByID(s.DeleteMeter)},

		// Platform releases and environment variables, an
		// internal-infrastructure resource (R4.6-infra): platform_admin and
		// infra_ops write it, compliance_admin and reader read it.
		{Method: get, Pattern: "/releases", Op: admin.OpReleaseList, Handle: listed(limitParam, s.ListReleases)},
		{Method: post, Pattern: "/releases", Op: admin.OpReleaseCreate, Handle: withBody(created, s.CreateRelease)},
		{Method: get, Pattern: "/releases/{id}", Op: admin.OpReleaseGet, Handle: byID(ok, s.Release)},
		{Method: patch, Pattern: "/releases/{id}", Op: admin.OpReleaseUpdate, Handle: byIDWithBody(ok, s.UpdateRelease)},
		{Method: post, Pattern: "/releases/{id}/publish", Op: admin.OpReleasePublish, Handle: byID(ok, s.PublishRelease)},
		{Method: post, Pattern: "/releases/{id}/withdraw", Op: admin.OpReleaseWithdraw, Handle: byID(ok, s.WithdrawRelease)},
		{Method: get, Pattern: "/environment", Op: admin.OpEnvVarList, Handle: ofCaller(ok, s.ListEnvVars)},
		{Method: post, Pattern: "/environment", Op: admin.OpEnvVarCreate, Handle: withBody(created, s.CreateEnvVar)},
		{Method: get, Pattern: "/environment/{id}", Op: admin.OpEnvVarGet, Handle: byID(ok, s.EnvVar)},
		{Method: patch, Pattern: "/environment/{id}", Op: admin.OpEnvVarUpdate, Handle: byIDWithBody(ok, s.UpdateEnvVar)},
		{Method: del, Pattern: "/environment/{id}", Op: admin.OpEnvVarDelete, Handle: deleteByID(s.DeleteEnvVar)},

		// The platform's background workers and how their runs went, an
		// internal-infrastructure resource (R4.6-infra): platform_admin and
		// infra_ops run, pause and resume them, compliance_admin and reader
		// read.
		{Method: get, Pattern: "/system-workers", Op: admin.OpSystemWorkerList, Handle: ofCaller(ok, s.ListSystemWorkers)},
		{Method: get, Pattern: "/system-workers/{id}", Op: admin.OpSystemWorkerGet, Handle: byID(ok, s.SystemWorker)},
		{Method: post, Pattern: "/system-workers/{id}/run", Op: admin.OpSystemWorkerRun, Handle: byID(accepted, s.RunSystemWorker)},
		{Method: post, Pattern: "/system-workers/{id}/pause", Op: admin.OpSystemWorkerPause, Handle: a.pauseWorker(true)},
		{Method: post, Pattern: "/system-workers/{id}/resume", Op: admin.OpSystemWorkerResume, Handle: a.pauseWorker(false)},

		// Definitions of custom user attributes, an internal-infrastructure
		// resource (R4.6-infra) of platform_admin alone.
		{Method: get, Pattern: "/user-attributes", Op: admin.OpUserAttributeList, Handle: ofCaller(ok, s.ListUserAttributes)},
		{Method: post, Pattern: "/user-attributes", Op: admin.OpUserAttributeCreate, Handle: withBody(created, s.CreateUserAttribute)},
		{Method: get, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeGet, Handle: byID(ok, s.UserAttribute)},
		{Method: patch, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeUpdate, Handle: byIDWithBody(ok, s.UpdateUserAttribute)},
		{Method: del, Pattern: "/user-attributes/{id}", Op: admin.OpUserAttributeDelete, Handle: deleteByID(s.DeleteUserAttribute)},

		// The discrepancies inbox, an internal-infrastructure resource
		// (R4.6-infra): platform_admin and infra_ops report and resolve
		// items, compliance_admin and reader read them. An item may concern
		// a customer; focus mode then narrows the inbox to that customer's
		// items and the platform-wide ones.
		{Method: get, Pattern: "/discrepancies", Op: admin.OpDiscrepancyList, Handle: answer(ok, query("status"), limitParam, s.ListDiscrepancies)},
		{Method: post, Pattern: "/discrepancies", Op: admin.OpDiscrepancyReport, Handle: withBody(created, s.ReportDiscrepancy)},
		{Method: get, Pattern: "/discrepancies/{id}", Op: admin.OpDiscrepancyGet, Handle: byID(ok, s.Discrepancy)},
		{Method: post, Pattern: "/discrepancies/{id}/resolve", Op: admin.OpDiscrepancyResolve, Handle: byIDWithBody(ok, s.ResolveDiscrepancy)},
		{Method: post, Pattern: "/discrepancies/{id}/reopen", Op: admin.OpDiscrepancyReopen, Handle: byID(ok, s.ReopenDiscrepancy)},
	}
}
