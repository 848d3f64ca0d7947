package idp

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/platform/platform/internal/clientkeys"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Applications of the management API: public applications (browser or
// native: PKCE, no secret) and confidential web applications (a server that
// keeps a secret or a private key: client_secret_basic, client_secret_post
// or private_key_jwt; PKCE is still required for their code flow). Service
// applications (client_credentials) are the console's own client and the
// service accounts, managed elsewhere.

// appSettings are what a request sets of an application and its view
// answers.
type appSettings struct {
	ClientID               string   `json:"clientId"`
	Name                   string   `json:"name"`
	Kind                   string   `json:"kind"`
	AuthMethod             string   `json:"authMethod"`
	RedirectURIs           []string `json:"redirectUris"`
	PostLogoutRedirectURIs []string `json:"postLogoutRedirectUris"`
	RequirePAR             bool     `json:"requirePar"`
	BackchannelLogoutURI   string   `json:"backchannelLogoutUri"`
	DeviceFlow             bool     `json:"deviceFlow"`
	// RequireDPoP: the token endpoint issues the application's tokens only
	// with a DPoP proof (bound to its key, D-dpop).
	RequireDPoP bool `json:"requireDpop"`
}

type appRequest struct {
	appSettings
	JWKS json.RawMessage `json:"jwks"`
}

type appView struct {
	AppID string `json:"appId"`
	appSettings
	KeyIDs    []string  `json:"keyIds"`
	CreatedAt time.Time `json:"createdAt"`
	// ClientSecret is answered once, when a secret is made.
	ClientSecret string `json:"clientSecret,omitempty"`
}

func newAppView(a *platform.Application) appView {
	v := appView{AppID: a.AppID, appSettings: appSettings{ClientID: a.ClientID, Name: a.Name, Kind: a.Kind, AuthMethod: a.TokenAuthMethod(),
		RedirectURIs: a.RedirectURIs, PostLogoutRedirectURIs: a.PostLogoutRedirectURIs,
		RequirePAR: a.RequirePAR, BackchannelLogoutURI: a.BackchannelLogoutURI, DeviceFlow: a.DeviceFlow,
		RequireDPoP: a.RequireDPoP},
		KeyIDs: clientkeys.KeyIDs(a.JWKS), CreatedAt: a.CreatedAt}
	if v.RedirectURIs == nil {
		v.RedirectURIs = []string{}
	}
	if v.PostLogoutRedirectURIs == nil {
		v.PostLogoutRedirectURIs = []string{}
	}
	return v
}

// applyApp sets what a request says of an application; a new secret, when
// the application now needs one, is answered.
func applyApp(a *platform.Application, in appRequest) (secret string, err error) {
	a.Name, a.RedirectURIs, a.PostLogoutRedirectURIs = strings.TrimSpace(in.Name), in.RedirectURIs, in.PostLogoutRedirectURIs
	a.RequirePAR, a.BackchannelLogoutURI, a.DeviceFlow = in.RequirePAR, strings.TrimSpace(in.BackchannelLogoutURI), in.DeviceFlow
	a.RequireDPoP = in.RequireDPoP
	if in.ClientID != "" {
		a.ClientID = in.ClientID
	}
	if a.Kind == platform.AppPublic {
		if in.AuthMethod != "" && in.AuthMethod != platform.AuthNone {
			return "", platform.Errorf(platform.EINVALID, "a public application authenticates with none; make it kind web")
		}
		return "", nil
	}
	if in.AuthMethod != "" {
		a.AuthMethod = in.AuthMethod
	}
	if a.AuthMethod == "" {
		a.AuthMethod = platform.AuthSecretBasic
	}
	if len(in.JWKS) > 0 {
		if a.JWKS, err = clientkeys.Validate(in.JWKS); err != nil {
			return "", err
		}
	}
	if (a.AuthMethod == platform.AuthSecretBasic || a.AuthMethod == platform.AuthSecretPost) && a.SecretHash == "" {
		secret = NewSecret()
		a.SecretHash = hashSecret(secret)
	}
	return secret, nil
}

// mgmtCreateApp registers a public or confidential web application.
func (p *mgmtAPI) mgmtCreateApp(w http.ResponseWriter, r *http.Request) {
	in, ok := decoded[appRequest](w, r)
	if !ok {
		return
	}
	kind := in.Kind
	if kind == "" {
		kind = platform.AppPublic
	}
	if kind != platform.AppPublic && kind != platform.AppWeb {
		httpapi.WriteError(w, r, platform.Errorf(platform.EINVALID, "kind must be public or web"))
		return
	}
	a := &platform.Application{AppID: uuid.NewString(), Kind: kind, CreatedAt: p.now().UTC().Truncate(time.Microsecond)}
	secret, err := applyApp(a, in)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	if a.ClientID == "" {
		a.ClientID = newClientID()
	}
	p.savedApp(w, r, p.store.CreateApplication(r.Context(), a), a, secret, http.StatusCreated)
}

// savedApp answers the write of an application: its error, or the
// application (with the secret made, once) after the applications' origins
// are forgotten, so that CORS reads them again.
func (p *mgmtAPI) savedApp(w http.ResponseWriter, r *http.Request, err error, a *platform.Application, secret string, status int) {
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	p.origins.forget()
	v := newAppView(a)
	v.ClientSecret = secret
	httpapi.WriteJSON(w, status, v)
}

func newClientID() string { return "app-" + strings.ToLower(randomToken()[:22]) }

// managedApp loads an application of the management API (public or web).
func (p *mgmtAPI) managedApp(w http.ResponseWriter, r *http.Request) (*platform.Application, bool) {
	a, err := p.store.ApplicationByAppID(r.Context(), chi.URLParam(r, "appID"))
	if err == nil && a.Kind != platform.AppPublic && a.Kind != platform.AppWeb {
		err = platform.Errorf(platform.EFORBIDDEN, "service applications are not managed here")
	}
	if err != nil {
		httpapi.WriteError(w, r, err)
		return nil, false
	}
	return a, true
}

func (p *mgmtAPI) mgmtGetApp(w http.ResponseWriter, r *http.Request) {
	if a, ok := p.managedApp(w, r); ok {
		httpapi.WriteJSON(w, http.StatusOK, newAppView(a))
	}
}

// mgmtUpdateApp replaces an application's settings (its kind stays).
func (p *mgmtAPI) mgmtUpdateApp(w http.ResponseWriter, r *http.Request) {
	in, ok := decoded[appRequest](w, r)
	if !ok {
		return
	}
	a, ok := p.managedApp(w, r)
	if !ok {
		return
	}
	if in.Kind != "" && in.Kind != a.Kind {
		httpapi.WriteError(w, r, platform.Errorf(platform.EINVALID, "an application's kind does not change"))
		return
	}
	secret, err := applyApp(a, in)
	if err == nil {
		err = p.store.UpdateApplication(r.Context(), a)
	}
	p.savedApp(w, r, err, a, secret, http.StatusOK)
}

func (p *mgmtAPI) mgmtDeleteApp(w http.ResponseWriter, r *http.Request) {
	a, ok := p.managedApp(w, r)
	if !ok {
		return
	}
	if err := p.store.DeleteApplication(r.Context(), a.AppID); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	p.origins.forget()
	w.WriteHeader(http.StatusNoContent)
}

// mgmtRotateApp gives an application a new client id (the old one stops
// working at once).
func (p *mgmtAPI) mgmtRotateApp(w http.ResponseWriter, r *http.Request) {
	a, ok := p.managedApp(w, r)
	if !ok {
		return
	}
	a.ClientID = newClientID()
	if err := p.store.UpdateApplication(r.Context(), a); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, newAppView(a))
}

// mgmtRotateAppSecret gives a web application that authenticates with a
// secret a new one, answered once; the old one stops working at once.
func (p *mgmtAPI) mgmtRotateAppSecret(w http.ResponseWriter, r *http.Request) {
	a, ok := p.managedApp(w, r)
	if !ok {
		return
	}
	if m := a.TokenAuthMethod(); m != platform.AuthSecretBasic && m != platform.AuthSecretPost {
		httpapi.WriteError(w, r, platform.Errorf(platform.ECONFLICT, "this application authenticates without a secret (%s)", m))
		return
	}
	secret := NewSecret()
	a.SecretHash = hashSecret(secret)
	if err := p.store.UpdateApplication(r.Context(), a); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	v := newAppView(a)
	v.ClientSecret = secret
	httpapi.WriteJSON(w, http.StatusOK, v)
}
