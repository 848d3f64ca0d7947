// Package admin holds the console's administration rules (R4.6-customer-side,
// R4.6-infra, R5.7-matrix): every administration operation declared once
// (operations.go), and one Service, which the REST transport (adminhttp) and
// the GraphQL resolvers (graph/) call alike.
//
// Service is composed of one part per noun, each a type in its own file(s)
// with its view types, inputs and checks, whose methods are Service's:
// customers (customer.go), tenants (tenant.go), instances (instance.go), users
// (user.go) and internalUsers (internal_user.go), which share accounts
// (account.go: new users, AccountInput, and their invitations), grants
// (grant.go), serviceAccounts (service_account.go), identityProviders
// (identity_provider.go, sso.go; the login policy that sso.go and
// security_policy.go each show a side of is read and changed once, in
// login_policy.go), webhooks (webhook.go), billing with usage (billing.go),
// catalog (catalog.go), releases (release.go), environment (environment.go),
// systemWorkers (system_worker.go), userAttributes (user_attribute.go),
// discrepancies (discrepancy.go), logs, the audit and e-mail logs (logs.go),
// and me, the caller's own data (me.go).
//
// The parts share only the core (core.go): the store, the decisions on an
// operation (check, checkRole, infra, decided, customerFor, ofCustomer,
// createIn), the clock and the sealer. The audited write and the steps methods
// are made of are built on it once: a write and the view of what it wrote
// (audited.go: audited, created, changed, reread, and the whole methods of the
// platform's own records, infraList, infraCreate, infraGet, infraChange,
// infraWrite), the pages of a list (page.go: namePage, searchPage, newestPage,
// customerList, internalList), the views (view.go: views, viewing, listing),
// the checks of an input's fields (validate.go: fields, applied by a record's
// patch, which its create applies too). A tenant operation is written in
// tenant.go against the core alone; what a part needs besides (the identity
// provider's applications, the egress policy) it holds itself, set by the
// options of NewService.
package admin
