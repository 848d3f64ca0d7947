package idp

import (
	"net/http"
	"slices"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/httpapi"
)

// DiscoveryPath is where the provider's metadata is served (OpenID Connect
// Discovery 1.0).
const DiscoveryPath = "/.well-known/openid-configuration"

// supportedGrantTypes are the grants the token endpoint serves; any other
// grant_type is refused before the op library sees it.
var supportedGrantTypes = []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken, oidc.GrantTypeClientCredentials,
	oidc.GrantTypeDeviceCode, oidc.GrantTypeTokenExchange}

// claimsSupported are the claims the provider's tokens and userinfo carry.
var claimsSupported = []string{"sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "at_hash", "azp",
	"sid", "name", "locale", "email", "email_verified", ClaimResourceOwnerID, ClaimResourceOwnerName}

// discovery serves the metadata of what works, and nothing else: the op
// library's document without the implicit and hybrid response types, the
// device and jwt-bearer grants, request objects, session
// iframes and client authentication methods the provider does not accept.
func (p *endpoints) discovery(w http.ResponseWriter, r *http.Request) {
	ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
	d := op.CreateDiscoveryConfig(ctx, p.op, p.storage)
	d.ResponseTypesSupported = []string{string(oidc.ResponseTypeCode)}
	d.ResponseModesSupported = []string{string(oidc.ResponseModeQuery)}
	d.GrantTypesSupported = slices.Clone(supportedGrantTypes)
	d.DeviceAuthorizationEndpoint = p.cfg.Issuer + PathDeviceAuthorization
	d.RegistrationEndpoint = p.cfg.Issuer + PathRegister // with an initial access token (RFC 7591)
	d.CheckSessionIframe = ""
	d.RequestParameterSupported = false
	d.RequestObjectSigningAlgValuesSupported = nil
	d.CodeChallengeMethodsSupported = []oidc.CodeChallengeMethod{oidc.CodeChallengeMethodS256}
	d.TokenEndpointAuthMethodsSupported = []oidc.AuthMethod{oidc.AuthMethodNone, oidc.AuthMethodBasic, oidc.AuthMethodPost,
		oidc.AuthMethodPrivateKeyJWT}
	d.TokenEndpointAuthSigningAlgValuesSupported = algNames(assertionAlgorithms)
	d.RevocationEndpointAuthMethodsSupported = []oidc.AuthMethod{oidc.AuthMethodNone, oidc.AuthMethodBasic}
	d.RevocationEndpointAuthSigningAlgValuesSupported = nil
	d.IntrospectionEndpointAuthMethodsSupported = []oidc.AuthMethod{oidc.AuthMethodBasic}
	d.IntrospectionEndpointAuthSigningAlgValuesSupported = nil
	d.ClaimsSupported = slices.Clone(claimsSupported)
	d.ACRValuesSupported = slices.Clone(acrValuesSupported)
	d.ClaimsParameterSupported = false
	d.RequestURIParameterSupported = false
	w.Header().Set("Cache-Control", "public, max-age=300")
	httpapi.WriteJSON(w, http.StatusOK, discoveryDocument{DiscoveryConfiguration: d,
		PAREndpoint: p.cfg.Issuer + PathPAR, BackchannelLogoutSupported: true, BackchannelLogoutSessionSupported: true,
		DPoPSigningAlgs: dpop.AlgorithmNames(), ClientIDMetadataDocumentSupported: true})
}

// discoveryDocument is the op library's metadata with what it has no field
// for: the PAR endpoint (RFC 9126 section 5), back-channel logout
// (supported for clients that register a URI; the logout token carries sid),
// DPoP and client ID metadata documents.
type discoveryDocument struct {
	*oidc.DiscoveryConfiguration
	PAREndpoint                       string `json:"pushed_authorization_request_endpoint"`
	RequirePAR                        bool   `json:"require_pushed_authorization_requests"`
	BackchannelLogoutSupported        bool   `json:"backchannel_logout_supported"`
	BackchannelLogoutSessionSupported bool   `json:"backchannel_logout_session_supported"`
	// DPoPSigningAlgs are the algorithms of the DPoP proofs the token
	// endpoint accepts (RFC 9449 section 5.1).
	DPoPSigningAlgs []string `json:"dpop_signing_alg_values_supported"`
	// ClientIDMetadataDocumentSupported: a client_id may be the https URL
	// of the client's metadata document (D-client-metadata-documents).
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported"`
}

// supportedGrants refuses, with RFC 6749's unsupported_grant_type, every
// grant the provider does not offer.
func (p *endpoints) supportedGrants(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if err := r.ParseForm(); err != nil {
				oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
				return
			}
			if !slices.Contains(supportedGrantTypes, oidc.GrantType(r.PostForm.Get("grant_type"))) {
				oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type is not supported")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// bearerChallenge gives a refused bearer request RFC 6750's answer: 401
// with WWW-Authenticate (error="invalid_token" when a token was sent), and
// an OAuth error body. The op library answers a missing or invalid token
// with plain text and an inactive one with 403.
func (p *endpoints) bearerChallenge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if holdAnswer(w, r, next, refused) == nil {
			return
		}
		challenge := `Bearer realm="` + p.cfg.Issuer + `"`
		code, desc := "invalid_request", "a bearer access token is required"
		if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.FormValue("access_token") != "" {
			code, desc = "invalid_token", "the access token is not valid"
			challenge += `, error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", challenge)
		oauthError(w, http.StatusUnauthorized, code, desc)
	})
}

// refused picks the 401 and 403 answers bearerChallenge replaces.
func refused(code int, _ http.Header) bool {
	return code == http.StatusUnauthorized || code == http.StatusForbidden
}

func algNames(algs []jose.SignatureAlgorithm) []string {
	out := make([]string, len(algs))
	for i, a := range algs {
		out[i] = string(a)
	}
	return out
}
