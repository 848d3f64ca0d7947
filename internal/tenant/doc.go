// Package tenant is the tenant role: the tenant backend (auth config, the
// session made from the identity provider's tokens) and the tenant web app
// it serves; the data API mounts beside it.
package tenant
