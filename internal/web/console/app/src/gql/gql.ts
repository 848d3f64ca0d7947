/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation ImpersonateUser($id: ID!, $reason: String!) {\n    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn approval approverEmail }\n  }\n": typeof types.ImpersonateUserDocument,
    "\n  query ImpersonationState($id: ID!) { impersonation(id: $id) { id state approverEmail } }\n": typeof types.ImpersonationStateDocument,
    "\n  mutation CollectSubjectToken($id: ID!) { impersonationSubjectToken(id: $id) { id subjectToken subjectTokenType expiresIn } }\n": typeof types.CollectSubjectTokenDocument,
    "\n  mutation ApproveImpersonation($id: ID!) { approveImpersonation(id: $id) { id state approval decidedAt } }\n": typeof types.ApproveImpersonationDocument,
    "\n  mutation DenyImpersonation($id: ID!) { denyImpersonation(id: $id) { id state approval decidedAt endedAt } }\n": typeof types.DenyImpersonationDocument,
    "\n  query ImpersonationApprovers($customerId: ID!) { users(customerId: $customerId, first: 100) { items { id email role status } } }\n": typeof types.ImpersonationApproversDocument,
    "\n  query Impersonations($customerId: ID!, $first: Int, $after: String) {\n    impersonations(customerId: $customerId, first: $first, after: $after) {\n      items { id userEmail actorEmail reason state approverId approverEmail createdAt expiresAt endedAt }\n      nextCursor\n    }\n  }\n": typeof types.ImpersonationsDocument,
    "\n  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed approverId approvalRequired } }\n": typeof types.ImpersonationPolicyDocument,
    "\n  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!, $approverId: String) {\n    setImpersonationPolicy(customerId: $customerId, allowed: $allowed, approverId: $approverId) { allowed approverId approvalRequired }\n  }\n": typeof types.SetImpersonationPolicyDocument,
    "\n  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }\n": typeof types.EndImpersonationDocument,
    "\n  query Me {\n    me {\n      userId\n      email\n      name\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n": typeof types.OwnOrgDocument,
    "\n  query Overview { overview { customers tenants users pendingInvitations lockedUsers } }\n": typeof types.OverviewDocument,
    "\n  query RecentActivity {\n    auditLog(first: 5) { items { id time kind outcome action operation actor { email userId } target { type name id } } }\n  }\n": typeof types.RecentActivityDocument,
    "\n  query UserAttributes { userAttributes { id key label type options required } }\n": typeof types.UserAttributesDocument,
    "\n  mutation CreateUserAttribute($input: UserAttributeInput!) { createUserAttribute(input: $input) { id } }\n": typeof types.CreateUserAttributeDocument,
    "\n  mutation UpdateUserAttribute($id: ID!, $input: UserAttributePatch!) {\n    updateUserAttribute(id: $id, input: $input) { id label type options required }\n  }\n": typeof types.UpdateUserAttributeDocument,
    "mutation DeleteUserAttribute($id: ID!) { deleteUserAttribute(id: $id) }": typeof types.DeleteUserAttributeDocument,
    "\n  query AuditLog($actor: String, $actorId: ID, $kind: String, $outcome: String, $from: Time, $to: Time, $first: Int, $after: String) {\n    auditLog(actor: $actor, actorId: $actorId, kind: $kind, outcome: $outcome, from: $from, to: $to, first: $first, after: $after) {\n      items {\n        id time kind outcome reason sourceAddress userAgent action operation\n        actor { userId email role }\n        target { type id name }\n        details { method }\n      }\n      nextCursor\n    }\n    auditKinds\n  }\n": typeof types.AuditLogDocument,
    "\n  query CustomerBilling($id: ID!, $payments: Boolean!, $credits: Boolean!, $setup: Boolean!, $plans: Boolean!, $first: Int, $after: String) {\n    customer(id: $id) {\n      id\n      payments(first: $first, after: $after) @include(if: $payments) {\n        items { id invoiceId amount currency method status receivedAt }\n        nextCursor\n      }\n      credits(first: $first, after: $after) @include(if: $credits) {\n        items { id amount currency reason issuedAt }\n        nextCursor\n      }\n      billingSetup @include(if: $setup) {\n        planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n      }\n    }\n    plans @include(if: $plans) { id name currency active }\n  }\n": typeof types.CustomerBillingDocument,
    "\n  mutation IssueCredit($customerId: ID!, $input: CreditInput!) {\n    issueCredit(customerId: $customerId, input: $input) { id amount currency reason issuedAt }\n  }\n": typeof types.IssueCreditDocument,
    "\n  mutation PutBillingSetup($customerId: ID!, $input: BillingSetupInput!) {\n    putBillingSetup(customerId: $customerId, input: $input) {\n      customerId planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n    }\n  }\n": typeof types.PutBillingSetupDocument,
    "\n  query CustomerBranding($id: ID!) {\n    customer(id: $id) {\n      id\n      branding { displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt }\n    }\n  }\n": typeof types.CustomerBrandingDocument,
    "\n  mutation PutBranding($customerId: ID!, $input: BrandingInput!) {\n    putBranding(customerId: $customerId, input: $input) {\n      displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt\n    }\n  }\n": typeof types.PutBrandingDocument,
    "\n  mutation DeleteBrandingLogo($customerId: ID!) {\n    deleteBrandingLogo(customerId: $customerId) { logoUrl updatedAt }\n  }\n": typeof types.DeleteBrandingLogoDocument,
    "\n  query Catalog {\n    plans { id code name description currency monthlyFee active }\n    meters { id key name unit aggregation description }\n  }\n": typeof types.CatalogDocument,
    "mutation CreatePlan($input: PlanInput!) { createPlan(input: $input) { id } }": typeof types.CreatePlanDocument,
    "\n  mutation UpdatePlan($id: ID!, $input: PlanPatch!) { updatePlan(id: $id, input: $input) { id name description currency monthlyFee active } }\n": typeof types.UpdatePlanDocument,
    "mutation DeletePlan($id: ID!) { deletePlan(id: $id) }": typeof types.DeletePlanDocument,
    "mutation CreateMeter($input: MeterInput!) { createMeter(input: $input) { id } }": typeof types.CreateMeterDocument,
    "\n  mutation UpdateMeter($id: ID!, $input: MeterPatch!) { updateMeter(id: $id, input: $input) { id name unit aggregation description } }\n": typeof types.UpdateMeterDocument,
    "mutation DeleteMeter($id: ID!) { deleteMeter(id: $id) }": typeof types.DeleteMeterDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n": typeof types.CustomerDocument,
    "\n  mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) }\n": typeof types.DeleteCustomerDocument,
    "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n": typeof types.EnterFocusDocument,
    "\n  query Customers($first: Int, $after: String, $search: String) {\n    customers(first: $first, after: $after, search: $search) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n": typeof types.CustomersDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n": typeof types.CreateCustomerDocument,
    "\n  query Discrepancies($status: String) {\n    discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt resolvedAt resolution }\n  }\n": typeof types.DiscrepanciesDocument,
    "\n  mutation ResolveDiscrepancy($id: ID!, $resolution: String!) { resolveDiscrepancy(id: $id, resolution: $resolution) { id status resolvedAt resolution } }\n": typeof types.ResolveDiscrepancyDocument,
    "\n  mutation ReopenDiscrepancy($id: ID!) { reopenDiscrepancy(id: $id) { id status resolvedAt resolution } }\n": typeof types.ReopenDiscrepancyDocument,
    "\n  query CustomerDomains($id: ID!) {\n    customer(id: $id) {\n      id\n      claimedDomains { id domain displayName status method recordName recordValue wellKnownUrl verifiedAt checkedAt failingSince }\n    }\n  }\n": typeof types.CustomerDomainsDocument,
    "\n  mutation ClaimDomain($customerId: ID!, $domain: String!) {\n    claimDomain(customerId: $customerId, domain: $domain) { id domain status recordName recordValue }\n  }\n": typeof types.ClaimDomainDocument,
    "\n  mutation VerifyDomain($customerId: ID!, $id: ID!) {\n    verifyDomain(customerId: $customerId, id: $id) { id status method verifiedAt checkedAt failingSince }\n  }\n": typeof types.VerifyDomainDocument,
    "\n  mutation DeleteDomain($customerId: ID!, $id: ID!) { deleteDomain(customerId: $customerId, id: $id) }\n": typeof types.DeleteDomainDocument,
    "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) {\n      granteeType granteeId customerId instanceId grantedBy grantedAt\n      user { id email name role }\n      customer { id name }\n      instance { id name }\n    }\n  }\n": typeof types.GrantsDocument,
    "\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n": typeof types.CreateGrantDocument,
    "\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n": typeof types.DeleteGrantDocument,
    "\n  query GrantChoices {\n    internalUsers(first: 1000) { items { id email name role suspendedAt } }\n  }\n": typeof types.GrantChoicesDocument,
    "\n  query Groups($customerId: ID!, $first: Int, $after: String) {\n    groups(customerId: $customerId, first: $first, after: $after) { items { id name role } nextCursor }\n  }\n": typeof types.GroupsDocument,
    "\n  query InternalGroups($first: Int, $after: String) {\n    internalGroups(first: $first, after: $after) { items { id name role } nextCursor }\n  }\n": typeof types.InternalGroupsDocument,
    "\n  mutation CreateGroup($customerId: ID!, $input: GroupInput!) { createGroup(customerId: $customerId, input: $input) { id name role } }\n": typeof types.CreateGroupDocument,
    "\n  mutation CreateInternalGroup($input: GroupInput!) { createInternalGroup(input: $input) { id name role } }\n": typeof types.CreateInternalGroupDocument,
    "\n  query GroupPage($id: ID!, $first: Int) {\n    group(id: $id) { id name role customerId }\n    groupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    groupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n  }\n": typeof types.GroupPageDocument,
    "\n  query InternalGroupPage($id: ID!, $first: Int) {\n    internalGroup(id: $id) { id name role customerId }\n    internalGroupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupGrants(groupId: $id) { customerId instanceId }\n  }\n": typeof types.InternalGroupPageDocument,
    "mutation UpdateGroupRole($id: ID!, $input: UpdateGroupInput!) { updateGroup(id: $id, input: $input) { id role } }": typeof types.UpdateGroupRoleDocument,
    "mutation UpdateInternalGroupRole($id: ID!, $input: UpdateGroupInput!) { updateInternalGroup(id: $id, input: $input) { id role } }": typeof types.UpdateInternalGroupRoleDocument,
    "mutation AddGroupMember($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }": typeof types.AddGroupMemberDocument,
    "mutation RemoveGroupMember($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }": typeof types.RemoveGroupMemberDocument,
    "mutation AddGroupManager($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }": typeof types.AddGroupManagerDocument,
    "mutation RemoveGroupManager($g: ID!, $u: ID!) { removeGroupManager(groupId: $g, userId: $u) }": typeof types.RemoveGroupManagerDocument,
    "mutation AddInternalGroupMember($g: ID!, $u: ID!) { addInternalGroupMember(groupId: $g, userId: $u) { userId } }": typeof types.AddInternalGroupMemberDocument,
    "mutation RemoveInternalGroupMember($g: ID!, $u: ID!) { removeInternalGroupMember(groupId: $g, userId: $u) }": typeof types.RemoveInternalGroupMemberDocument,
    "mutation AddInternalGroupManager($g: ID!, $u: ID!) { addInternalGroupManager(groupId: $g, userId: $u) { userId } }": typeof types.AddInternalGroupManagerDocument,
    "mutation RemoveInternalGroupManager($g: ID!, $u: ID!) { removeInternalGroupManager(groupId: $g, userId: $u) }": typeof types.RemoveInternalGroupManagerDocument,
    "mutation CreateGroupGrant($g: ID!, $c: ID) { createGroupGrant(groupId: $g, customerId: $c) { customerId } }": typeof types.CreateGroupGrantDocument,
    "mutation DeleteGroupGrant($g: ID!, $c: ID) { deleteGroupGrant(groupId: $g, customerId: $c) }": typeof types.DeleteGroupGrantDocument,
    "\n  query Instance($id: ID!, $tenants: Boolean!) {\n    instance(id: $id) {\n      id name url createdAt\n      customer { id name }\n      connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop }\n      tenants @include(if: $tenants) { id name createdAt }\n    }\n  }\n": typeof types.InstanceDocument,
    "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) { id name url connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n  }\n": typeof types.UpdateInstanceDocument,
    "mutation DeleteInstance($id: ID!) { deleteInstance(id: $id) }": typeof types.DeleteInstanceDocument,
    "\n  mutation RepairConnection($id: ID!) { repairConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n": typeof types.RepairConnectionDocument,
    "\n  mutation RotateConnection($id: ID!) { rotateConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n": typeof types.RotateConnectionDocument,
    "\n  mutation RotateInstanceSecret($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }\n": typeof types.RotateInstanceSecretDocument,
    "mutation ResolveDatabaseUri($id: ID!) { resolveDatabaseUri(id: $id) }": typeof types.ResolveDatabaseUriDocument,
    "\n  query Instances($customerId: ID, $first: Int, $after: String, $search: String) {\n    instances(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n": typeof types.InstancesDocument,
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt clientSecret }\n  }\n": typeof types.CreateInstanceDocument,
    "\n  query InternalUsers($first: Int, $after: String, $search: String) {\n    internalUsers(first: $first, after: $after, search: $search) { items { id email name role status lockedUntil createdAt } nextCursor }\n  }\n": typeof types.InternalUsersDocument,
    "\n  mutation CreateInternalUser($input: CreateInternalUserInput!) { createInternalUser(input: $input) { id email role } }\n": typeof types.CreateInternalUserDocument,
    "\n  mutation UpdateInternalUserRole($id: ID!, $input: UpdateInternalUserInput!) { updateInternalUser(id: $id, input: $input) { id name role } }\n": typeof types.UpdateInternalUserRoleDocument,
    "mutation RemoveInternalUser($id: ID!) { removeInternalUser(id: $id) }": typeof types.RemoveInternalUserDocument,
    "\n  query MetadataClients($id: ID!) {\n    customer(id: $id) {\n      id\n      clientMetadata { enabled }\n      metadataClients { clientId name firstUsedAt lastFetchedAt blockedAt }\n    }\n  }\n": typeof types.MetadataClientsDocument,
    "\n  mutation SetClientMetadata($customerId: ID!, $enabled: Boolean!) {\n    setClientMetadata(customerId: $customerId, enabled: $enabled) { enabled }\n  }\n": typeof types.SetClientMetadataDocument,
    "\n  mutation BlockMetadataClient($customerId: ID!, $clientId: String!, $blocked: Boolean!) {\n    blockMetadataClient(customerId: $customerId, clientId: $clientId, blocked: $blocked) { clientId blockedAt }\n  }\n": typeof types.BlockMetadataClientDocument,
    "\n  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }\n": typeof types.WorkersDocument,
    "mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }": typeof types.RunWorkerDocument,
    "mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }": typeof types.PauseWorkerDocument,
    "mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }": typeof types.ResumeWorkerDocument,
    "\n  query EmailLog($recipient: String, $first: Int, $after: String) {\n    emailLog(recipient: $recipient, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }\n  }\n": typeof types.EmailLogDocument,
    "\n  query Invoices($customerId: ID, $status: String, $first: Int, $after: String) {\n    invoices(customerId: $customerId, status: $status, first: $first, after: $after) {\n      items { id customerId number period currency total status issuedAt dueAt }\n      nextCursor\n    }\n  }\n": typeof types.InvoicesDocument,
    "\n  query Registration($id: ID!) {\n    customer(id: $id) {\n      id\n      registeredClients { clientId name kind redirectUris registered createdAt }\n      registrationTokens { id name kinds redirectHosts maxUses uses createdAt expiresAt revokedAt }\n    }\n  }\n": typeof types.RegistrationDocument,
    "\n  mutation CreateRegistrationToken($customerId: ID!, $input: CreateRegistrationTokenInput!) {\n    createRegistrationToken(customerId: $customerId, input: $input) { token registrationToken { id name } }\n  }\n": typeof types.CreateRegistrationTokenDocument,
    "\n  mutation RevokeRegistrationToken($id: ID!) { revokeRegistrationToken(id: $id) }\n": typeof types.RevokeRegistrationTokenDocument,
    "\n  query Releases {\n    releases(first: 100) { id version channel notes status createdAt publishedAt }\n    environment { id name secret value description updatedAt }\n  }\n": typeof types.ReleasesDocument,
    "mutation CreateRelease($input: ReleaseInput!) { createRelease(input: $input) { id } }": typeof types.CreateReleaseDocument,
    "mutation PublishRelease($id: ID!) { publishRelease(id: $id) { id status publishedAt } }": typeof types.PublishReleaseDocument,
    "mutation WithdrawRelease($id: ID!) { withdrawRelease(id: $id) { id status } }": typeof types.WithdrawReleaseDocument,
    "mutation CreateEnvVar($input: EnvVarInput!) { createEnvVar(input: $input) { id } }": typeof types.CreateEnvVarDocument,
    "\n  mutation UpdateEnvVar($id: ID!, $input: EnvVarPatch!) { updateEnvVar(id: $id, input: $input) { id secret value description updatedAt } }\n": typeof types.UpdateEnvVarDocument,
    "mutation DeleteEnvVar($id: ID!) { deleteEnvVar(id: $id) }": typeof types.DeleteEnvVarDocument,
    "\n  query ScimTokens($id: ID!) {\n    customer(id: $id) { id scimTokens { id name createdAt lastUsedAt revokedAt } }\n  }\n": typeof types.ScimTokensDocument,
    "\n  mutation CreateScimToken($customerId: ID!, $name: String!) {\n    createScimToken(customerId: $customerId, name: $name) { token scimToken { id name } }\n  }\n": typeof types.CreateScimTokenDocument,
    "\n  mutation RevokeScimToken($id: ID!) { revokeScimToken(id: $id) }\n": typeof types.RevokeScimTokenDocument,
    "\n  query InternalScimTokens {\n    internalScimTokens { id name createdAt lastUsedAt revokedAt }\n  }\n": typeof types.InternalScimTokensDocument,
    "\n  mutation CreateInternalScimToken($name: String!) {\n    createInternalScimToken(name: $name) { token scimToken { id name } }\n  }\n": typeof types.CreateInternalScimTokenDocument,
    "\n  mutation RevokeInternalScimToken($id: ID!) { revokeInternalScimToken(id: $id) }\n": typeof types.RevokeInternalScimTokenDocument,
    "\n  query CustomerSecurityPolicy($id: ID!) {\n    customer(id: $id) {\n      id\n      securityPolicy { sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso }\n    }\n  }\n": typeof types.CustomerSecurityPolicyDocument,
    "\n  mutation PutSecurityPolicy($customerId: ID!, $input: SecurityPolicyInput!) {\n    putSecurityPolicy(customerId: $customerId, input: $input) {\n      sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso\n    }\n  }\n": typeof types.PutSecurityPolicyDocument,
    "\n  query CustomerConfig($id: ID!) {\n    customer(id: $id) {\n      id\n      settings\n      webhooks { id url description events active createdAt }\n      serviceAccounts { id name role clientId authMethod keyIds createdAt secretRotatedAt }\n    }\n  }\n": typeof types.CustomerConfigDocument,
    "\n  mutation PutCustomerSettings($id: ID!, $settings: JSON!) { putCustomerSettings(id: $id, settings: $settings) }\n": typeof types.PutCustomerSettingsDocument,
    "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n": typeof types.DeleteWebhookDocument,
    "\n  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {\n    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }\n  }\n": typeof types.CreateServiceAccountDocument,
    "\n  mutation RotateServiceAccountSecret($id: ID!) {\n    rotateServiceAccountSecret(id: $id) { clientSecret serviceAccount { id secretRotatedAt } }\n  }\n": typeof types.RotateServiceAccountSecretDocument,
    "\n  mutation SetServiceAccountKeys($id: ID!, $jwks: JSON!) { setServiceAccountKeys(id: $id, jwks: $jwks) { id authMethod keyIds } }\n": typeof types.SetServiceAccountKeysDocument,
    "\n  mutation SetServiceAccountRole($id: ID!, $role: String!) { setServiceAccountRole(id: $id, role: $role) { id role } }\n": typeof types.SetServiceAccountRoleDocument,
    "\n  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }\n": typeof types.DeleteServiceAccountDocument,
    "\n  query CustomerSignIn($id: ID!) {\n    customer(id: $id) {\n      id\n      sso { passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders }\n      identityProviders { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n    }\n  }\n": typeof types.CustomerSignInDocument,
    "\n  mutation PutSSOSettings($customerId: ID!, $input: SSOSettingsInput!) {\n    putSSOSettings(customerId: $customerId, input: $input) {\n      passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders\n    }\n  }\n": typeof types.PutSsoSettingsDocument,
    "\n  mutation CreateIdentityProvider($customerId: ID!, $input: IdentityProviderInput!) {\n    createIdentityProvider(customerId: $customerId, input: $input) { id name }\n  }\n": typeof types.CreateIdentityProviderDocument,
    "\n  mutation UpdateIdentityProvider($id: ID!, $input: IdentityProviderPatch!) {\n    updateIdentityProvider(id: $id, input: $input) { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n  }\n": typeof types.UpdateIdentityProviderDocument,
    "\n  mutation DeleteIdentityProvider($id: ID!) { deleteIdentityProvider(id: $id) }\n": typeof types.DeleteIdentityProviderDocument,
    "\n  query TenantDetail($id: ID!, $manage: Boolean!, $users: Boolean!, $migrations: Boolean!) {\n    tenant(id: $id) {\n      id\n      name\n      customerId\n      instanceId\n      createdAt\n      settings @include(if: $manage)\n      customer { id name users @include(if: $users) { id email name status } }\n      members @include(if: $manage) { userId email name role addedAt }\n      migrations @include(if: $migrations) { id targetVersion status requestedAt }\n    }\n  }\n": typeof types.TenantDetailDocument,
    "\n  mutation PutTenantSettings($id: ID!, $settings: JSON!) { putTenantSettings(id: $id, settings: $settings) }\n": typeof types.PutTenantSettingsDocument,
    "\n  mutation PutTenantMember($id: ID!, $userId: ID!, $role: String!) {\n    putTenantMember(id: $id, userId: $userId, role: $role) { userId role }\n  }\n": typeof types.PutTenantMemberDocument,
    "\n  mutation RemoveTenantMember($id: ID!, $userId: ID!) { removeTenantMember(id: $id, userId: $userId) }\n": typeof types.RemoveTenantMemberDocument,
    "\n  mutation TransferTenant($id: ID!, $input: TransferTenantInput!) {\n    transferTenant(id: $id, input: $input) { id customerId instanceId }\n  }\n": typeof types.TransferTenantDocument,
    "\n  mutation TriggerMigration($id: ID!, $targetVersion: String!) {\n    triggerMigration(id: $id, targetVersion: $targetVersion) { id targetVersion status requestedAt }\n  }\n": typeof types.TriggerMigrationDocument,
    "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String, $search: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after, search: $search) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n": typeof types.TenantsDocument,
    "\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n": typeof types.CreateTenantDocument,
    "\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n": typeof types.DeleteTenantDocument,
    "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency customer { id name } }\n      nextCursor\n    }\n  }\n": typeof types.UsageDocument,
    "\n  query SupportUser($id: ID!) {\n    user(id: $id) {\n      id email name role language status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt\n      customer { id name }\n    }\n  }\n": typeof types.SupportUserDocument,
    "\n  query SupportInternalUser($id: ID!) {\n    internalUser(id: $id) { id email name role status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt }\n  }\n": typeof types.SupportInternalUserDocument,
    "\n  query UserSessions($id: ID!, $first: Int, $after: String) {\n    userSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n": typeof types.UserSessionsDocument,
    "\n  query InternalUserSessions($id: ID!, $first: Int, $after: String) {\n    internalUserSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n": typeof types.InternalUserSessionsDocument,
    "\n  mutation UpdateUserLanguage($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id language } }\n": typeof types.UpdateUserLanguageDocument,
    "mutation UnlockUser($id: ID!) { unlockUser(id: $id) { id status lockedUntil failedSignIns } }": typeof types.UnlockUserDocument,
    "mutation UnlockInternalUser($id: ID!) { unlockInternalUser(id: $id) { id status lockedUntil failedSignIns } }": typeof types.UnlockInternalUserDocument,
    "mutation ResetSecondFactor($id: ID!) { resetSecondFactor(id: $id) { id authenticatorApp passkeys } }": typeof types.ResetSecondFactorDocument,
    "\n  mutation ResetInternalSecondFactor($id: ID!) { resetInternalSecondFactor(id: $id) { id authenticatorApp passkeys } }\n": typeof types.ResetInternalSecondFactorDocument,
    "mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id status } }": typeof types.ResendInvitationDocument,
    "mutation ResendInternalInvitation($id: ID!) { resendInternalInvitation(id: $id) { id status } }": typeof types.ResendInternalInvitationDocument,
    "mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) }": typeof types.RevokeInvitationDocument,
    "mutation RevokeInternalInvitation($id: ID!) { revokeInternalInvitation(id: $id) }": typeof types.RevokeInternalInvitationDocument,
    "mutation EndUserSession($id: ID!, $sessionId: ID!) { endUserSession(id: $id, sessionId: $sessionId) }": typeof types.EndUserSessionDocument,
    "\n  mutation EndInternalUserSession($id: ID!, $sessionId: ID!) { endInternalUserSession(id: $id, sessionId: $sessionId) }\n": typeof types.EndInternalUserSessionDocument,
    "mutation EndUserSessions($id: ID!) { endUserSessions(id: $id) }": typeof types.EndUserSessionsDocument,
    "mutation EndInternalUserSessions($id: ID!) { endInternalUserSessions(id: $id) }": typeof types.EndInternalUserSessionsDocument,
    "\n  query Users($customerId: ID, $first: Int, $after: String, $search: String) {\n    users(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id customerId email name role status suspendedAt lockedUntil createdAt }\n      nextCursor\n    }\n  }\n": typeof types.UsersDocument,
    "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status warning }\n  }\n": typeof types.InviteUserDocument,
    "\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n": typeof types.SuspendUserDocument,
    "\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n": typeof types.ReactivateUserDocument,
    "\n  mutation UpdateUserRole($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id role } }\n": typeof types.UpdateUserRoleDocument,
    "\n  mutation DeleteUser($id: ID!) { deleteUser(id: $id) }\n": typeof types.DeleteUserDocument,
    "\n  mutation TransferHomeOrg($id: ID!, $customerId: ID!) { transferHomeOrg(id: $id, customerId: $customerId) { id customerId } }\n": typeof types.TransferHomeOrgDocument,
    "\n  mutation TransferOwnership($id: ID!, $userId: ID!) { transferOwnership(id: $id, userId: $userId) { id role } }\n": typeof types.TransferOwnershipDocument,
    "\n  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {\n    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }\n  }\n": typeof types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) {\n    updateWebhook(id: $id, input: $input) { id url description events active updatedAt }\n  }\n": typeof types.UpdateWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id updatedAt } } }\n": typeof types.RotateWebhookSecretDocument,
    "\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    webhook(id: $id) {\n      id\n      url\n      deliveries(first: $first) { id eventType status attempts lastStatusCode lastError createdAt deliveredAt }\n    }\n  }\n": typeof types.WebhookDeliveriesDocument,
    "\n  query CustomerOptions($search: String, $selected: ID!, $withSelected: Boolean!) {\n    customers(first: 50, search: $search) { items { id name } }\n    selected: customer(id: $selected) @include(if: $withSelected) { id name }\n  }\n": typeof types.CustomerOptionsDocument,
    "\n  query InstanceOptions($customerId: ID, $search: String, $selected: ID!, $withSelected: Boolean!) {\n    instances(customerId: $customerId, first: 50, search: $search) { items { id name customer { name } } }\n    selected: instance(id: $selected) @include(if: $withSelected) { id name customer { name } }\n  }\n": typeof types.InstanceOptionsDocument,
    "\n  query Focus { focus { active customerId expiresAt } }\n": typeof types.FocusDocument,
    "\n  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }\n": typeof types.FocusCustomerDocument,
    "\n  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }\n": typeof types.LeaveFocusDocument,
};
const documents: Documents = {
    "\n  mutation ImpersonateUser($id: ID!, $reason: String!) {\n    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn approval approverEmail }\n  }\n": types.ImpersonateUserDocument,
    "\n  query ImpersonationState($id: ID!) { impersonation(id: $id) { id state approverEmail } }\n": types.ImpersonationStateDocument,
    "\n  mutation CollectSubjectToken($id: ID!) { impersonationSubjectToken(id: $id) { id subjectToken subjectTokenType expiresIn } }\n": types.CollectSubjectTokenDocument,
    "\n  mutation ApproveImpersonation($id: ID!) { approveImpersonation(id: $id) { id state approval decidedAt } }\n": types.ApproveImpersonationDocument,
    "\n  mutation DenyImpersonation($id: ID!) { denyImpersonation(id: $id) { id state approval decidedAt endedAt } }\n": types.DenyImpersonationDocument,
    "\n  query ImpersonationApprovers($customerId: ID!) { users(customerId: $customerId, first: 100) { items { id email role status } } }\n": types.ImpersonationApproversDocument,
    "\n  query Impersonations($customerId: ID!, $first: Int, $after: String) {\n    impersonations(customerId: $customerId, first: $first, after: $after) {\n      items { id userEmail actorEmail reason state approverId approverEmail createdAt expiresAt endedAt }\n      nextCursor\n    }\n  }\n": types.ImpersonationsDocument,
    "\n  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed approverId approvalRequired } }\n": types.ImpersonationPolicyDocument,
    "\n  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!, $approverId: String) {\n    setImpersonationPolicy(customerId: $customerId, allowed: $allowed, approverId: $approverId) { allowed approverId approvalRequired }\n  }\n": types.SetImpersonationPolicyDocument,
    "\n  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }\n": types.EndImpersonationDocument,
    "\n  query Me {\n    me {\n      userId\n      email\n      name\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n": types.MeDocument,
    "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n": types.OwnOrgDocument,
    "\n  query Overview { overview { customers tenants users pendingInvitations lockedUsers } }\n": types.OverviewDocument,
    "\n  query RecentActivity {\n    auditLog(first: 5) { items { id time kind outcome action operation actor { email userId } target { type name id } } }\n  }\n": types.RecentActivityDocument,
    "\n  query UserAttributes { userAttributes { id key label type options required } }\n": types.UserAttributesDocument,
    "\n  mutation CreateUserAttribute($input: UserAttributeInput!) { createUserAttribute(input: $input) { id } }\n": types.CreateUserAttributeDocument,
    "\n  mutation UpdateUserAttribute($id: ID!, $input: UserAttributePatch!) {\n    updateUserAttribute(id: $id, input: $input) { id label type options required }\n  }\n": types.UpdateUserAttributeDocument,
    "mutation DeleteUserAttribute($id: ID!) { deleteUserAttribute(id: $id) }": types.DeleteUserAttributeDocument,
    "\n  query AuditLog($actor: String, $actorId: ID, $kind: String, $outcome: String, $from: Time, $to: Time, $first: Int, $after: String) {\n    auditLog(actor: $actor, actorId: $actorId, kind: $kind, outcome: $outcome, from: $from, to: $to, first: $first, after: $after) {\n      items {\n        id time kind outcome reason sourceAddress userAgent action operation\n        actor { userId email role }\n        target { type id name }\n        details { method }\n      }\n      nextCursor\n    }\n    auditKinds\n  }\n": types.AuditLogDocument,
    "\n  query CustomerBilling($id: ID!, $payments: Boolean!, $credits: Boolean!, $setup: Boolean!, $plans: Boolean!, $first: Int, $after: String) {\n    customer(id: $id) {\n      id\n      payments(first: $first, after: $after) @include(if: $payments) {\n        items { id invoiceId amount currency method status receivedAt }\n        nextCursor\n      }\n      credits(first: $first, after: $after) @include(if: $credits) {\n        items { id amount currency reason issuedAt }\n        nextCursor\n      }\n      billingSetup @include(if: $setup) {\n        planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n      }\n    }\n    plans @include(if: $plans) { id name currency active }\n  }\n": types.CustomerBillingDocument,
    "\n  mutation IssueCredit($customerId: ID!, $input: CreditInput!) {\n    issueCredit(customerId: $customerId, input: $input) { id amount currency reason issuedAt }\n  }\n": types.IssueCreditDocument,
    "\n  mutation PutBillingSetup($customerId: ID!, $input: BillingSetupInput!) {\n    putBillingSetup(customerId: $customerId, input: $input) {\n      customerId planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n    }\n  }\n": types.PutBillingSetupDocument,
    "\n  query CustomerBranding($id: ID!) {\n    customer(id: $id) {\n      id\n      branding { displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt }\n    }\n  }\n": types.CustomerBrandingDocument,
    "\n  mutation PutBranding($customerId: ID!, $input: BrandingInput!) {\n    putBranding(customerId: $customerId, input: $input) {\n      displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt\n    }\n  }\n": types.PutBrandingDocument,
    "\n  mutation DeleteBrandingLogo($customerId: ID!) {\n    deleteBrandingLogo(customerId: $customerId) { logoUrl updatedAt }\n  }\n": types.DeleteBrandingLogoDocument,
    "\n  query Catalog {\n    plans { id code name description currency monthlyFee active }\n    meters { id key name unit aggregation description }\n  }\n": types.CatalogDocument,
    "mutation CreatePlan($input: PlanInput!) { createPlan(input: $input) { id } }": types.CreatePlanDocument,
    "\n  mutation UpdatePlan($id: ID!, $input: PlanPatch!) { updatePlan(id: $id, input: $input) { id name description currency monthlyFee active } }\n": types.UpdatePlanDocument,
    "mutation DeletePlan($id: ID!) { deletePlan(id: $id) }": types.DeletePlanDocument,
    "mutation CreateMeter($input: MeterInput!) { createMeter(input: $input) { id } }": types.CreateMeterDocument,
    "\n  mutation UpdateMeter($id: ID!, $input: MeterPatch!) { updateMeter(id: $id, input: $input) { id name unit aggregation description } }\n": types.UpdateMeterDocument,
    "mutation DeleteMeter($id: ID!) { deleteMeter(id: $id) }": types.DeleteMeterDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n": types.CustomerDocument,
    "\n  mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) }\n": types.DeleteCustomerDocument,
    "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n": types.EnterFocusDocument,
    "\n  query Customers($first: Int, $after: String, $search: String) {\n    customers(first: $first, after: $after, search: $search) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n": types.CustomersDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n": types.CreateCustomerDocument,
    "\n  query Discrepancies($status: String) {\n    discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt resolvedAt resolution }\n  }\n": types.DiscrepanciesDocument,
    "\n  mutation ResolveDiscrepancy($id: ID!, $resolution: String!) { resolveDiscrepancy(id: $id, resolution: $resolution) { id status resolvedAt resolution } }\n": types.ResolveDiscrepancyDocument,
    "\n  mutation ReopenDiscrepancy($id: ID!) { reopenDiscrepancy(id: $id) { id status resolvedAt resolution } }\n": types.ReopenDiscrepancyDocument,
    "\n  query CustomerDomains($id: ID!) {\n    customer(id: $id) {\n      id\n      claimedDomains { id domain displayName status method recordName recordValue wellKnownUrl verifiedAt checkedAt failingSince }\n    }\n  }\n": types.CustomerDomainsDocument,
    "\n  mutation ClaimDomain($customerId: ID!, $domain: String!) {\n    claimDomain(customerId: $customerId, domain: $domain) { id domain status recordName recordValue }\n  }\n": types.ClaimDomainDocument,
    "\n  mutation VerifyDomain($customerId: ID!, $id: ID!) {\n    verifyDomain(customerId: $customerId, id: $id) { id status method verifiedAt checkedAt failingSince }\n  }\n": types.VerifyDomainDocument,
    "\n  mutation DeleteDomain($customerId: ID!, $id: ID!) { deleteDomain(customerId: $customerId, id: $id) }\n": types.DeleteDomainDocument,
    "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) {\n      granteeType granteeId customerId instanceId grantedBy grantedAt\n      user { id email name role }\n      customer { id name }\n      instance { id name }\n    }\n  }\n": types.GrantsDocument,
    "\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n": types.CreateGrantDocument,
    "\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n": types.DeleteGrantDocument,
    "\n  query GrantChoices {\n    internalUsers(first: 1000) { items { id email name role suspendedAt } }\n  }\n": types.GrantChoicesDocument,
    "\n  query Groups($customerId: ID!, $first: Int, $after: String) {\n    groups(customerId: $customerId, first: $first, after: $after) { items { id name role } nextCursor }\n  }\n": types.GroupsDocument,
    "\n  query InternalGroups($first: Int, $after: String) {\n    internalGroups(first: $first, after: $after) { items { id name role } nextCursor }\n  }\n": types.InternalGroupsDocument,
    "\n  mutation CreateGroup($customerId: ID!, $input: GroupInput!) { createGroup(customerId: $customerId, input: $input) { id name role } }\n": types.CreateGroupDocument,
    "\n  mutation CreateInternalGroup($input: GroupInput!) { createInternalGroup(input: $input) { id name role } }\n": types.CreateInternalGroupDocument,
    "\n  query GroupPage($id: ID!, $first: Int) {\n    group(id: $id) { id name role customerId }\n    groupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    groupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n  }\n": types.GroupPageDocument,
    "\n  query InternalGroupPage($id: ID!, $first: Int) {\n    internalGroup(id: $id) { id name role customerId }\n    internalGroupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupGrants(groupId: $id) { customerId instanceId }\n  }\n": types.InternalGroupPageDocument,
    "mutation UpdateGroupRole($id: ID!, $input: UpdateGroupInput!) { updateGroup(id: $id, input: $input) { id role } }": types.UpdateGroupRoleDocument,
    "mutation UpdateInternalGroupRole($id: ID!, $input: UpdateGroupInput!) { updateInternalGroup(id: $id, input: $input) { id role } }": types.UpdateInternalGroupRoleDocument,
    "mutation AddGroupMember($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }": types.AddGroupMemberDocument,
    "mutation RemoveGroupMember($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }": types.RemoveGroupMemberDocument,
    "mutation AddGroupManager($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }": types.AddGroupManagerDocument,
    "mutation RemoveGroupManager($g: ID!, $u: ID!) { removeGroupManager(groupId: $g, userId: $u) }": types.RemoveGroupManagerDocument,
    "mutation AddInternalGroupMember($g: ID!, $u: ID!) { addInternalGroupMember(groupId: $g, userId: $u) { userId } }": types.AddInternalGroupMemberDocument,
    "mutation RemoveInternalGroupMember($g: ID!, $u: ID!) { removeInternalGroupMember(groupId: $g, userId: $u) }": types.RemoveInternalGroupMemberDocument,
    "mutation AddInternalGroupManager($g: ID!, $u: ID!) { addInternalGroupManager(groupId: $g, userId: $u) { userId } }": types.AddInternalGroupManagerDocument,
    "mutation RemoveInternalGroupManager($g: ID!, $u: ID!) { removeInternalGroupManager(groupId: $g, userId: $u) }": types.RemoveInternalGroupManagerDocument,
    "mutation CreateGroupGrant($g: ID!, $c: ID) { createGroupGrant(groupId: $g, customerId: $c) { customerId } }": types.CreateGroupGrantDocument,
    "mutation DeleteGroupGrant($g: ID!, $c: ID) { deleteGroupGrant(groupId: $g, customerId: $c) }": types.DeleteGroupGrantDocument,
    "\n  query Instance($id: ID!, $tenants: Boolean!) {\n    instance(id: $id) {\n      id name url createdAt\n      customer { id name }\n      connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop }\n      tenants @include(if: $tenants) { id name createdAt }\n    }\n  }\n": types.InstanceDocument,
    "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) { id name url connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n  }\n": types.UpdateInstanceDocument,
    "mutation DeleteInstance($id: ID!) { deleteInstance(id: $id) }": types.DeleteInstanceDocument,
    "\n  mutation RepairConnection($id: ID!) { repairConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n": types.RepairConnectionDocument,
    "\n  mutation RotateConnection($id: ID!) { rotateConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n": types.RotateConnectionDocument,
    "\n  mutation RotateInstanceSecret($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }\n": types.RotateInstanceSecretDocument,
    "mutation ResolveDatabaseUri($id: ID!) { resolveDatabaseUri(id: $id) }": types.ResolveDatabaseUriDocument,
    "\n  query Instances($customerId: ID, $first: Int, $after: String, $search: String) {\n    instances(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n": types.InstancesDocument,
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt clientSecret }\n  }\n": types.CreateInstanceDocument,
    "\n  query InternalUsers($first: Int, $after: String, $search: String) {\n    internalUsers(first: $first, after: $after, search: $search) { items { id email name role status lockedUntil createdAt } nextCursor }\n  }\n": types.InternalUsersDocument,
    "\n  mutation CreateInternalUser($input: CreateInternalUserInput!) { createInternalUser(input: $input) { id email role } }\n": types.CreateInternalUserDocument,
    "\n  mutation UpdateInternalUserRole($id: ID!, $input: UpdateInternalUserInput!) { updateInternalUser(id: $id, input: $input) { id name role } }\n": types.UpdateInternalUserRoleDocument,
    "mutation RemoveInternalUser($id: ID!) { removeInternalUser(id: $id) }": types.RemoveInternalUserDocument,
    "\n  query MetadataClients($id: ID!) {\n    customer(id: $id) {\n      id\n      clientMetadata { enabled }\n      metadataClients { clientId name firstUsedAt lastFetchedAt blockedAt }\n    }\n  }\n": types.MetadataClientsDocument,
    "\n  mutation SetClientMetadata($customerId: ID!, $enabled: Boolean!) {\n    setClientMetadata(customerId: $customerId, enabled: $enabled) { enabled }\n  }\n": types.SetClientMetadataDocument,
    "\n  mutation BlockMetadataClient($customerId: ID!, $clientId: String!, $blocked: Boolean!) {\n    blockMetadataClient(customerId: $customerId, clientId: $clientId, blocked: $blocked) { clientId blockedAt }\n  }\n": types.BlockMetadataClientDocument,
    "\n  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }\n": types.WorkersDocument,
    "mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }": types.RunWorkerDocument,
    "mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }": types.PauseWorkerDocument,
    "mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }": types.ResumeWorkerDocument,
    "\n  query EmailLog($recipient: String, $first: Int, $after: String) {\n    emailLog(recipient: $recipient, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }\n  }\n": types.EmailLogDocument,
    "\n  query Invoices($customerId: ID, $status: String, $first: Int, $after: String) {\n    invoices(customerId: $customerId, status: $status, first: $first, after: $after) {\n      items { id customerId number period currency total status issuedAt dueAt }\n      nextCursor\n    }\n  }\n": types.InvoicesDocument,
    "\n  query Registration($id: ID!) {\n    customer(id: $id) {\n      id\n      registeredClients { clientId name kind redirectUris registered createdAt }\n      registrationTokens { id name kinds redirectHosts maxUses uses createdAt expiresAt revokedAt }\n    }\n  }\n": types.RegistrationDocument,
    "\n  mutation CreateRegistrationToken($customerId: ID!, $input: CreateRegistrationTokenInput!) {\n    createRegistrationToken(customerId: $customerId, input: $input) { token registrationToken { id name } }\n  }\n": types.CreateRegistrationTokenDocument,
    "\n  mutation RevokeRegistrationToken($id: ID!) { revokeRegistrationToken(id: $id) }\n": types.RevokeRegistrationTokenDocument,
    "\n  query Releases {\n    releases(first: 100) { id version channel notes status createdAt publishedAt }\n    environment { id name secret value description updatedAt }\n  }\n": types.ReleasesDocument,
    "mutation CreateRelease($input: ReleaseInput!) { createRelease(input: $input) { id } }": types.CreateReleaseDocument,
    "mutation PublishRelease($id: ID!) { publishRelease(id: $id) { id status publishedAt } }": types.PublishReleaseDocument,
    "mutation WithdrawRelease($id: ID!) { withdrawRelease(id: $id) { id status } }": types.WithdrawReleaseDocument,
    "mutation CreateEnvVar($input: EnvVarInput!) { createEnvVar(input: $input) { id } }": types.CreateEnvVarDocument,
    "\n  mutation UpdateEnvVar($id: ID!, $input: EnvVarPatch!) { updateEnvVar(id: $id, input: $input) { id secret value description updatedAt } }\n": types.UpdateEnvVarDocument,
    "mutation DeleteEnvVar($id: ID!) { deleteEnvVar(id: $id) }": types.DeleteEnvVarDocument,
    "\n  query ScimTokens($id: ID!) {\n    customer(id: $id) { id scimTokens { id name createdAt lastUsedAt revokedAt } }\n  }\n": types.ScimTokensDocument,
    "\n  mutation CreateScimToken($customerId: ID!, $name: String!) {\n    createScimToken(customerId: $customerId, name: $name) { token scimToken { id name } }\n  }\n": types.CreateScimTokenDocument,
    "\n  mutation RevokeScimToken($id: ID!) { revokeScimToken(id: $id) }\n": types.RevokeScimTokenDocument,
    "\n  query InternalScimTokens {\n    internalScimTokens { id name createdAt lastUsedAt revokedAt }\n  }\n": types.InternalScimTokensDocument,
    "\n  mutation CreateInternalScimToken($name: String!) {\n    createInternalScimToken(name: $name) { token scimToken { id name } }\n  }\n": types.CreateInternalScimTokenDocument,
    "\n  mutation RevokeInternalScimToken($id: ID!) { revokeInternalScimToken(id: $id) }\n": types.RevokeInternalScimTokenDocument,
    "\n  query CustomerSecurityPolicy($id: ID!) {\n    customer(id: $id) {\n      id\n      securityPolicy { sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso }\n    }\n  }\n": types.CustomerSecurityPolicyDocument,
    "\n  mutation PutSecurityPolicy($customerId: ID!, $input: SecurityPolicyInput!) {\n    putSecurityPolicy(customerId: $customerId, input: $input) {\n      sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso\n    }\n  }\n": types.PutSecurityPolicyDocument,
    "\n  query CustomerConfig($id: ID!) {\n    customer(id: $id) {\n      id\n      settings\n      webhooks { id url description events active createdAt }\n      serviceAccounts { id name role clientId authMethod keyIds createdAt secretRotatedAt }\n    }\n  }\n": types.CustomerConfigDocument,
    "\n  mutation PutCustomerSettings($id: ID!, $settings: JSON!) { putCustomerSettings(id: $id, settings: $settings) }\n": types.PutCustomerSettingsDocument,
    "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n": types.DeleteWebhookDocument,
    "\n  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {\n    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }\n  }\n": types.CreateServiceAccountDocument,
    "\n  mutation RotateServiceAccountSecret($id: ID!) {\n    rotateServiceAccountSecret(id: $id) { clientSecret serviceAccount { id secretRotatedAt } }\n  }\n": types.RotateServiceAccountSecretDocument,
    "\n  mutation SetServiceAccountKeys($id: ID!, $jwks: JSON!) { setServiceAccountKeys(id: $id, jwks: $jwks) { id authMethod keyIds } }\n": types.SetServiceAccountKeysDocument,
    "\n  mutation SetServiceAccountRole($id: ID!, $role: String!) { setServiceAccountRole(id: $id, role: $role) { id role } }\n": types.SetServiceAccountRoleDocument,
    "\n  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }\n": types.DeleteServiceAccountDocument,
    "\n  query CustomerSignIn($id: ID!) {\n    customer(id: $id) {\n      id\n      sso { passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders }\n      identityProviders { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n    }\n  }\n": types.CustomerSignInDocument,
    "\n  mutation PutSSOSettings($customerId: ID!, $input: SSOSettingsInput!) {\n    putSSOSettings(customerId: $customerId, input: $input) {\n      passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders\n    }\n  }\n": types.PutSsoSettingsDocument,
    "\n  mutation CreateIdentityProvider($customerId: ID!, $input: IdentityProviderInput!) {\n    createIdentityProvider(customerId: $customerId, input: $input) { id name }\n  }\n": types.CreateIdentityProviderDocument,
    "\n  mutation UpdateIdentityProvider($id: ID!, $input: IdentityProviderPatch!) {\n    updateIdentityProvider(id: $id, input: $input) { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n  }\n": types.UpdateIdentityProviderDocument,
    "\n  mutation DeleteIdentityProvider($id: ID!) { deleteIdentityProvider(id: $id) }\n": types.DeleteIdentityProviderDocument,
    "\n  query TenantDetail($id: ID!, $manage: Boolean!, $users: Boolean!, $migrations: Boolean!) {\n    tenant(id: $id) {\n      id\n      name\n      customerId\n      instanceId\n      createdAt\n      settings @include(if: $manage)\n      customer { id name users @include(if: $users) { id email name status } }\n      members @include(if: $manage) { userId email name role addedAt }\n      migrations @include(if: $migrations) { id targetVersion status requestedAt }\n    }\n  }\n": types.TenantDetailDocument,
    "\n  mutation PutTenantSettings($id: ID!, $settings: JSON!) { putTenantSettings(id: $id, settings: $settings) }\n": types.PutTenantSettingsDocument,
    "\n  mutation PutTenantMember($id: ID!, $userId: ID!, $role: String!) {\n    putTenantMember(id: $id, userId: $userId, role: $role) { userId role }\n  }\n": types.PutTenantMemberDocument,
    "\n  mutation RemoveTenantMember($id: ID!, $userId: ID!) { removeTenantMember(id: $id, userId: $userId) }\n": types.RemoveTenantMemberDocument,
    "\n  mutation TransferTenant($id: ID!, $input: TransferTenantInput!) {\n    transferTenant(id: $id, input: $input) { id customerId instanceId }\n  }\n": types.TransferTenantDocument,
    "\n  mutation TriggerMigration($id: ID!, $targetVersion: String!) {\n    triggerMigration(id: $id, targetVersion: $targetVersion) { id targetVersion status requestedAt }\n  }\n": types.TriggerMigrationDocument,
    "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String, $search: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after, search: $search) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n": types.TenantsDocument,
    "\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n": types.CreateTenantDocument,
    "\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n": types.DeleteTenantDocument,
    "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency customer { id name } }\n      nextCursor\n    }\n  }\n": types.UsageDocument,
    "\n  query SupportUser($id: ID!) {\n    user(id: $id) {\n      id email name role language status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt\n      customer { id name }\n    }\n  }\n": types.SupportUserDocument,
    "\n  query SupportInternalUser($id: ID!) {\n    internalUser(id: $id) { id email name role status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt }\n  }\n": types.SupportInternalUserDocument,
    "\n  query UserSessions($id: ID!, $first: Int, $after: String) {\n    userSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n": types.UserSessionsDocument,
    "\n  query InternalUserSessions($id: ID!, $first: Int, $after: String) {\n    internalUserSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n": types.InternalUserSessionsDocument,
    "\n  mutation UpdateUserLanguage($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id language } }\n": types.UpdateUserLanguageDocument,
    "mutation UnlockUser($id: ID!) { unlockUser(id: $id) { id status lockedUntil failedSignIns } }": types.UnlockUserDocument,
    "mutation UnlockInternalUser($id: ID!) { unlockInternalUser(id: $id) { id status lockedUntil failedSignIns } }": types.UnlockInternalUserDocument,
    "mutation ResetSecondFactor($id: ID!) { resetSecondFactor(id: $id) { id authenticatorApp passkeys } }": types.ResetSecondFactorDocument,
    "\n  mutation ResetInternalSecondFactor($id: ID!) { resetInternalSecondFactor(id: $id) { id authenticatorApp passkeys } }\n": types.ResetInternalSecondFactorDocument,
    "mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id status } }": types.ResendInvitationDocument,
    "mutation ResendInternalInvitation($id: ID!) { resendInternalInvitation(id: $id) { id status } }": types.ResendInternalInvitationDocument,
    "mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) }": types.RevokeInvitationDocument,
    "mutation RevokeInternalInvitation($id: ID!) { revokeInternalInvitation(id: $id) }": types.RevokeInternalInvitationDocument,
    "mutation EndUserSession($id: ID!, $sessionId: ID!) { endUserSession(id: $id, sessionId: $sessionId) }": types.EndUserSessionDocument,
    "\n  mutation EndInternalUserSession($id: ID!, $sessionId: ID!) { endInternalUserSession(id: $id, sessionId: $sessionId) }\n": types.EndInternalUserSessionDocument,
    "mutation EndUserSessions($id: ID!) { endUserSessions(id: $id) }": types.EndUserSessionsDocument,
    "mutation EndInternalUserSessions($id: ID!) { endInternalUserSessions(id: $id) }": types.EndInternalUserSessionsDocument,
    "\n  query Users($customerId: ID, $first: Int, $after: String, $search: String) {\n    users(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id customerId email name role status suspendedAt lockedUntil createdAt }\n      nextCursor\n    }\n  }\n": types.UsersDocument,
    "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status warning }\n  }\n": types.InviteUserDocument,
    "\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n": types.SuspendUserDocument,
    "\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n": types.ReactivateUserDocument,
    "\n  mutation UpdateUserRole($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id role } }\n": types.UpdateUserRoleDocument,
    "\n  mutation DeleteUser($id: ID!) { deleteUser(id: $id) }\n": types.DeleteUserDocument,
    "\n  mutation TransferHomeOrg($id: ID!, $customerId: ID!) { transferHomeOrg(id: $id, customerId: $customerId) { id customerId } }\n": types.TransferHomeOrgDocument,
    "\n  mutation TransferOwnership($id: ID!, $userId: ID!) { transferOwnership(id: $id, userId: $userId) { id role } }\n": types.TransferOwnershipDocument,
    "\n  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {\n    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }\n  }\n": types.CreateWebhookDocument,
    "\n  mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) {\n    updateWebhook(id: $id, input: $input) { id url description events active updatedAt }\n  }\n": types.UpdateWebhookDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id updatedAt } } }\n": types.RotateWebhookSecretDocument,
    "\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    webhook(id: $id) {\n      id\n      url\n      deliveries(first: $first) { id eventType status attempts lastStatusCode lastError createdAt deliveredAt }\n    }\n  }\n": types.WebhookDeliveriesDocument,
    "\n  query CustomerOptions($search: String, $selected: ID!, $withSelected: Boolean!) {\n    customers(first: 50, search: $search) { items { id name } }\n    selected: customer(id: $selected) @include(if: $withSelected) { id name }\n  }\n": types.CustomerOptionsDocument,
    "\n  query InstanceOptions($customerId: ID, $search: String, $selected: ID!, $withSelected: Boolean!) {\n    instances(customerId: $customerId, first: 50, search: $search) { items { id name customer { name } } }\n    selected: instance(id: $selected) @include(if: $withSelected) { id name customer { name } }\n  }\n": types.InstanceOptionsDocument,
    "\n  query Focus { focus { active customerId expiresAt } }\n": types.FocusDocument,
    "\n  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }\n": types.FocusCustomerDocument,
    "\n  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }\n": types.LeaveFocusDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ImpersonateUser($id: ID!, $reason: String!) {\n    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn approval approverEmail }\n  }\n"): (typeof documents)["\n  mutation ImpersonateUser($id: ID!, $reason: String!) {\n    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn approval approverEmail }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ImpersonationState($id: ID!) { impersonation(id: $id) { id state approverEmail } }\n"): (typeof documents)["\n  query ImpersonationState($id: ID!) { impersonation(id: $id) { id state approverEmail } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CollectSubjectToken($id: ID!) { impersonationSubjectToken(id: $id) { id subjectToken subjectTokenType expiresIn } }\n"): (typeof documents)["\n  mutation CollectSubjectToken($id: ID!) { impersonationSubjectToken(id: $id) { id subjectToken subjectTokenType expiresIn } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ApproveImpersonation($id: ID!) { approveImpersonation(id: $id) { id state approval decidedAt } }\n"): (typeof documents)["\n  mutation ApproveImpersonation($id: ID!) { approveImpersonation(id: $id) { id state approval decidedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DenyImpersonation($id: ID!) { denyImpersonation(id: $id) { id state approval decidedAt endedAt } }\n"): (typeof documents)["\n  mutation DenyImpersonation($id: ID!) { denyImpersonation(id: $id) { id state approval decidedAt endedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ImpersonationApprovers($customerId: ID!) { users(customerId: $customerId, first: 100) { items { id email role status } } }\n"): (typeof documents)["\n  query ImpersonationApprovers($customerId: ID!) { users(customerId: $customerId, first: 100) { items { id email role status } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Impersonations($customerId: ID!, $first: Int, $after: String) {\n    impersonations(customerId: $customerId, first: $first, after: $after) {\n      items { id userEmail actorEmail reason state approverId approverEmail createdAt expiresAt endedAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Impersonations($customerId: ID!, $first: Int, $after: String) {\n    impersonations(customerId: $customerId, first: $first, after: $after) {\n      items { id userEmail actorEmail reason state approverId approverEmail createdAt expiresAt endedAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed approverId approvalRequired } }\n"): (typeof documents)["\n  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed approverId approvalRequired } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!, $approverId: String) {\n    setImpersonationPolicy(customerId: $customerId, allowed: $allowed, approverId: $approverId) { allowed approverId approvalRequired }\n  }\n"): (typeof documents)["\n  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!, $approverId: String) {\n    setImpersonationPolicy(customerId: $customerId, allowed: $allowed, approverId: $approverId) { allowed approverId approvalRequired }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }\n"): (typeof documents)["\n  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      userId\n      email\n      name\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      userId\n      email\n      name\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n"): (typeof documents)["\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Overview { overview { customers tenants users pendingInvitations lockedUsers } }\n"): (typeof documents)["\n  query Overview { overview { customers tenants users pendingInvitations lockedUsers } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecentActivity {\n    auditLog(first: 5) { items { id time kind outcome action operation actor { email userId } target { type name id } } }\n  }\n"): (typeof documents)["\n  query RecentActivity {\n    auditLog(first: 5) { items { id time kind outcome action operation actor { email userId } target { type name id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserAttributes { userAttributes { id key label type options required } }\n"): (typeof documents)["\n  query UserAttributes { userAttributes { id key label type options required } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateUserAttribute($input: UserAttributeInput!) { createUserAttribute(input: $input) { id } }\n"): (typeof documents)["\n  mutation CreateUserAttribute($input: UserAttributeInput!) { createUserAttribute(input: $input) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateUserAttribute($id: ID!, $input: UserAttributePatch!) {\n    updateUserAttribute(id: $id, input: $input) { id label type options required }\n  }\n"): (typeof documents)["\n  mutation UpdateUserAttribute($id: ID!, $input: UserAttributePatch!) {\n    updateUserAttribute(id: $id, input: $input) { id label type options required }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteUserAttribute($id: ID!) { deleteUserAttribute(id: $id) }"): (typeof documents)["mutation DeleteUserAttribute($id: ID!) { deleteUserAttribute(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($actor: String, $actorId: ID, $kind: String, $outcome: String, $from: Time, $to: Time, $first: Int, $after: String) {\n    auditLog(actor: $actor, actorId: $actorId, kind: $kind, outcome: $outcome, from: $from, to: $to, first: $first, after: $after) {\n      items {\n        id time kind outcome reason sourceAddress userAgent action operation\n        actor { userId email role }\n        target { type id name }\n        details { method }\n      }\n      nextCursor\n    }\n    auditKinds\n  }\n"): (typeof documents)["\n  query AuditLog($actor: String, $actorId: ID, $kind: String, $outcome: String, $from: Time, $to: Time, $first: Int, $after: String) {\n    auditLog(actor: $actor, actorId: $actorId, kind: $kind, outcome: $outcome, from: $from, to: $to, first: $first, after: $after) {\n      items {\n        id time kind outcome reason sourceAddress userAgent action operation\n        actor { userId email role }\n        target { type id name }\n        details { method }\n      }\n      nextCursor\n    }\n    auditKinds\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerBilling($id: ID!, $payments: Boolean!, $credits: Boolean!, $setup: Boolean!, $plans: Boolean!, $first: Int, $after: String) {\n    customer(id: $id) {\n      id\n      payments(first: $first, after: $after) @include(if: $payments) {\n        items { id invoiceId amount currency method status receivedAt }\n        nextCursor\n      }\n      credits(first: $first, after: $after) @include(if: $credits) {\n        items { id amount currency reason issuedAt }\n        nextCursor\n      }\n      billingSetup @include(if: $setup) {\n        planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n      }\n    }\n    plans @include(if: $plans) { id name currency active }\n  }\n"): (typeof documents)["\n  query CustomerBilling($id: ID!, $payments: Boolean!, $credits: Boolean!, $setup: Boolean!, $plans: Boolean!, $first: Int, $after: String) {\n    customer(id: $id) {\n      id\n      payments(first: $first, after: $after) @include(if: $payments) {\n        items { id invoiceId amount currency method status receivedAt }\n        nextCursor\n      }\n      credits(first: $first, after: $after) @include(if: $credits) {\n        items { id amount currency reason issuedAt }\n        nextCursor\n      }\n      billingSetup @include(if: $setup) {\n        planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n      }\n    }\n    plans @include(if: $plans) { id name currency active }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation IssueCredit($customerId: ID!, $input: CreditInput!) {\n    issueCredit(customerId: $customerId, input: $input) { id amount currency reason issuedAt }\n  }\n"): (typeof documents)["\n  mutation IssueCredit($customerId: ID!, $input: CreditInput!) {\n    issueCredit(customerId: $customerId, input: $input) { id amount currency reason issuedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutBillingSetup($customerId: ID!, $input: BillingSetupInput!) {\n    putBillingSetup(customerId: $customerId, input: $input) {\n      customerId planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n    }\n  }\n"): (typeof documents)["\n  mutation PutBillingSetup($customerId: ID!, $input: BillingSetupInput!) {\n    putBillingSetup(customerId: $customerId, input: $input) {\n      customerId planId billingEmail companyName address country taxId currency paymentMethod updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerBranding($id: ID!) {\n    customer(id: $id) {\n      id\n      branding { displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt }\n    }\n  }\n"): (typeof documents)["\n  query CustomerBranding($id: ID!) {\n    customer(id: $id) {\n      id\n      branding { displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutBranding($customerId: ID!, $input: BrandingInput!) {\n    putBranding(customerId: $customerId, input: $input) {\n      displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt\n    }\n  }\n"): (typeof documents)["\n  mutation PutBranding($customerId: ID!, $input: BrandingInput!) {\n    putBranding(customerId: $customerId, input: $input) {\n      displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteBrandingLogo($customerId: ID!) {\n    deleteBrandingLogo(customerId: $customerId) { logoUrl updatedAt }\n  }\n"): (typeof documents)["\n  mutation DeleteBrandingLogo($customerId: ID!) {\n    deleteBrandingLogo(customerId: $customerId) { logoUrl updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Catalog {\n    plans { id code name description currency monthlyFee active }\n    meters { id key name unit aggregation description }\n  }\n"): (typeof documents)["\n  query Catalog {\n    plans { id code name description currency monthlyFee active }\n    meters { id key name unit aggregation description }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreatePlan($input: PlanInput!) { createPlan(input: $input) { id } }"): (typeof documents)["mutation CreatePlan($input: PlanInput!) { createPlan(input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePlan($id: ID!, $input: PlanPatch!) { updatePlan(id: $id, input: $input) { id name description currency monthlyFee active } }\n"): (typeof documents)["\n  mutation UpdatePlan($id: ID!, $input: PlanPatch!) { updatePlan(id: $id, input: $input) { id name description currency monthlyFee active } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeletePlan($id: ID!) { deletePlan(id: $id) }"): (typeof documents)["mutation DeletePlan($id: ID!) { deletePlan(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateMeter($input: MeterInput!) { createMeter(input: $input) { id } }"): (typeof documents)["mutation CreateMeter($input: MeterInput!) { createMeter(input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMeter($id: ID!, $input: MeterPatch!) { updateMeter(id: $id, input: $input) { id name unit aggregation description } }\n"): (typeof documents)["\n  mutation UpdateMeter($id: ID!, $input: MeterPatch!) { updateMeter(id: $id, input: $input) { id name unit aggregation description } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteMeter($id: ID!) { deleteMeter(id: $id) }"): (typeof documents)["mutation DeleteMeter($id: ID!) { deleteMeter(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n"): (typeof documents)["\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) }\n"): (typeof documents)["\n  mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n"): (typeof documents)["\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customers($first: Int, $after: String, $search: String) {\n    customers(first: $first, after: $after, search: $search) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Customers($first: Int, $after: String, $search: String) {\n    customers(first: $first, after: $after, search: $search) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n"): (typeof documents)["\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Discrepancies($status: String) {\n    discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt resolvedAt resolution }\n  }\n"): (typeof documents)["\n  query Discrepancies($status: String) {\n    discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt resolvedAt resolution }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveDiscrepancy($id: ID!, $resolution: String!) { resolveDiscrepancy(id: $id, resolution: $resolution) { id status resolvedAt resolution } }\n"): (typeof documents)["\n  mutation ResolveDiscrepancy($id: ID!, $resolution: String!) { resolveDiscrepancy(id: $id, resolution: $resolution) { id status resolvedAt resolution } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReopenDiscrepancy($id: ID!) { reopenDiscrepancy(id: $id) { id status resolvedAt resolution } }\n"): (typeof documents)["\n  mutation ReopenDiscrepancy($id: ID!) { reopenDiscrepancy(id: $id) { id status resolvedAt resolution } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerDomains($id: ID!) {\n    customer(id: $id) {\n      id\n      claimedDomains { id domain displayName status method recordName recordValue wellKnownUrl verifiedAt checkedAt failingSince }\n    }\n  }\n"): (typeof documents)["\n  query CustomerDomains($id: ID!) {\n    customer(id: $id) {\n      id\n      claimedDomains { id domain displayName status method recordName recordValue wellKnownUrl verifiedAt checkedAt failingSince }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClaimDomain($customerId: ID!, $domain: String!) {\n    claimDomain(customerId: $customerId, domain: $domain) { id domain status recordName recordValue }\n  }\n"): (typeof documents)["\n  mutation ClaimDomain($customerId: ID!, $domain: String!) {\n    claimDomain(customerId: $customerId, domain: $domain) { id domain status recordName recordValue }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation VerifyDomain($customerId: ID!, $id: ID!) {\n    verifyDomain(customerId: $customerId, id: $id) { id status method verifiedAt checkedAt failingSince }\n  }\n"): (typeof documents)["\n  mutation VerifyDomain($customerId: ID!, $id: ID!) {\n    verifyDomain(customerId: $customerId, id: $id) { id status method verifiedAt checkedAt failingSince }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteDomain($customerId: ID!, $id: ID!) { deleteDomain(customerId: $customerId, id: $id) }\n"): (typeof documents)["\n  mutation DeleteDomain($customerId: ID!, $id: ID!) { deleteDomain(customerId: $customerId, id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) {\n      granteeType granteeId customerId instanceId grantedBy grantedAt\n      user { id email name role }\n      customer { id name }\n      instance { id name }\n    }\n  }\n"): (typeof documents)["\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) {\n      granteeType granteeId customerId instanceId grantedBy grantedAt\n      user { id email name role }\n      customer { id name }\n      instance { id name }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n"): (typeof documents)["\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n"): (typeof documents)["\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GrantChoices {\n    internalUsers(first: 1000) { items { id email name role suspendedAt } }\n  }\n"): (typeof documents)["\n  query GrantChoices {\n    internalUsers(first: 1000) { items { id email name role suspendedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Groups($customerId: ID!, $first: Int, $after: String) {\n    groups(customerId: $customerId, first: $first, after: $after) { items { id name role } nextCursor }\n  }\n"): (typeof documents)["\n  query Groups($customerId: ID!, $first: Int, $after: String) {\n    groups(customerId: $customerId, first: $first, after: $after) { items { id name role } nextCursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InternalGroups($first: Int, $after: String) {\n    internalGroups(first: $first, after: $after) { items { id name role } nextCursor }\n  }\n"): (typeof documents)["\n  query InternalGroups($first: Int, $after: String) {\n    internalGroups(first: $first, after: $after) { items { id name role } nextCursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateGroup($customerId: ID!, $input: GroupInput!) { createGroup(customerId: $customerId, input: $input) { id name role } }\n"): (typeof documents)["\n  mutation CreateGroup($customerId: ID!, $input: GroupInput!) { createGroup(customerId: $customerId, input: $input) { id name role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInternalGroup($input: GroupInput!) { createInternalGroup(input: $input) { id name role } }\n"): (typeof documents)["\n  mutation CreateInternalGroup($input: GroupInput!) { createInternalGroup(input: $input) { id name role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GroupPage($id: ID!, $first: Int) {\n    group(id: $id) { id name role customerId }\n    groupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    groupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n  }\n"): (typeof documents)["\n  query GroupPage($id: ID!, $first: Int) {\n    group(id: $id) { id name role customerId }\n    groupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    groupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InternalGroupPage($id: ID!, $first: Int) {\n    internalGroup(id: $id) { id name role customerId }\n    internalGroupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupGrants(groupId: $id) { customerId instanceId }\n  }\n"): (typeof documents)["\n  query InternalGroupPage($id: ID!, $first: Int) {\n    internalGroup(id: $id) { id name role customerId }\n    internalGroupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }\n    internalGroupGrants(groupId: $id) { customerId instanceId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateGroupRole($id: ID!, $input: UpdateGroupInput!) { updateGroup(id: $id, input: $input) { id role } }"): (typeof documents)["mutation UpdateGroupRole($id: ID!, $input: UpdateGroupInput!) { updateGroup(id: $id, input: $input) { id role } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateInternalGroupRole($id: ID!, $input: UpdateGroupInput!) { updateInternalGroup(id: $id, input: $input) { id role } }"): (typeof documents)["mutation UpdateInternalGroupRole($id: ID!, $input: UpdateGroupInput!) { updateInternalGroup(id: $id, input: $input) { id role } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AddGroupMember($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }"): (typeof documents)["mutation AddGroupMember($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemoveGroupMember($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }"): (typeof documents)["mutation RemoveGroupMember($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AddGroupManager($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }"): (typeof documents)["mutation AddGroupManager($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemoveGroupManager($g: ID!, $u: ID!) { removeGroupManager(groupId: $g, userId: $u) }"): (typeof documents)["mutation RemoveGroupManager($g: ID!, $u: ID!) { removeGroupManager(groupId: $g, userId: $u) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AddInternalGroupMember($g: ID!, $u: ID!) { addInternalGroupMember(groupId: $g, userId: $u) { userId } }"): (typeof documents)["mutation AddInternalGroupMember($g: ID!, $u: ID!) { addInternalGroupMember(groupId: $g, userId: $u) { userId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemoveInternalGroupMember($g: ID!, $u: ID!) { removeInternalGroupMember(groupId: $g, userId: $u) }"): (typeof documents)["mutation RemoveInternalGroupMember($g: ID!, $u: ID!) { removeInternalGroupMember(groupId: $g, userId: $u) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AddInternalGroupManager($g: ID!, $u: ID!) { addInternalGroupManager(groupId: $g, userId: $u) { userId } }"): (typeof documents)["mutation AddInternalGroupManager($g: ID!, $u: ID!) { addInternalGroupManager(groupId: $g, userId: $u) { userId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemoveInternalGroupManager($g: ID!, $u: ID!) { removeInternalGroupManager(groupId: $g, userId: $u) }"): (typeof documents)["mutation RemoveInternalGroupManager($g: ID!, $u: ID!) { removeInternalGroupManager(groupId: $g, userId: $u) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateGroupGrant($g: ID!, $c: ID) { createGroupGrant(groupId: $g, customerId: $c) { customerId } }"): (typeof documents)["mutation CreateGroupGrant($g: ID!, $c: ID) { createGroupGrant(groupId: $g, customerId: $c) { customerId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteGroupGrant($g: ID!, $c: ID) { deleteGroupGrant(groupId: $g, customerId: $c) }"): (typeof documents)["mutation DeleteGroupGrant($g: ID!, $c: ID) { deleteGroupGrant(groupId: $g, customerId: $c) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Instance($id: ID!, $tenants: Boolean!) {\n    instance(id: $id) {\n      id name url createdAt\n      customer { id name }\n      connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop }\n      tenants @include(if: $tenants) { id name createdAt }\n    }\n  }\n"): (typeof documents)["\n  query Instance($id: ID!, $tenants: Boolean!) {\n    instance(id: $id) {\n      id name url createdAt\n      customer { id name }\n      connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop }\n      tenants @include(if: $tenants) { id name createdAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) { id name url connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n  }\n"): (typeof documents)["\n  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {\n    updateInstance(id: $id, input: $input) { id name url connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteInstance($id: ID!) { deleteInstance(id: $id) }"): (typeof documents)["mutation DeleteInstance($id: ID!) { deleteInstance(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RepairConnection($id: ID!) { repairConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n"): (typeof documents)["\n  mutation RepairConnection($id: ID!) { repairConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateConnection($id: ID!) { rotateConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n"): (typeof documents)["\n  mutation RotateConnection($id: ID!) { rotateConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateInstanceSecret($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }\n"): (typeof documents)["\n  mutation RotateInstanceSecret($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResolveDatabaseUri($id: ID!) { resolveDatabaseUri(id: $id) }"): (typeof documents)["mutation ResolveDatabaseUri($id: ID!) { resolveDatabaseUri(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Instances($customerId: ID, $first: Int, $after: String, $search: String) {\n    instances(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Instances($customerId: ID, $first: Int, $after: String, $search: String) {\n    instances(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt clientSecret }\n  }\n"): (typeof documents)["\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt clientSecret }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InternalUsers($first: Int, $after: String, $search: String) {\n    internalUsers(first: $first, after: $after, search: $search) { items { id email name role status lockedUntil createdAt } nextCursor }\n  }\n"): (typeof documents)["\n  query InternalUsers($first: Int, $after: String, $search: String) {\n    internalUsers(first: $first, after: $after, search: $search) { items { id email name role status lockedUntil createdAt } nextCursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInternalUser($input: CreateInternalUserInput!) { createInternalUser(input: $input) { id email role } }\n"): (typeof documents)["\n  mutation CreateInternalUser($input: CreateInternalUserInput!) { createInternalUser(input: $input) { id email role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateInternalUserRole($id: ID!, $input: UpdateInternalUserInput!) { updateInternalUser(id: $id, input: $input) { id name role } }\n"): (typeof documents)["\n  mutation UpdateInternalUserRole($id: ID!, $input: UpdateInternalUserInput!) { updateInternalUser(id: $id, input: $input) { id name role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemoveInternalUser($id: ID!) { removeInternalUser(id: $id) }"): (typeof documents)["mutation RemoveInternalUser($id: ID!) { removeInternalUser(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MetadataClients($id: ID!) {\n    customer(id: $id) {\n      id\n      clientMetadata { enabled }\n      metadataClients { clientId name firstUsedAt lastFetchedAt blockedAt }\n    }\n  }\n"): (typeof documents)["\n  query MetadataClients($id: ID!) {\n    customer(id: $id) {\n      id\n      clientMetadata { enabled }\n      metadataClients { clientId name firstUsedAt lastFetchedAt blockedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetClientMetadata($customerId: ID!, $enabled: Boolean!) {\n    setClientMetadata(customerId: $customerId, enabled: $enabled) { enabled }\n  }\n"): (typeof documents)["\n  mutation SetClientMetadata($customerId: ID!, $enabled: Boolean!) {\n    setClientMetadata(customerId: $customerId, enabled: $enabled) { enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BlockMetadataClient($customerId: ID!, $clientId: String!, $blocked: Boolean!) {\n    blockMetadataClient(customerId: $customerId, clientId: $clientId, blocked: $blocked) { clientId blockedAt }\n  }\n"): (typeof documents)["\n  mutation BlockMetadataClient($customerId: ID!, $clientId: String!, $blocked: Boolean!) {\n    blockMetadataClient(customerId: $customerId, clientId: $clientId, blocked: $blocked) { clientId blockedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }\n"): (typeof documents)["\n  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }"): (typeof documents)["mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }"): (typeof documents)["mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }"): (typeof documents)["mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EmailLog($recipient: String, $first: Int, $after: String) {\n    emailLog(recipient: $recipient, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }\n  }\n"): (typeof documents)["\n  query EmailLog($recipient: String, $first: Int, $after: String) {\n    emailLog(recipient: $recipient, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Invoices($customerId: ID, $status: String, $first: Int, $after: String) {\n    invoices(customerId: $customerId, status: $status, first: $first, after: $after) {\n      items { id customerId number period currency total status issuedAt dueAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Invoices($customerId: ID, $status: String, $first: Int, $after: String) {\n    invoices(customerId: $customerId, status: $status, first: $first, after: $after) {\n      items { id customerId number period currency total status issuedAt dueAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Registration($id: ID!) {\n    customer(id: $id) {\n      id\n      registeredClients { clientId name kind redirectUris registered createdAt }\n      registrationTokens { id name kinds redirectHosts maxUses uses createdAt expiresAt revokedAt }\n    }\n  }\n"): (typeof documents)["\n  query Registration($id: ID!) {\n    customer(id: $id) {\n      id\n      registeredClients { clientId name kind redirectUris registered createdAt }\n      registrationTokens { id name kinds redirectHosts maxUses uses createdAt expiresAt revokedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateRegistrationToken($customerId: ID!, $input: CreateRegistrationTokenInput!) {\n    createRegistrationToken(customerId: $customerId, input: $input) { token registrationToken { id name } }\n  }\n"): (typeof documents)["\n  mutation CreateRegistrationToken($customerId: ID!, $input: CreateRegistrationTokenInput!) {\n    createRegistrationToken(customerId: $customerId, input: $input) { token registrationToken { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeRegistrationToken($id: ID!) { revokeRegistrationToken(id: $id) }\n"): (typeof documents)["\n  mutation RevokeRegistrationToken($id: ID!) { revokeRegistrationToken(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Releases {\n    releases(first: 100) { id version channel notes status createdAt publishedAt }\n    environment { id name secret value description updatedAt }\n  }\n"): (typeof documents)["\n  query Releases {\n    releases(first: 100) { id version channel notes status createdAt publishedAt }\n    environment { id name secret value description updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateRelease($input: ReleaseInput!) { createRelease(input: $input) { id } }"): (typeof documents)["mutation CreateRelease($input: ReleaseInput!) { createRelease(input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PublishRelease($id: ID!) { publishRelease(id: $id) { id status publishedAt } }"): (typeof documents)["mutation PublishRelease($id: ID!) { publishRelease(id: $id) { id status publishedAt } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation WithdrawRelease($id: ID!) { withdrawRelease(id: $id) { id status } }"): (typeof documents)["mutation WithdrawRelease($id: ID!) { withdrawRelease(id: $id) { id status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateEnvVar($input: EnvVarInput!) { createEnvVar(input: $input) { id } }"): (typeof documents)["mutation CreateEnvVar($input: EnvVarInput!) { createEnvVar(input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateEnvVar($id: ID!, $input: EnvVarPatch!) { updateEnvVar(id: $id, input: $input) { id secret value description updatedAt } }\n"): (typeof documents)["\n  mutation UpdateEnvVar($id: ID!, $input: EnvVarPatch!) { updateEnvVar(id: $id, input: $input) { id secret value description updatedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteEnvVar($id: ID!) { deleteEnvVar(id: $id) }"): (typeof documents)["mutation DeleteEnvVar($id: ID!) { deleteEnvVar(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ScimTokens($id: ID!) {\n    customer(id: $id) { id scimTokens { id name createdAt lastUsedAt revokedAt } }\n  }\n"): (typeof documents)["\n  query ScimTokens($id: ID!) {\n    customer(id: $id) { id scimTokens { id name createdAt lastUsedAt revokedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateScimToken($customerId: ID!, $name: String!) {\n    createScimToken(customerId: $customerId, name: $name) { token scimToken { id name } }\n  }\n"): (typeof documents)["\n  mutation CreateScimToken($customerId: ID!, $name: String!) {\n    createScimToken(customerId: $customerId, name: $name) { token scimToken { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeScimToken($id: ID!) { revokeScimToken(id: $id) }\n"): (typeof documents)["\n  mutation RevokeScimToken($id: ID!) { revokeScimToken(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InternalScimTokens {\n    internalScimTokens { id name createdAt lastUsedAt revokedAt }\n  }\n"): (typeof documents)["\n  query InternalScimTokens {\n    internalScimTokens { id name createdAt lastUsedAt revokedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInternalScimToken($name: String!) {\n    createInternalScimToken(name: $name) { token scimToken { id name } }\n  }\n"): (typeof documents)["\n  mutation CreateInternalScimToken($name: String!) {\n    createInternalScimToken(name: $name) { token scimToken { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeInternalScimToken($id: ID!) { revokeInternalScimToken(id: $id) }\n"): (typeof documents)["\n  mutation RevokeInternalScimToken($id: ID!) { revokeInternalScimToken(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerSecurityPolicy($id: ID!) {\n    customer(id: $id) {\n      id\n      securityPolicy { sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso }\n    }\n  }\n"): (typeof documents)["\n  query CustomerSecurityPolicy($id: ID!) {\n    customer(id: $id) {\n      id\n      securityPolicy { sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutSecurityPolicy($customerId: ID!, $input: SecurityPolicyInput!) {\n    putSecurityPolicy(customerId: $customerId, input: $input) {\n      sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso\n    }\n  }\n"): (typeof documents)["\n  mutation PutSecurityPolicy($customerId: ID!, $input: SecurityPolicyInput!) {\n    putSecurityPolicy(customerId: $customerId, input: $input) {\n      sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerConfig($id: ID!) {\n    customer(id: $id) {\n      id\n      settings\n      webhooks { id url description events active createdAt }\n      serviceAccounts { id name role clientId authMethod keyIds createdAt secretRotatedAt }\n    }\n  }\n"): (typeof documents)["\n  query CustomerConfig($id: ID!) {\n    customer(id: $id) {\n      id\n      settings\n      webhooks { id url description events active createdAt }\n      serviceAccounts { id name role clientId authMethod keyIds createdAt secretRotatedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutCustomerSettings($id: ID!, $settings: JSON!) { putCustomerSettings(id: $id, settings: $settings) }\n"): (typeof documents)["\n  mutation PutCustomerSettings($id: ID!, $settings: JSON!) { putCustomerSettings(id: $id, settings: $settings) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n"): (typeof documents)["\n  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {\n    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }\n  }\n"): (typeof documents)["\n  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {\n    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateServiceAccountSecret($id: ID!) {\n    rotateServiceAccountSecret(id: $id) { clientSecret serviceAccount { id secretRotatedAt } }\n  }\n"): (typeof documents)["\n  mutation RotateServiceAccountSecret($id: ID!) {\n    rotateServiceAccountSecret(id: $id) { clientSecret serviceAccount { id secretRotatedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetServiceAccountKeys($id: ID!, $jwks: JSON!) { setServiceAccountKeys(id: $id, jwks: $jwks) { id authMethod keyIds } }\n"): (typeof documents)["\n  mutation SetServiceAccountKeys($id: ID!, $jwks: JSON!) { setServiceAccountKeys(id: $id, jwks: $jwks) { id authMethod keyIds } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetServiceAccountRole($id: ID!, $role: String!) { setServiceAccountRole(id: $id, role: $role) { id role } }\n"): (typeof documents)["\n  mutation SetServiceAccountRole($id: ID!, $role: String!) { setServiceAccountRole(id: $id, role: $role) { id role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }\n"): (typeof documents)["\n  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerSignIn($id: ID!) {\n    customer(id: $id) {\n      id\n      sso { passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders }\n      identityProviders { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n    }\n  }\n"): (typeof documents)["\n  query CustomerSignIn($id: ID!) {\n    customer(id: $id) {\n      id\n      sso { passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders }\n      identityProviders { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutSSOSettings($customerId: ID!, $input: SSOSettingsInput!) {\n    putSSOSettings(customerId: $customerId, input: $input) {\n      passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders\n    }\n  }\n"): (typeof documents)["\n  mutation PutSSOSettings($customerId: ID!, $input: SSOSettingsInput!) {\n    putSSOSettings(customerId: $customerId, input: $input) {\n      passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateIdentityProvider($customerId: ID!, $input: IdentityProviderInput!) {\n    createIdentityProvider(customerId: $customerId, input: $input) { id name }\n  }\n"): (typeof documents)["\n  mutation CreateIdentityProvider($customerId: ID!, $input: IdentityProviderInput!) {\n    createIdentityProvider(customerId: $customerId, input: $input) { id name }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateIdentityProvider($id: ID!, $input: IdentityProviderPatch!) {\n    updateIdentityProvider(id: $id, input: $input) { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n  }\n"): (typeof documents)["\n  mutation UpdateIdentityProvider($id: ID!, $input: IdentityProviderPatch!) {\n    updateIdentityProvider(id: $id, input: $input) { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteIdentityProvider($id: ID!) { deleteIdentityProvider(id: $id) }\n"): (typeof documents)["\n  mutation DeleteIdentityProvider($id: ID!) { deleteIdentityProvider(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TenantDetail($id: ID!, $manage: Boolean!, $users: Boolean!, $migrations: Boolean!) {\n    tenant(id: $id) {\n      id\n      name\n      customerId\n      instanceId\n      createdAt\n      settings @include(if: $manage)\n      customer { id name users @include(if: $users) { id email name status } }\n      members @include(if: $manage) { userId email name role addedAt }\n      migrations @include(if: $migrations) { id targetVersion status requestedAt }\n    }\n  }\n"): (typeof documents)["\n  query TenantDetail($id: ID!, $manage: Boolean!, $users: Boolean!, $migrations: Boolean!) {\n    tenant(id: $id) {\n      id\n      name\n      customerId\n      instanceId\n      createdAt\n      settings @include(if: $manage)\n      customer { id name users @include(if: $users) { id email name status } }\n      members @include(if: $manage) { userId email name role addedAt }\n      migrations @include(if: $migrations) { id targetVersion status requestedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutTenantSettings($id: ID!, $settings: JSON!) { putTenantSettings(id: $id, settings: $settings) }\n"): (typeof documents)["\n  mutation PutTenantSettings($id: ID!, $settings: JSON!) { putTenantSettings(id: $id, settings: $settings) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PutTenantMember($id: ID!, $userId: ID!, $role: String!) {\n    putTenantMember(id: $id, userId: $userId, role: $role) { userId role }\n  }\n"): (typeof documents)["\n  mutation PutTenantMember($id: ID!, $userId: ID!, $role: String!) {\n    putTenantMember(id: $id, userId: $userId, role: $role) { userId role }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveTenantMember($id: ID!, $userId: ID!) { removeTenantMember(id: $id, userId: $userId) }\n"): (typeof documents)["\n  mutation RemoveTenantMember($id: ID!, $userId: ID!) { removeTenantMember(id: $id, userId: $userId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferTenant($id: ID!, $input: TransferTenantInput!) {\n    transferTenant(id: $id, input: $input) { id customerId instanceId }\n  }\n"): (typeof documents)["\n  mutation TransferTenant($id: ID!, $input: TransferTenantInput!) {\n    transferTenant(id: $id, input: $input) { id customerId instanceId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TriggerMigration($id: ID!, $targetVersion: String!) {\n    triggerMigration(id: $id, targetVersion: $targetVersion) { id targetVersion status requestedAt }\n  }\n"): (typeof documents)["\n  mutation TriggerMigration($id: ID!, $targetVersion: String!) {\n    triggerMigration(id: $id, targetVersion: $targetVersion) { id targetVersion status requestedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String, $search: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after, search: $search) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String, $search: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after, search: $search) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n"): (typeof documents)["\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n"): (typeof documents)["\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency customer { id name } }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency customer { id name } }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SupportUser($id: ID!) {\n    user(id: $id) {\n      id email name role language status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt\n      customer { id name }\n    }\n  }\n"): (typeof documents)["\n  query SupportUser($id: ID!) {\n    user(id: $id) {\n      id email name role language status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt\n      customer { id name }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SupportInternalUser($id: ID!) {\n    internalUser(id: $id) { id email name role status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt }\n  }\n"): (typeof documents)["\n  query SupportInternalUser($id: ID!) {\n    internalUser(id: $id) { id email name role status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserSessions($id: ID!, $first: Int, $after: String) {\n    userSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query UserSessions($id: ID!, $first: Int, $after: String) {\n    userSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InternalUserSessions($id: ID!, $first: Int, $after: String) {\n    internalUserSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query InternalUserSessions($id: ID!, $first: Int, $after: String) {\n    internalUserSessions(id: $id, first: $first, after: $after) {\n      items { id userAgent address signedInAt lastSeenAt expiresAt methods }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateUserLanguage($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id language } }\n"): (typeof documents)["\n  mutation UpdateUserLanguage($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id language } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnlockUser($id: ID!) { unlockUser(id: $id) { id status lockedUntil failedSignIns } }"): (typeof documents)["mutation UnlockUser($id: ID!) { unlockUser(id: $id) { id status lockedUntil failedSignIns } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnlockInternalUser($id: ID!) { unlockInternalUser(id: $id) { id status lockedUntil failedSignIns } }"): (typeof documents)["mutation UnlockInternalUser($id: ID!) { unlockInternalUser(id: $id) { id status lockedUntil failedSignIns } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResetSecondFactor($id: ID!) { resetSecondFactor(id: $id) { id authenticatorApp passkeys } }"): (typeof documents)["mutation ResetSecondFactor($id: ID!) { resetSecondFactor(id: $id) { id authenticatorApp passkeys } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResetInternalSecondFactor($id: ID!) { resetInternalSecondFactor(id: $id) { id authenticatorApp passkeys } }\n"): (typeof documents)["\n  mutation ResetInternalSecondFactor($id: ID!) { resetInternalSecondFactor(id: $id) { id authenticatorApp passkeys } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id status } }"): (typeof documents)["mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResendInternalInvitation($id: ID!) { resendInternalInvitation(id: $id) { id status } }"): (typeof documents)["mutation ResendInternalInvitation($id: ID!) { resendInternalInvitation(id: $id) { id status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) }"): (typeof documents)["mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RevokeInternalInvitation($id: ID!) { revokeInternalInvitation(id: $id) }"): (typeof documents)["mutation RevokeInternalInvitation($id: ID!) { revokeInternalInvitation(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EndUserSession($id: ID!, $sessionId: ID!) { endUserSession(id: $id, sessionId: $sessionId) }"): (typeof documents)["mutation EndUserSession($id: ID!, $sessionId: ID!) { endUserSession(id: $id, sessionId: $sessionId) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EndInternalUserSession($id: ID!, $sessionId: ID!) { endInternalUserSession(id: $id, sessionId: $sessionId) }\n"): (typeof documents)["\n  mutation EndInternalUserSession($id: ID!, $sessionId: ID!) { endInternalUserSession(id: $id, sessionId: $sessionId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EndUserSessions($id: ID!) { endUserSessions(id: $id) }"): (typeof documents)["mutation EndUserSessions($id: ID!) { endUserSessions(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EndInternalUserSessions($id: ID!) { endInternalUserSessions(id: $id) }"): (typeof documents)["mutation EndInternalUserSessions($id: ID!) { endInternalUserSessions(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Users($customerId: ID, $first: Int, $after: String, $search: String) {\n    users(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id customerId email name role status suspendedAt lockedUntil createdAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Users($customerId: ID, $first: Int, $after: String, $search: String) {\n    users(customerId: $customerId, first: $first, after: $after, search: $search) {\n      items { id customerId email name role status suspendedAt lockedUntil createdAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status warning }\n  }\n"): (typeof documents)["\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status warning }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n"): (typeof documents)["\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n"): (typeof documents)["\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateUserRole($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id role } }\n"): (typeof documents)["\n  mutation UpdateUserRole($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteUser($id: ID!) { deleteUser(id: $id) }\n"): (typeof documents)["\n  mutation DeleteUser($id: ID!) { deleteUser(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferHomeOrg($id: ID!, $customerId: ID!) { transferHomeOrg(id: $id, customerId: $customerId) { id customerId } }\n"): (typeof documents)["\n  mutation TransferHomeOrg($id: ID!, $customerId: ID!) { transferHomeOrg(id: $id, customerId: $customerId) { id customerId } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferOwnership($id: ID!, $userId: ID!) { transferOwnership(id: $id, userId: $userId) { id role } }\n"): (typeof documents)["\n  mutation TransferOwnership($id: ID!, $userId: ID!) { transferOwnership(id: $id, userId: $userId) { id role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {\n    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }\n  }\n"): (typeof documents)["\n  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {\n    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) {\n    updateWebhook(id: $id, input: $input) { id url description events active updatedAt }\n  }\n"): (typeof documents)["\n  mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) {\n    updateWebhook(id: $id, input: $input) { id url description events active updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id updatedAt } } }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id updatedAt } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    webhook(id: $id) {\n      id\n      url\n      deliveries(first: $first) { id eventType status attempts lastStatusCode lastError createdAt deliveredAt }\n    }\n  }\n"): (typeof documents)["\n  query WebhookDeliveries($id: ID!, $first: Int) {\n    webhook(id: $id) {\n      id\n      url\n      deliveries(first: $first) { id eventType status attempts lastStatusCode lastError createdAt deliveredAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerOptions($search: String, $selected: ID!, $withSelected: Boolean!) {\n    customers(first: 50, search: $search) { items { id name } }\n    selected: customer(id: $selected) @include(if: $withSelected) { id name }\n  }\n"): (typeof documents)["\n  query CustomerOptions($search: String, $selected: ID!, $withSelected: Boolean!) {\n    customers(first: 50, search: $search) { items { id name } }\n    selected: customer(id: $selected) @include(if: $withSelected) { id name }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstanceOptions($customerId: ID, $search: String, $selected: ID!, $withSelected: Boolean!) {\n    instances(customerId: $customerId, first: 50, search: $search) { items { id name customer { name } } }\n    selected: instance(id: $selected) @include(if: $withSelected) { id name customer { name } }\n  }\n"): (typeof documents)["\n  query InstanceOptions($customerId: ID, $search: String, $selected: ID!, $withSelected: Boolean!) {\n    instances(customerId: $customerId, first: 50, search: $search) { items { id name customer { name } } }\n    selected: instance(id: $selected) @include(if: $withSelected) { id name customer { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Focus { focus { active customerId expiresAt } }\n"): (typeof documents)["\n  query Focus { focus { active customerId expiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }\n"): (typeof documents)["\n  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }\n"): (typeof documents)["\n  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;