package store

// The areas of the store. Each holds the methods of the files named after
// it and the row models of its tables, over the querier Store shares among
// them. A method that also writes another area's tables does so in a
// transaction, through the *Store that InTx hands out.
type (
	// Identity: users, their console roles and attributes, organizations
	// and login policies, the identity provider's and the tenant web app's
	// sessions, passkeys, TOTP and recovery codes, account links, external
	// identity providers and their logins, service accounts, and Principal
	// (identity_*.go).
	Identity struct{ *querier }
	// OIDC: the provider's authorization requests, access and refresh
	// tokens and their grants, applications (clients), signing keys,
	// device authorizations, pushed requests and back-channel logouts
	// (oidc_*.go).
	OIDC struct{ *querier }
	// Tenancy: customers, their domains and budgets, tenants and their
	// members and migrations, instances and connections, customer and
	// instance grants, focus mode, customers' identity providers, and the
	// parent → children batches of the dataloaders (tenancy_*.go).
	Tenancy struct{ *querier }
	// Billing: billing setups, invoices, payments, credits, the plan and
	// meter catalog, usage and the discrepancies inbox (billing_*.go).
	Billing struct{ *querier }
	// Data: the data API's masters, master records and their page marks,
	// projects, cx schedules and their rows, tenant summaries and
	// idempotency records (data_*.go).
	Data struct{ *querier }
	// Events: the audit log, the e-mail outbox and log, webhooks and their
	// deliveries, and notification subscriptions (events_*.go).
	Events struct{ *querier }
	// System: environment variables, releases, background workers, the
	// permission catalog and rate-limit counters (system_*.go).
	System struct{ *querier }
)
