package idp

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/dpop"
)

// endpoints are the OAuth endpoints the provider puts around op: client
// authentication at the token endpoint (clientauth.go), DPoP proofs and
// sender-constrained tokens (dpop.go), pushed
// authorization requests (par.go), the device authorization endpoint
// (device.go), the refresh grace and the id_token rule of refreshes
// (refreshgrace.go, refresh.go), the token exchange (exchange.go), an impersonated code's
// id_token lifetime (impersonation_authorize.go), discovery and the bearer challenge
// (discovery.go), CORS (cors.go).
type endpoints struct {
	*core
	op      *op.Provider
	storage *storage
	origins *corsOrigins
	// nonces are the DPoP nonces of the token endpoint (D-dpop).
	nonces *dpop.Nonces
}

// routes serves the OAuth endpoints that are not pages: token, PAR, device
// authorization, discovery, userinfo, keys, revocation and introspection.
func (p *endpoints) routes(r chi.Router) {
	r.With(p.cors).Get(DiscoveryPath, p.discovery)
	r.With(p.cors).Options(DiscoveryPath, allowGet)
	r.With(p.cors).Handle(PathToken, p.supportedGrants(p.clientAuth(p.dpopProof(p.tokenExchange(p.refreshGrace(p.refreshWithoutIDToken(p.impersonatedCode(p.op))))))))
	r.Post(PathDeviceAuthorization, p.deviceAuthorization)
	r.With(p.limitPushed, p.clientAuth).Post(PathPAR, p.pushAuthorization)
	r.With(p.cors).Handle(PathUserinfo, p.bearerChallenge(refuseBoundBearer(p.op)))
	r.With(p.cors).Handle(PathKeys, p.op)
	r.With(p.cors).Handle(PathRevoke, p.op)
	r.With(p.cors).Handle(PathIntrospect, p.op)
}

// allowGet answers an OPTIONS request (other than a preflight) to a
// resource that is only read.
func allowGet(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "GET, HEAD, OPTIONS")
	w.WriteHeader(http.StatusNoContent)
}
