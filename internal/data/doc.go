// Package data is the data API of the tenant role (docs/requirements.md 4.5): master-record
// listings, cx schedule uploads and the caller's tenants. Service holds the
// rules and checks each caller itself, so the REST handlers here and the
// GraphQL resolvers cannot disagree; the handlers only parse and encode.
package data
