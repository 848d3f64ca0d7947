package idp

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/clientkeys"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Dynamic client registration (RFC 7591) and its management (RFC 7592;
// D-dynamic-registration). A client registers itself at PathRegister with
// an initial access token a customer's owner or admin made: the token says
// whether it may register public or confidential clients, the hosts their
// redirect URIs may name, until when and how many times. The client
// belongs to that customer; it reads, updates and deletes its registration
// at its registration_client_uri with the registration access token it was
// answered (kept as a hash). Metadata is checked strictly: the code flow
// only (PKCE S256 as for every client), exact redirect URIs, the
// authentication methods the token endpoint takes, keys (never a jwks_uri)
// for private_key_jwt.

// PathRegister is the registration endpoint; a client's registration is at
// PathRegister + "/" + client_id.
const PathRegister = "/oauth/v2/register"

// maxRegistration bounds a registration request's body.
const maxRegistration = 64 << 10

// registrar serves the registration endpoint and the registrations.
type registrar struct {
	*core
	origins *corsOrigins // forgotten when a client's redirect URIs change
}

func (p *registrar) routes(r chi.Router) {
	r = r.With(p.limit)
	r.Post(PathRegister, p.register)
	r.Get(PathRegister+"/{clientID}", p.readRegistration)
	r.Put(PathRegister+"/{clientID}", p.updateRegistration)
	r.Delete(PathRegister+"/{clientID}", p.deleteRegistration)
}

// limit counts requests to the registration endpoint and to the
// registrations (each looks a token up; a registration writes a client)
// against the client address's AuthorizeRateLimit a minute, on a counter
// of their own, before anything is read; past it 429 with Retry-After and
// nothing done.
func (p *registrar) limit(next http.Handler) http.Handler {
	return limited(p.core, "register", next, tooMany("registration requests"))
}

// clientMetadata is what a client says of itself (RFC 7591 section 2);
// other members are ignored, as section 2 asks.
type clientMetadata struct {
	ClientID                string          `json:"client_id,omitempty"`
	RedirectURIs            []string        `json:"redirect_uris"`
	TokenEndpointAuthMethod string          `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string        `json:"grant_types,omitempty"`
	ResponseTypes           []string        `json:"response_types,omitempty"`
	ClientName              string          `json:"client_name,omitempty"`
	PostLogoutRedirectURIs  []string        `json:"post_logout_redirect_uris,omitempty"`
	JWKS                    json.RawMessage `json:"jwks,omitempty"`
	JWKSURI                 string          `json:"jwks_uri,omitempty"`
	DPoPBound               bool            `json:"dpop_bound_access_tokens,omitempty"`
}

// registration is the answer of a registration (RFC 7591 section 3.2.1,
// RFC 7592 section 3).
type registration struct {
	clientMetadata
	ClientSecret            string `json:"client_secret,omitempty"`
	ClientIDIssuedAt        int64  `json:"client_id_issued_at"`
	ClientSecretExpiresAt   *int64 `json:"client_secret_expires_at,omitempty"`
	RegistrationAccessToken string `json:"registration_access_token,omitempty"`
	RegistrationClientURI   string `json:"registration_client_uri"`
}

// registrationError is RFC 7591 section 3.2.2's answer.
func registrationError(w http.ResponseWriter, status int, code, desc string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="registration", error="invalid_token"`)
	}
	oauthError(w, status, code, desc)
}

// bearerOf is the bearer token of r, or "".
func bearerOf(r *http.Request) string {
	t, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if len(t) > 512 {
		return ""
	}
	return strings.TrimSpace(t)
}

// readMetadata decodes a registration request's metadata.
func readMetadata(w http.ResponseWriter, r *http.Request) (clientMetadata, bool) {
	var m clientMetadata
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "the metadata must be sent as application/json")
		return m, false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRegistration)).Decode(&m); err != nil {
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "the metadata is not a JSON object of at most 64 KiB")
		return m, false
	}
	return m, true
}

// checkMetadata applies m to app (new or registered) as token allows, or
// answers why not: the error code (invalid_redirect_uri or
// invalid_client_metadata) and description.
func checkMetadata(m clientMetadata, t *store.RegistrationToken, app *platform.Application) (code, desc string) {
	bad := func(d string) (string, string) { return "invalid_client_metadata", d }
	if m.JWKSURI != "" {
		return bad("jwks_uri is not supported: register the keys as jwks")
	}
	if why := codeFlowOnly(m.GrantTypes, m.ResponseTypes); why != "" {
		return bad(why)
	}
	method := m.TokenEndpointAuthMethod
	if method == "" {
		method = platform.AuthSecretBasic // RFC 7591 section 2
	}
	kind := platform.AppWeb
	switch method {
	case platform.AuthNone:
		kind = platform.AppPublic
		if !t.AllowPublic {
			return bad("this initial access token does not register public clients")
		}
	case platform.AuthSecretBasic, platform.AuthSecretPost, platform.AuthPrivateKeyJWT:
		if !t.AllowConfidential {
			return bad("this initial access token does not register confidential clients")
		}
	default:
		return bad("token_endpoint_auth_method must be none, client_secret_basic, client_secret_post or private_key_jwt")
	}
	if app.Kind != "" && app.Kind != kind {
		return bad("a registered client stays public or confidential")
	}
	switch {
	case method == platform.AuthPrivateKeyJWT && len(m.JWKS) == 0:
		return bad("private_key_jwt needs jwks")
	case method != platform.AuthPrivateKeyJWT && len(m.JWKS) > 0:
		return bad("jwks are for private_key_jwt")
	}
	if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > 10 || len(m.PostLogoutRedirectURIs) > 10 {
		return "invalid_redirect_uri", "redirect_uris must name 1 to 10 URIs (post_logout_redirect_uris at most 10)"
	}
	for _, list := range [][]string{m.RedirectURIs, m.PostLogoutRedirectURIs} {
		for _, u := range list {
			if len(u) > 2000 || platform.CheckRedirectURI("redirect_uris", u) != nil {
				return "invalid_redirect_uri", "redirect URIs must be absolute http(s) URIs without a fragment"
			}
			p, _ := url.Parse(u)
			if !platform.HostAllowed(p.Hostname(), t.RedirectHosts) {
				return "invalid_redirect_uri", "this initial access token does not allow redirect URIs at " + p.Hostname()
			}
			if p.Scheme == "http" && !platform.IsLoopback(p.Hostname()) {
				return "invalid_redirect_uri", "redirect URIs use https (http on a loopback host only)"
			}
		}
	}
	name := strings.TrimSpace(m.ClientName)
	if name == "" {
		name = "Registered client"
	}
	if len(name) > 200 {
		return bad("client_name is longer than 200 characters")
	}
	if method == platform.AuthPrivateKeyJWT {
		jwks, err := clientkeys.Validate(m.JWKS)
		if err != nil {
			return bad(platform.ErrorMessage(err))
		}
		app.JWKS = jwks
	} else {
		app.JWKS = ""
	}
	app.Kind, app.AuthMethod, app.Name = kind, method, name
	app.RedirectURIs, app.PostLogoutRedirectURIs = slices.Clone(m.RedirectURIs), slices.Clone(m.PostLogoutRedirectURIs)
	app.RequireDPoP = m.DPoPBound
	return "", ""
}

// register serves RFC 7591's registration request.
func (p *registrar) register(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	initial := bearerOf(r)
	if initial == "" {
		registrationError(w, http.StatusUnauthorized, "invalid_token", "an initial access token is required")
		return
	}
	m, ok := readMetadata(w, r)
	if !ok {
		return
	}
	now := p.now().UTC().Truncate(time.Second)
	app := &platform.Application{AppID: uuid.NewString(), ClientID: newClientID(), CreatedAt: now}
	registrationToken := randomToken()
	app.RegistrationHash = hashSecret(registrationToken)
	var secret, code, desc string
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		t, err := tx.UseRegistrationToken(ctx, hashSecret(initial), now)
		if err != nil {
			return err
		}
		if code, desc = checkMetadata(m, t, app); code != "" {
			return errRefused
		}
		app.RegisteredCustomerID, app.RegistrationTokenID = t.CustomerID, t.ID
		if app.AuthMethod == platform.AuthSecretBasic || app.AuthMethod == platform.AuthSecretPost {
			secret = NewSecret()
			app.SecretHash = hashSecret(secret)
		}
		if err := tx.CreateApplication(ctx, app); err != nil {
			return err
		}
		return p.record(ctx, tx, registrationEvent(audit.ClientRegistered, app))
	})
	switch {
	case errors.Is(err, errRefused):
		registrationError(w, http.StatusBadRequest, code, desc)
		return
	case platform.ErrorCode(err) == platform.ENOTFOUND:
		registrationError(w, http.StatusUnauthorized, "invalid_token", "the initial access token is not valid, expired or used up")
		return
	case platform.ErrorCode(err) == platform.EINVALID:
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", platform.ErrorMessage(err))
		return
	case err != nil:
		httpapi.WriteError(w, r, err)
		return
	}
	p.origins.forget()
	out := p.registrationOf(app)
	out.ClientSecret, out.RegistrationAccessToken = secret, registrationToken
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusCreated, out)
}

// codeFlowOnly says what is wrong with a client's grant and response
// types (RFC 7591 section 2), or "": the code flow and refresh only.
func codeFlowOnly(grantTypes, responseTypes []string) string {
	for _, g := range grantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return "grant_types may name authorization_code and refresh_token only"
		}
	}
	for _, rt := range responseTypes {
		if rt != "code" {
			return "response_types may name code only"
		}
	}
	return ""
}

// errRefused ends a registration's transaction whose metadata was refused.
var errRefused = errors.New("metadata refused")

// registrationEvent is the audit event of a change to app's registration,
// seen by its customer.
func registrationEvent(kind audit.Kind, app *platform.Application) audit.Entry {
	return audit.Entry{Kind: kind, Target: audit.Target{Type: "application", ID: app.ClientID, Name: app.Name},
		CustomerID: app.RegisteredCustomerID}
}

// registrationOf is app's registration as RFC 7592 answers it (without
// secrets).
func (p *registrar) registrationOf(app *platform.Application) registration {
	m := clientMetadata{ClientID: app.ClientID, RedirectURIs: app.RedirectURIs, TokenEndpointAuthMethod: app.TokenAuthMethod(),
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}, ClientName: app.Name,
		PostLogoutRedirectURIs: app.PostLogoutRedirectURIs, DPoPBound: app.RequireDPoP}
	if app.JWKS != "" {
		m.JWKS = json.RawMessage(app.JWKS)
	}
	out := registration{clientMetadata: m, ClientIDIssuedAt: app.CreatedAt.Unix(),
		RegistrationClientURI: p.cfg.Issuer + PathRegister + "/" + url.PathEscape(app.ClientID)}
	if app.SecretHash != "" {
		never := int64(0)
		out.ClientSecretExpiresAt = &never
	}
	return out
}

// registered is the registered client of the request's path whose
// registration access token the request carries, or answers 401: an
// unknown client, a client made another way and another client's token
// are all refused alike.
func (p *registrar) registered(w http.ResponseWriter, r *http.Request) (*platform.Application, bool) {
	token := bearerOf(r)
	app, err := p.store.ApplicationByClientID(r.Context(), chi.URLParam(r, "clientID"))
	if token == "" || err != nil || app.RegisteredCustomerID == "" || app.RegistrationHash == "" ||
		subtle.ConstantTimeCompare([]byte(hashSecret(token)), []byte(app.RegistrationHash)) != 1 {
		registrationError(w, http.StatusUnauthorized, "invalid_token", "the registration access token is not valid for this client")
		return nil, false
	}
	return app, true
}

// readRegistration answers a client's registration (RFC 7592 section 2.1).
func (p *registrar) readRegistration(w http.ResponseWriter, r *http.Request) {
	app, ok := p.registered(w, r)
	if !ok {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, p.registrationOf(app))
}

// updateRegistration replaces a client's metadata (RFC 7592 section 2.2),
// checked as at registration against the initial access token that
// registered it (which may have expired or been used up since, but not
// revoked). The client id, secret and keys method stay.
func (p *registrar) updateRegistration(w http.ResponseWriter, r *http.Request) {
	app, ok := p.registered(w, r)
	if !ok {
		return
	}
	m, ok := readMetadata(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if m.ClientID != app.ClientID {
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "client_id must be the registered client's")
		return
	}
	t, err := p.store.RegistrationToken(ctx, app.RegistrationTokenID)
	if err != nil || !t.RevokedAt.IsZero() {
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "the initial access token that registered this client was revoked")
		return
	}
	before := app.TokenAuthMethod()
	if code, desc := checkMetadata(m, t, app); code != "" {
		registrationError(w, http.StatusBadRequest, code, desc)
		return
	}
	if app.AuthMethod != before && (app.AuthMethod == platform.AuthPrivateKeyJWT || before == platform.AuthPrivateKeyJWT) {
		registrationError(w, http.StatusBadRequest, "invalid_client_metadata", "token_endpoint_auth_method cannot change between a secret and keys")
		return
	}
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.UpdateApplication(ctx, app); err != nil {
			return err
		}
		return p.record(ctx, tx, registrationEvent(audit.ClientUpdated, app))
	})
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	p.origins.forget()
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, p.registrationOf(app))
}

// deleteRegistration removes a client (RFC 7592 section 2.3): its grants
// end with it.
func (p *registrar) deleteRegistration(w http.ResponseWriter, r *http.Request) {
	app, ok := p.registered(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.RevokeClientGrants(ctx, app.ClientID, p.now()); err != nil {
			return err
		}
		if err := tx.DeleteApplication(ctx, app.AppID); err != nil {
			return err
		}
		return p.record(ctx, tx, registrationEvent(audit.ClientDeleted, app))
	})
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	p.origins.forget()
	w.WriteHeader(http.StatusNoContent)
}
