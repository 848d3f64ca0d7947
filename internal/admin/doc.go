// Package admin holds the console's administration rules (R4.6-customer-side,
// R4.6-infra, R5.7-matrix): every administration operation declared once
// (operations.go), and one Service, which the REST transport (adminhttp) and
// the GraphQL resolvers (graph/) call alike.
//
// Service is composed of one part per noun, each a type in its own file(s)
// with its view types, inputs and checks, whose methods are Service's:
// customers (customer.go), tenants (tenant.go), instances (instance.go),
// users (user.go) and internalUsers (internal_user.go), which share accounts
// (account.go: new users and their invitations), grants (grant.go),
// serviceAccounts (service_account.go), identityProviders
// (identity_provider.go, sso.go), webhooks (webhook.go), billing (billing.go,
// invoice_next.go, usage.go), catalog (catalog.go), releases (release.go),
// environment (environment.go), systemWorkers (system_worker.go),
// userAttributes (user_attribute.go), discrepancies (discrepancy.go), logs
// (audit.go, email.go) and me, the caller's own (me.go, focus.go,
// subscription.go).
//
// The parts share only the core (core.go): the store, the decisions on an
// operation (check, checkRole, decided, customerFor), the clock and the
// sealer; the audited write and the steps every method is made of (check,
// load, write in the audit's transaction, view) are built on it
// (audited.go, view.go, page.go). A tenant operation is written in tenant.go
// against the core alone; what a part needs besides (the identity
// provider's applications, the egress policy) it holds itself, set by the
// options of NewService.
package admin
