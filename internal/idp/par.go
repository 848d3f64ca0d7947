package idp

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Pushed authorization requests (RFC 9126). A client posts the parameters
// of its authorization request to PathPAR, authenticated as at the token
// endpoint (a public client by its client_id alone), and gets a request_uri
// that stands for them at the authorization endpoint for a minute, once,
// for that client only. The parameters are validated when pushed, as the
// authorization endpoint would, and again when used. An application with
// RequirePAR is refused any other way in.
const (
	PathPAR          = "/oauth/v2/par"
	requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
	parLifetime      = 60 * time.Second
)

// clientAuthFields are the form fields of client authentication, not
// parameters of the authorization request.
var clientAuthFields = []string{"client_secret", "client_assertion", "client_assertion_type"}

// pushAuthorization stores a pushed authorization request (RFC 9126
// section 2). clientAuth has run: an assertion is verified, a secret came
// the registered way.
func (p *endpoints) pushAuthorization(w http.ResponseWriter, r *http.Request) {
	ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
	app, err := p.pushingClient(r)
	if err != nil {
		oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
		return
	}
	form := r.PostForm
	switch {
	case form.Has("request_uri"):
		oauthError(w, http.StatusBadRequest, "invalid_request", "request_uri is not a parameter of a pushed request")
		return
	case form.Has("request"):
		oauthError(w, http.StatusBadRequest, "request_not_supported", "request objects are not supported")
		return
	case form.Get("client_id") != "" && form.Get("client_id") != app.ClientID:
		oauthError(w, http.StatusBadRequest, "invalid_request", "client_id is not the authenticated client")
		return
	}
	params := url.Values{}
	for k, v := range form {
		params[k] = v
	}
	for _, k := range clientAuthFields {
		params.Del(k)
	}
	params.Set("client_id", app.ClientID)
	if code, desc := p.pushedKey(r, params); code != "" {
		oauthError(w, http.StatusBadRequest, code, desc)
		return
	}
	if err := p.validatePushed(r, params); err != nil {
		var e *oidc.Error
		if errors.As(err, &e) {
			oauthError(w, http.StatusBadRequest, string(e.ErrorType), e.Description)
			return
		}
		httpapi.WriteError(w, r, err)
		return
	}
	uri := requestURIPrefix + randomToken()
	if err := p.store.CreatePushedRequest(ctx, hashSecret(uri), app.ClientID, params.Encode(), p.now().Add(parLifetime)); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"request_uri": uri, "expires_in": int(parLifetime / time.Second)})
}

// validatePushed checks pushed parameters as the authorization endpoint
// will: the op library's checks against the client (redirect URI exactly
// registered, response type, scopes, prompt, id_token_hint) and this
// provider's (PKCE S256, bounded lengths).
func (p *endpoints) validatePushed(r *http.Request, params url.Values) error {
	ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
	req := new(oidc.AuthRequest)
	if err := p.op.Decoder().Decode(req, params); err != nil {
		return oidc.ErrInvalidRequest().WithDescription("the request's parameters could not be read")
	}
	c, err := p.storage.client(ctx, req.ClientID)
	if err != nil {
		return err
	}
	if _, err := op.ValidateAuthRequestClient(ctx, req, c, p.op.IDTokenHintVerifier(ctx)); err != nil {
		return err
	}
	if err := checkAuthParams(req); err != nil {
		return err
	}
	return nil
}

// pushingClient authenticates the client of a pushed request: by its
// verified assertion, by its secret (constant-time), or, for a public
// application, by its client_id and nothing else.
func (p *endpoints) pushingClient(r *http.Request) (*platform.Application, error) {
	ctx := r.Context()
	refused := errors.New("client authentication failed")
	if id := assertedClient(ctx); id != "" {
		return p.application(ctx, id)
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	app, err := p.application(ctx, id)
	if err != nil || app.Kind == platform.AppService {
		return nil, refused
	}
	if app.TokenAuthMethod() == platform.AuthNone {
		if secret != "" {
			return nil, refused
		}
		return app, nil
	}
	if secret == "" || p.storage.AuthorizeClientIDSecret(ctx, id, secret) != nil {
		return nil, refused
	}
	return app, nil
}

// pushedRequests resolves a request_uri at the authorization endpoint into
// the parameters pushed for it, used up; a request_uri that is unknown,
// expired, used, or another client's is refused with a page (its redirect
// URI is not known). An application with RequirePAR gets nothing else.
func (p *endpoints) pushedRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			p.renderError(w, r, http.StatusBadRequest, "This sign-in request is not valid", "Go back to the application and try again.")
			return
		}
		ctx := r.Context()
		clientID, requestURI := r.Form.Get("client_id"), r.Form.Get("request_uri")
		if requestURI == "" {
			if app, err := p.application(ctx, clientID); err == nil && app.RequirePAR {
				p.renderError(w, r, http.StatusBadRequest, "This sign-in request is not valid",
					"This application must push its sign-in requests first (RFC 9126). Go back to the application and try again.")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		params, err := p.store.TakePushedRequest(ctx, hashSecret(requestURI), clientID, p.now())
		if p.failed(w, r, err, http.StatusBadRequest, "This sign-in request has expired",
			"It was used already, or is too old. Go back to the application and try again.") {
			return
		}
		pushed := r.Clone(ctx)
		pushed.Method, pushed.Body, pushed.ContentLength = http.MethodGet, http.NoBody, 0
		pushed.URL.RawQuery, pushed.Form, pushed.PostForm = params, nil, nil
		next.ServeHTTP(w, pushed)
	})
}

// pushedKey binds the code of a pushed request to a DPoP key (RFC 9449
// section 10.1): the key of a proof sent with the push (checked as at the
// token endpoint, for this endpoint, and spent), or the request's dpop_jkt;
// both must then name the same key. It answers an OAuth error code and
// description when the binding does not hold.
func (p *endpoints) pushedKey(r *http.Request, params url.Values) (code, desc string) {
	jkt := params.Get(paramDPoPJKT)
	if params.Has(paramDPoPJKT) && !validThumbprint(jkt) {
		return "invalid_request", "dpop_jkt must be a key's SHA-256 thumbprint (RFC 7638)"
	}
	proofs := r.Header.Values(dpop.HeaderProof)
	switch {
	case len(proofs) == 0:
		return "", ""
	case len(proofs) > 1:
		return "invalid_dpop_proof", "one DPoP proof per request"
	}
	proof, err := dpop.Verify(proofs[0], dpop.Expect{Method: http.MethodPost, URL: p.cfg.Issuer + PathPAR, Now: p.now()})
	if err != nil {
		return "invalid_dpop_proof", err.(*dpop.Error).Reason
	}
	if jkt != "" && !dpop.SameJKT(jkt, proof.JKT) {
		return "invalid_dpop_proof", "dpop_jkt names another key than the proof's"
	}
	fresh, err := p.store.UseDPoPProof(r.Context(), proof.ReplayKey(), proof.Expires())
	if err != nil {
		return "server_error", "the proof could not be recorded"
	}
	if !fresh {
		return "invalid_dpop_proof", "the proof was used already"
	}
	params.Set(paramDPoPJKT, proof.JKT)
	return "", ""
}
