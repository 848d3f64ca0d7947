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
    "\n  query Me {\n    me {\n      userId\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n": typeof types.OwnOrgDocument,
    "\n  query AuditLog($actorId: ID, $first: Int, $after: String) {\n    auditLog(actorId: $actorId, first: $first, after: $after) {\n      items { id at actorId customerId action resource decision reason status requestId }\n      nextCursor\n    }\n  }\n": typeof types.AuditLogDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n": typeof types.CustomerDocument,
    "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n": typeof types.EnterFocusDocument,
    "\n  query Customers($first: Int, $after: String) {\n    customers(first: $first, after: $after) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n": typeof types.CustomersDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n": typeof types.CreateCustomerDocument,
    "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) { granteeType granteeId customerId instanceId grantedBy grantedAt }\n  }\n": typeof types.GrantsDocument,
    "\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n": typeof types.CreateGrantDocument,
    "\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n": typeof types.DeleteGrantDocument,
    "\n  query GrantChoices { customers(first: 100) { items { id name } } }\n": typeof types.GrantChoicesDocument,
    "\n  query Instances($customerId: ID, $first: Int, $after: String) {\n    instances(customerId: $customerId, first: $first, after: $after) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n": typeof types.InstancesDocument,
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt }\n  }\n": typeof types.CreateInstanceDocument,
    "\n  query InstanceCustomers { customers(first: 100) { items { id name } } }\n": typeof types.InstanceCustomersDocument,
    "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n": typeof types.TenantsDocument,
    "\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n": typeof types.CreateTenantDocument,
    "\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n": typeof types.DeleteTenantDocument,
    "\n  query CustomerChoices { customers(first: 100) { items { id name } } }\n": typeof types.CustomerChoicesDocument,
    "\n  query InstanceChoices($customerId: ID) { instances(customerId: $customerId, first: 100) { items { id name } } }\n": typeof types.InstanceChoicesDocument,
    "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency }\n      nextCursor\n    }\n  }\n": typeof types.UsageDocument,
    "\n  query Users($customerId: ID, $first: Int, $after: String) {\n    users(customerId: $customerId, first: $first, after: $after) {\n      items { id customerId email name role status suspendedAt createdAt }\n      nextCursor\n    }\n  }\n": typeof types.UsersDocument,
    "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status }\n  }\n": typeof types.InviteUserDocument,
    "\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n": typeof types.SuspendUserDocument,
    "\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n": typeof types.ReactivateUserDocument,
    "\n  query Focus { focus { active customerId expiresAt } }\n": typeof types.FocusDocument,
    "\n  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }\n": typeof types.FocusCustomerDocument,
    "\n  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }\n": typeof types.LeaveFocusDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      userId\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n": types.MeDocument,
    "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n": types.OwnOrgDocument,
    "\n  query AuditLog($actorId: ID, $first: Int, $after: String) {\n    auditLog(actorId: $actorId, first: $first, after: $after) {\n      items { id at actorId customerId action resource decision reason status requestId }\n      nextCursor\n    }\n  }\n": types.AuditLogDocument,
    "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n": types.CustomerDocument,
    "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n": types.EnterFocusDocument,
    "\n  query Customers($first: Int, $after: String) {\n    customers(first: $first, after: $after) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n": types.CustomersDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n": types.CreateCustomerDocument,
    "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) { granteeType granteeId customerId instanceId grantedBy grantedAt }\n  }\n": types.GrantsDocument,
    "\n  mutation CreateGrant($input: GrantInput!) {\n    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }\n  }\n": types.CreateGrantDocument,
    "\n  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {\n    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)\n  }\n": types.DeleteGrantDocument,
    "\n  query GrantChoices { customers(first: 100) { items { id name } } }\n": types.GrantChoicesDocument,
    "\n  query Instances($customerId: ID, $first: Int, $after: String) {\n    instances(customerId: $customerId, first: $first, after: $after) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n": types.InstancesDocument,
    "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt }\n  }\n": types.CreateInstanceDocument,
    "\n  query InstanceCustomers { customers(first: 100) { items { id name } } }\n": types.InstanceCustomersDocument,
    "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n": types.TenantsDocument,
    "\n  mutation CreateTenant($input: CreateTenantInput!) {\n    createTenant(input: $input) { id name customerId instanceId createdAt }\n  }\n": types.CreateTenantDocument,
    "\n  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }\n": types.DeleteTenantDocument,
    "\n  query CustomerChoices { customers(first: 100) { items { id name } } }\n": types.CustomerChoicesDocument,
    "\n  query InstanceChoices($customerId: ID) { instances(customerId: $customerId, first: 100) { items { id name } } }\n": types.InstanceChoicesDocument,
    "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency }\n      nextCursor\n    }\n  }\n": types.UsageDocument,
    "\n  query Users($customerId: ID, $first: Int, $after: String) {\n    users(customerId: $customerId, first: $first, after: $after) {\n      items { id customerId email name role status suspendedAt createdAt }\n      nextCursor\n    }\n  }\n": types.UsersDocument,
    "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status }\n  }\n": types.InviteUserDocument,
    "\n  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }\n": types.SuspendUserDocument,
    "\n  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }\n": types.ReactivateUserDocument,
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
export function graphql(source: "\n  query Me {\n    me {\n      userId\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      userId\n      role\n      customerId\n      scope { source mode customerIds instanceIds }\n      actions { action access }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n"): (typeof documents)["\n  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($actorId: ID, $first: Int, $after: String) {\n    auditLog(actorId: $actorId, first: $first, after: $after) {\n      items { id at actorId customerId action resource decision reason status requestId }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query AuditLog($actorId: ID, $first: Int, $after: String) {\n    auditLog(actorId: $actorId, first: $first, after: $after) {\n      items { id at actorId customerId action resource decision reason status requestId }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n"): (typeof documents)["\n  query Customer($id: ID!) {\n    customer(id: $id) { id name orgId createdAt updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n"): (typeof documents)["\n  mutation EnterFocus($input: FocusInput!) {\n    enterFocus(input: $input) { active customerId expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customers($first: Int, $after: String) {\n    customers(first: $first, after: $after) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Customers($first: Int, $after: String) {\n    customers(first: $first, after: $after) {\n      items { id name orgId createdAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n"): (typeof documents)["\n  mutation CreateCustomer($input: CreateCustomerInput!) {\n    createCustomer(input: $input) { id name orgId createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) { granteeType granteeId customerId instanceId grantedBy grantedAt }\n  }\n"): (typeof documents)["\n  query Grants($userId: ID, $customerId: ID) {\n    grants(userId: $userId, customerId: $customerId) { granteeType granteeId customerId instanceId grantedBy grantedAt }\n  }\n"];
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
export function graphql(source: "\n  query GrantChoices { customers(first: 100) { items { id name } } }\n"): (typeof documents)["\n  query GrantChoices { customers(first: 100) { items { id name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Instances($customerId: ID, $first: Int, $after: String) {\n    instances(customerId: $customerId, first: $first, after: $after) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Instances($customerId: ID, $first: Int, $after: String) {\n    instances(customerId: $customerId, first: $first, after: $after) {\n      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt }\n  }\n"): (typeof documents)["\n  mutation CreateInstance($input: CreateInstanceInput!) {\n    createInstance(input: $input) { id name url customerId createdAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstanceCustomers { customers(first: 100) { items { id name } } }\n"): (typeof documents)["\n  query InstanceCustomers { customers(first: 100) { items { id name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String) {\n    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after) {\n      items { id name customerId instanceId createdAt customer { id name } }\n      nextCursor\n    }\n  }\n"];
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
export function graphql(source: "\n  query CustomerChoices { customers(first: 100) { items { id name } } }\n"): (typeof documents)["\n  query CustomerChoices { customers(first: 100) { items { id name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstanceChoices($customerId: ID) { instances(customerId: $customerId, first: 100) { items { id name } } }\n"): (typeof documents)["\n  query InstanceChoices($customerId: ID) { instances(customerId: $customerId, first: 100) { items { id name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {\n    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {\n      items { id customerId meter unit period units billedAmount currency }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Users($customerId: ID, $first: Int, $after: String) {\n    users(customerId: $customerId, first: $first, after: $after) {\n      items { id customerId email name role status suspendedAt createdAt }\n      nextCursor\n    }\n  }\n"): (typeof documents)["\n  query Users($customerId: ID, $first: Int, $after: String) {\n    users(customerId: $customerId, first: $first, after: $after) {\n      items { id customerId email name role status suspendedAt createdAt }\n      nextCursor\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status }\n  }\n"): (typeof documents)["\n  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {\n    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status }\n  }\n"];
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