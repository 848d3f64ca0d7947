package idp

import "github.com/zitadel/oidc/v3/pkg/op"

// endpoints are the OAuth endpoints the provider puts around op: client
// authentication at the token endpoint (clientauth.go), pushed
// authorization requests (par.go), the device authorization endpoint
// (device.go), the refresh grace and the id_token rule of refreshes
// (refreshgrace.go, refresh.go), discovery and the bearer challenge
// (discovery.go), CORS (cors.go).
type endpoints struct {
	*core
	op      *op.Provider
	storage *storage
	origins *corsOrigins
}
