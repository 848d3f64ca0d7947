package graph_test

import (
	"slices"
	"strings"
	"testing"
)

// actionCase is one GraphQL operation as one caller, and what it must answer.
type actionCase struct {
	name  string
	user  string
	query string
	vars  map[string]any
	// wantCodes are the errors' codes; empty: none.
	wantCodes []string
	// wantData: a path that must hold a non-null value.
	wantData []any
	// wantValue: the value at wantData, when set.
	wantValue any
}

func runActions(t *testing.T, e *env, cases []actionCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := e.gql(tc.user, tc.query, tc.vars)
			if got.Status != 200 {
				t.Fatalf("status %d: %s", got.Status, got.Raw)
			}
			if !slices.Equal(got.codes(), tc.wantCodes) {
				t.Fatalf("codes = %v, want %v: %s", got.codes(), tc.wantCodes, got.Raw)
			}
			if tc.wantData != nil {
				v := dig(got.Data, tc.wantData...)
				if v == nil || (tc.wantValue != nil && v != tc.wantValue) {
					t.Errorf("%v = %v, want %v: %s", tc.wantData, v, tc.wantValue, got.Raw)
				}
			}
		})
	}
}

// TestTenantAndUserActions: the tenant and user actions of the capability
// matrix through GraphQL, as the roles that hold them and as those that do
// not; outside a strict scope FORBIDDEN, outside a soft or own scope
// NOT_FOUND, as REST answers.
//
// spec: R5.7-strict, R5.7-soft, R4.6-id-scope, R5.7-no-tenant
func TestTenantAndUserActions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const settings = `mutation($id: ID!) { putTenantSettings(id: $id, settings: {theme: "dark"}) }`
	const member = `mutation($id: ID!, $u: ID!) { putTenantMember(id: $id, userId: $u, role: "viewer") { userId role } }`
	runActions(t, e, []actionCase{
		{name: "settings/owner/own tenant", user: ownerA, query: settings, vars: map[string]any{"id": tenAcme},
			wantData: []any{"putTenantSettings", "theme"}, wantValue: "dark"},
		{name: "settings/owner/other customer's tenant is not found", user: ownerA, query: settings,
			vars: map[string]any{"id": tenGlobex}, wantCodes: []string{"NOT_FOUND"}},
		{name: "settings/account_manager/ungranted tenant is forbidden", user: acctMgr, query: settings,
			vars: map[string]any{"id": tenGlobex}, wantCodes: []string{"FORBIDDEN"}},
		{name: "settings/account_manager/missing tenant is forbidden", user: acctMgr, query: settings,
			vars: map[string]any{"id": "ten-nope"}, wantCodes: []string{"FORBIDDEN"}},
		{name: "settings/focus mode/other customer's tenant is not found", user: focusU, query: settings,
			vars: map[string]any{"id": tenAcme}, wantCodes: []string{"NOT_FOUND"}},
		{name: "settings/viewer/read only", user: viewerA, query: settings, vars: map[string]any{"id": tenAcme},
			wantCodes: []string{"FORBIDDEN"}},
		{name: "members/owner adds a viewer", user: ownerA, query: member, vars: map[string]any{"id": tenAcme, "u": memberA},
			wantData: []any{"putTenantMember", "role"}, wantValue: "viewer"},
		{name: "members/listed", user: ownerA, query: `query($id: ID!) { tenant(id: $id) { members { userId role } } }`,
			vars: map[string]any{"id": tenAcme}, wantData: []any{"tenant", "members", 0, "userId"}, wantValue: memberA},
		{name: "members/removed", user: ownerA, query: `mutation($id: ID!, $u: ID!) { removeTenantMember(id: $id, userId: $u) }`,
			vars: map[string]any{"id": tenAcme, "u": memberA}, wantData: []any{"removeTenantMember"}, wantValue: true},
		{name: "members/user of another customer is refused", user: ownerA, query: member,
			vars: map[string]any{"id": tenAcme, "u": ownerG}, wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "migration/account_manager", user: acctMgr,
			query: `mutation($id: ID!) { triggerMigration(id: $id, targetVersion: "2.4.0") { tenantId targetVersion status } }`,
			vars:  map[string]any{"id": tenAcme}, wantData: []any{"triggerMigration", "targetVersion"}, wantValue: "2.4.0"},
		{name: "migration/listed", user: acctMgr, query: `query($id: ID!) { tenant(id: $id) { migrations { targetVersion } } }`,
			vars: map[string]any{"id": tenAcme}, wantData: []any{"tenant", "migrations", 0, "targetVersion"}, wantValue: "2.4.0"},
		{name: "migration/owner does not hold it", user: ownerA,
			query: `mutation($id: ID!) { triggerMigration(id: $id, targetVersion: "2.4.0") { id } }`,
			vars:  map[string]any{"id": tenAcme}, wantCodes: []string{"FORBIDDEN"}},
		{name: "transfer/account_manager does not hold it", user: acctMgr,
			query: `mutation($id: ID!) { transferTenant(id: $id, input: {customerId: "cust-globex"}) { customerId } }`,
			vars:  map[string]any{"id": tenAcme2}, wantCodes: []string{"FORBIDDEN"}},
		{name: "transfer/platform_admin", user: platAdm,
			query: `mutation($id: ID!) { transferTenant(id: $id, input: {customerId: "cust-globex"}) { customerId instanceId } }`,
			vars:  map[string]any{"id": tenAcme2}, wantData: []any{"transferTenant", "customerId"}, wantValue: custGlobex},
		// An optional ID given as null means none, as left out: the tenant
		// moves back without an instance (gqlgen's own ID read "null").
		{name: "transfer/platform_admin/instance null", user: platAdm,
			query: `mutation($id: ID!, $inst: ID) { transferTenant(id: $id, input: {customerId: "cust-acme", instanceId: $inst}) { customerId instanceId } }`,
			vars:  map[string]any{"id": tenAcme2, "inst": nil}, wantData: []any{"transferTenant", "customerId"}, wantValue: "cust-acme"},
		{name: "transfer/platform_admin/instance null literal", user: platAdm,
			query: `mutation($id: ID!) { transferTenant(id: $id, input: {customerId: "cust-globex", instanceId: null}) { customerId } }`,
			vars:  map[string]any{"id": tenAcme2}, wantData: []any{"transferTenant", "customerId"}, wantValue: custGlobex},
		{name: "user/owner changes a role", user: ownerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {role: "billing"}) { role } }`,
			vars:  map[string]any{"id": memberA}, wantData: []any{"updateUser", "role"}, wantValue: "billing"},
		{name: "user/language/owner sets it", user: ownerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {language: "fr"}) { language } }`,
			vars:  map[string]any{"id": memberA}, wantData: []any{"updateUser", "language"}, wantValue: "fr"},
		{name: "user/language/read back", user: ownerA,
			query: `query($id: ID!) { user(id: $id) { language } }`,
			vars:  map[string]any{"id": memberA}, wantData: []any{"user", "language"}, wantValue: "fr"},
		{name: "user/language/unknown is bad input", user: ownerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {language: "xx"}) { language } }`,
			vars:  map[string]any{"id": memberA}, wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "user/language/viewer may not edit users", user: viewerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {language: "ja"}) { language } }`,
			vars:  map[string]any{"id": memberA}, wantCodes: []string{"FORBIDDEN"}},
		{name: "user/language/owner of another customer: not found", user: ownerG,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {language: "ja"}) { language } }`,
			vars:  map[string]any{"id": memberA}, wantCodes: []string{"NOT_FOUND"}},
		{name: "user/language/unchanged by the refusals", user: ownerA,
			query: `query($id: ID!) { user(id: $id) { language } }`,
			vars:  map[string]any{"id": memberA}, wantData: []any{"user", "language"}, wantValue: "fr"},
		{name: "user/language/back to the browser's", user: ownerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {language: ""}) { language } }`,
			vars:  map[string]any{"id": memberA}, wantData: []any{"updateUser"}},
		{name: "user/owner may not make an owner", user: ownerA,
			query: `mutation($id: ID!) { updateUser(id: $id, input: {role: "owner"}) { role } }`,
			vars:  map[string]any{"id": memberA}, wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "user/owner of another customer: not found", user: ownerG,
			query: `mutation($id: ID!) { deleteUser(id: $id) }`, vars: map[string]any{"id": memberA}, wantCodes: []string{"NOT_FOUND"}},
		{name: "user/home org/owner does not hold it", user: ownerA,
			query: `mutation($id: ID!) { transferHomeOrg(id: $id, customerId: "cust-globex") { customerId } }`,
			vars:  map[string]any{"id": viewerA}, wantCodes: []string{"FORBIDDEN"}},
		{name: "user/home org/platform_admin", user: platAdm,
			query: `mutation($id: ID!) { transferHomeOrg(id: $id, customerId: "cust-globex") { customerId } }`,
			vars:  map[string]any{"id": viewerA}, wantData: []any{"transferHomeOrg", "customerId"}, wantValue: custGlobex},
		{name: "user/owner deletes a user", user: ownerA,
			query: `mutation($id: ID!) { deleteUser(id: $id) }`, vars: map[string]any{"id": memberA}, wantData: []any{"deleteUser"}, wantValue: true},
		{name: "user/deleted is gone", user: ownerA,
			query: `query($id: ID!) { user(id: $id) { id } }`, vars: map[string]any{"id": memberA}, wantCodes: []string{"NOT_FOUND"}},
		{name: "ownership/billing does not hold it", user: billingA,
			query: `mutation { transferOwnership(id: "cust-acme", userId: "u-billing-acme") { role } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "ownership/owner hands over", user: ownerA,
			query:    `mutation { transferOwnership(id: "cust-acme", userId: "u-billing-acme") { id role } }`,
			wantData: []any{"transferOwnership", "role"}, wantValue: "owner"},
	})
}

// TestCustomerAndInfrastructureActions: customers (search, delete),
// instances, internal users, the platform's catalog, releases, workers,
// attributes, discrepancies and the logs.
//
// spec: R4.6-admin-only, R5.7-no-infra, R5.7-strict
func TestCustomerAndInfrastructureActions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runActions(t, e, []actionCase{
		{name: "search/platform_admin", user: platAdm, query: `{ customers(search: "glob") { items { id } } }`,
			wantData: []any{"customers", "items", 0, "id"}, wantValue: custGlobex},
		{name: "search/wildcards match themselves", user: platAdm, query: `{ customers(search: "%") { items { id } } }`,
			wantData: []any{"customers", "items"}},
		{name: "search/account_manager finds only its customers", user: acctMgr, query: `{ customers(search: "glob") { items { id } } }`,
			wantData: []any{"customers", "items"}},
		{name: "search/users by address", user: platAdm, query: `{ users(search: "OWNER-GLOBEX@") { items { id } } }`,
			wantData: []any{"users", "items", 0, "id"}, wantValue: ownerG},
		{name: "search/tenants by name", user: platAdm, query: `{ tenants(search: "inland") { items { id } } }`,
			wantData: []any{"tenants", "items", 0, "id"}, wantValue: tenAcme2},
		{name: "search/internal users by name", user: platAdm, query: `{ internalUsers(search: "Finance") { items { id } } }`,
			wantData: []any{"internalUsers", "items", 0, "id"}, wantValue: financeAdm},
		{name: "search/too long", user: platAdm, query: `{ users(search: "` + strings.Repeat("x", 201) + `") { items { id } } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "delete customer/account_manager", user: acctMgr, query: `mutation { deleteCustomer(id: "cust-acme") }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "instance/update", user: platAdm,
			query:    `mutation { updateInstance(id: "inst-acme-2", input: {name: "Second", url: "https://second.example"}) { name url } }`,
			wantData: []any{"updateInstance", "name"}, wantValue: "Second"},
		{name: "instance/account_manager may not", user: acctMgr,
			query:     `mutation { updateInstance(id: "inst-acme-2", input: {name: "X", url: "https://x.example"}) { name } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "instance/rotate connection", user: platAdm, query: `mutation { rotateConnection(id: "inst-acme-2") { oidcClientId } }`,
			wantData: []any{"rotateConnection", "oidcClientId"}},
		{name: "instance/tenants of the instance", user: platAdm, query: `{ instance(id: "inst-acme-1") { tenants { id } } }`,
			wantData: []any{"instance", "tenants", 0, "id"}, wantValue: tenAcme},
		{name: "instance/qa_admin outside its instance grant", user: qaAdm,
			query:     `mutation { deleteInstance(id: "inst-acme-2") }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "internal user/create", user: platAdm,
			query:    `mutation { createInternalUser(input: {email: "ops@platform.example", name: "Ops", role: "infra_ops"}) { id role } }`,
			wantData: []any{"createInternalUser", "role"}, wantValue: "infra_ops"},
		{name: "internal user/bad role", user: platAdm,
			query:     `mutation { createInternalUser(input: {email: "o2@platform.example", name: "O", role: "owner"}) { id } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "internal user/listed", user: readerU, query: `{ internalUsers(first: 50) { items { email } } }`,
			wantData: []any{"internalUsers", "items", 0, "email"}},
		{name: "internal user/owner may not", user: ownerA, query: `{ internalUsers { items { email } } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "plan/create", user: platAdm,
			query:    `mutation { createPlan(input: {code: "pro", name: "Pro", currency: "EUR", monthlyFee: 99.5}) { code monthlyFee } }`,
			wantData: []any{"createPlan", "monthlyFee"}, wantValue: 99.5},
		{name: "plan/listed", user: platAdm, query: `{ plans { code } meters { key } }`, wantData: []any{"meters", 0, "key"}, wantValue: "api_calls"},
		{name: "plan/owner may not", user: ownerA, query: `{ plans { code } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "release/create", user: platAdm, query: `mutation { createRelease(input: {version: "2.4.0", notes: "n"}) { version status } }`,
			wantData: []any{"createRelease", "status"}, wantValue: "draft"},
		{name: "env/secret value is hidden", user: platAdm,
			query:    `mutation { createEnvVar(input: {name: "SMTP_PASSWORD", value: "hunter2", secret: true}) { name secret value } }`,
			wantData: []any{"createEnvVar", "secret"}, wantValue: true},
		{name: "workers/listed", user: platAdm, query: `{ systemWorkers { id paused } }`, wantData: []any{"systemWorkers"}},
		{name: "workers/account_manager may not", user: acctMgr, query: `{ systemWorkers { id } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "attribute/create", user: platAdm,
			query:    `mutation { createUserAttribute(input: {key: "department", label: "Department", type: "string"}) { key options } }`,
			wantData: []any{"createUserAttribute", "key"}, wantValue: "department"},
		{name: "discrepancy/report", user: platAdm,
			query:    `mutation { reportDiscrepancy(input: {kind: "billing", customerId: "cust-acme", summary: "Invoice differs"}) { summary status } }`,
			wantData: []any{"reportDiscrepancy", "status"}, wantValue: "open"},
		{name: "discrepancy/inbox", user: platAdm, query: `{ discrepancies { summary } }`,
			wantData: []any{"discrepancies", 0, "summary"}, wantValue: "Invoice differs"},
		{name: "discrepancy/owner may not", user: ownerA, query: `{ discrepancies { id } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "logs/audit and e-mail pages", user: platAdm,
			query:    `{ auditLog(first: 1) { items { action } nextCursor } emailLog(first: 5) { items { recipient } nextCursor } }`,
			wantData: []any{"auditLog", "nextCursor"}},
		{name: "logs/first below 1", user: platAdm, query: `{ emailLog(first: 0) { items { id } } }`, wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "delete customer/platform_admin", user: platAdm, query: `mutation { deleteCustomer(id: "cust-globex") }`,
			wantData: []any{"deleteCustomer"}, wantValue: true},
		{name: "delete customer/gone", user: platAdm, query: `{ customer(id: "cust-globex") { id } }`, wantCodes: []string{"NOT_FOUND"}},
	})
	got := e.gql(platAdm, `{ environment { name value } }`, nil)
	for _, v := range dig(got.Data, "environment").([]any) {
		if dig(v, "name") == "SMTP_PASSWORD" && dig(v, "value") == "hunter2" {
			t.Errorf("a secret variable's value is shown: %s", got.Raw)
		}
	}
}

// TestCustomerConfigAndBilling: SSO, identity providers, webhooks (the
// secret answered once), service accounts (the client secret answered
// once) and billing through GraphQL.
//
// spec: R5.7-strict, R5.7-redact
func TestCustomerConfigAndBilling(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runActions(t, e, []actionCase{
		{name: "sso/owner", user: ownerA, query: `mutation { putSSOSettings(customerId: "cust-acme", input: {mfaForced: true}) { mfaForced passwordAllowed } }`,
			wantData: []any{"putSSOSettings", "mfaForced"}, wantValue: true},
		{name: "sso/read back", user: ownerA, query: `{ customer(id: "cust-acme") { sso { mfaForced } } }`,
			wantData: []any{"customer", "sso", "mfaForced"}, wantValue: true},
		{name: "sso/passkeys required without allowed", user: ownerA,
			query:     `mutation { putSSOSettings(customerId: "cust-acme", input: {passkeyRequired: true}) { passkeyRequired } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "sso/passkeys", user: ownerA,
			query:    `mutation { putSSOSettings(customerId: "cust-acme", input: {passkeyAllowed: true, passkeyRequired: true}) { passkeyAllowed passkeyRequired } }`,
			wantData: []any{"putSSOSettings", "passkeyRequired"}, wantValue: true},
		{name: "sso/passkeys read back", user: ownerA, query: `{ customer(id: "cust-acme") { sso { passkeyAllowed } } }`,
			wantData: []any{"customer", "sso", "passkeyAllowed"}, wantValue: true},
		{name: "sso/viewer may not", user: viewerA, query: `mutation { putSSOSettings(customerId: "cust-acme", input: {mfaForced: false}) { mfaForced } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "sso/owner of another customer: not found", user: ownerG,
			query: `mutation { putSSOSettings(customerId: "cust-acme", input: {mfaForced: false}) { mfaForced } }`, wantCodes: []string{"NOT_FOUND"}},
		{name: "idp/create", user: ownerA,
			query: `mutation { createIdentityProvider(customerId: "cust-acme", input: {name: "Okta", issuer: "https://acme.okta.example",
				clientId: "okta-client", clientSecret: "s3cret-value"}) { name clientSecretSet linkTrusted } }`,
			wantData: []any{"createIdentityProvider", "clientSecretSet"}, wantValue: true},
		{name: "idp/listed", user: ownerA, query: `{ customer(id: "cust-acme") { identityProviders { id name } } }`,
			wantData: []any{"customer", "identityProviders", 0, "name"}, wantValue: "Okta"},
		{name: "webhook/create answers the secret", user: ownerA,
			query:    `mutation { createWebhook(customerId: "cust-acme", input: {url: "https://hooks.acme.invalid/platform"}) { webhook { id url } secret } }`,
			wantData: []any{"createWebhook", "secret"}},
		{name: "webhook/listed with deliveries", user: ownerA, query: `{ customer(id: "cust-acme") { webhooks { url deliveries { id } } } }`,
			wantData: []any{"customer", "webhooks", 0, "deliveries"}},
		{name: "webhook/account_manager of another customer", user: acctMgr,
			query:     `mutation { createWebhook(customerId: "cust-globex", input: {url: "https://hooks.acme.invalid/x"}) { secret } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "service account/create answers the secret", user: ownerA,
			query:    `mutation { createServiceAccount(customerId: "cust-acme", input: {name: "ci", role: "viewer"}) { serviceAccount { id clientId role } clientSecret } }`,
			wantData: []any{"createServiceAccount", "clientSecret"}},
		{name: "service account/listed", user: ownerA, query: `{ customer(id: "cust-acme") { serviceAccounts { name role } } }`,
			wantData: []any{"customer", "serviceAccounts", 0, "name"}, wantValue: "ci"},
		{name: "scim token/create answers the token", user: ownerA,
			query:    `mutation { createScimToken(customerId: "cust-acme", name: "Entra ID") { scimToken { id name lastUsedAt revokedAt } token } }`,
			wantData: []any{"createScimToken", "token"}},
		{name: "scim token/listed", user: ownerA, query: `{ customer(id: "cust-acme") { scimTokens { name revokedAt } } }`,
			wantData: []any{"customer", "scimTokens", 0, "name"}, wantValue: "Entra ID"},
		{name: "scim token/viewer may not", user: viewerA,
			query:     `mutation { createScimToken(customerId: "cust-acme", name: "x") { token } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "scim token/account_manager of another customer", user: acctMgr,
			query:     `mutation { createScimToken(customerId: "cust-globex", name: "x") { token } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "credit/finance_admin", user: financeAdm,
			query:    `mutation { issueCredit(customerId: "cust-acme", input: {amount: 25, currency: "EUR", reason: "Outage"}) { amount reason } }`,
			wantData: []any{"issueCredit", "amount"}, wantValue: 25.0},
		{name: "credit/billing may read", user: billingA, query: `{ customer(id: "cust-acme") { credits { items { amount } } invoices { items { total } } payments { items { amount } } } }`,
			wantData: []any{"customer", "credits", "items", 0, "amount"}, wantValue: 25.0},
		{name: "credit/viewer may not", user: viewerA, query: `{ customer(id: "cust-acme") { credits { items { amount } } } }`,
			wantCodes: []string{"FORBIDDEN"}},
		{name: "billing setup/owner", user: ownerA,
			query:    `mutation { putBillingSetup(customerId: "cust-acme", input: {billingEmail: "ap@acme.example", currency: "EUR", paymentMethod: "invoice"}) { billingEmail } }`,
			wantData: []any{"putBillingSetup", "billingEmail"}, wantValue: "ap@acme.example"},
		{name: "billing setup/invalid e-mail", user: ownerA,
			query:     `mutation { putBillingSetup(customerId: "cust-acme", input: {billingEmail: "nope", currency: "EUR", paymentMethod: "invoice"}) { billingEmail } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
	})
	// The secrets are answered once: never by a read.
	got := e.gql(ownerA, `{ customer(id: "cust-acme") { webhooks { id } serviceAccounts { id clientId } } }`, nil)
	if len(got.Errors) > 0 {
		t.Fatalf("errors: %s", got.Raw)
	}
	for _, f := range []string{"secret", "clientSecret"} {
		if _, err := e.gqlErr(ownerA, `{ customer(id: "cust-acme") { webhooks { `+f+` } } }`); err == "" {
			t.Errorf("Webhook.%s is queryable", f)
		}
	}
	if _, err := e.gqlErr(ownerA, `{ customer(id: "cust-acme") { scimTokens { token } } }`); err == "" {
		t.Error("ScimToken.token is queryable")
	}
	// Revoking: the token shows revoked.
	got = e.gql(ownerA, `{ customer(id: "cust-acme") { scimTokens { id } } }`, nil)
	id := got.Data["customer"].(map[string]any)["scimTokens"].([]any)[0].(map[string]any)["id"].(string)
	if got, err := e.gqlErr(ownerA, `mutation { revokeScimToken(id: "`+id+`") }`); err != "" {
		t.Fatalf("revoke: %s %s", err, got.Raw)
	}
	got = e.gql(ownerA, `{ customer(id: "cust-acme") { scimTokens { revokedAt } } }`, nil)
	if got.Data["customer"].(map[string]any)["scimTokens"].([]any)[0].(map[string]any)["revokedAt"] == nil {
		t.Errorf("the revoked token shows live: %s", got.Raw)
	}
}

// gqlErr answers the first error's code of a query ("" when none).
func (e *env) gqlErr(user, query string) (gqlResponse, string) {
	got := e.gql(user, query, nil)
	if len(got.Errors) == 0 {
		return got, ""
	}
	c := got.Errors[0].code()
	if c == "" {
		c = got.Errors[0].Message
	}
	return got, c
}
