// Package store keeps the platform's state in PostgreSQL or SQLite. Store composes the areas (areas.go:
// Identity, OIDC, Tenancy, Billing, Data, Events, System), each a type over one shared querier with the
// methods and row models of its own files (identity_*.go, oidc_*.go, …): one file per noun, one row model
// per table, its SQL written once and only reading and writing rows (the services validate and decide).
// InTx hands out the same composition bound to one transaction. postgres and sqlite adapt one driver each
// to Conn, and storetest holds the suite both must pass.
package store
