package console

import (
	"net/http"

	"github.com/platform/platform/internal/httpapi"
)

// POST /api/v1/login/resolve-org
func (c *Console) handleResolveOrg(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	resp, err := c.ResolveOrg(r.Context(), in.Email)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, resp)
}

// GET /api/v1/login/resolve-client
func (c *Console) handleResolveClient(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	valid, _, err := c.ResolveClient(r.Context(), q.Get("client_id"), q.Get("redirect_uri"))
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]bool{"valid": valid})
}

// authorizeRequest is what the gateway page sends once the user has chosen
// an organization and a method.
type authorizeRequest struct {
	Flow          string `json:"flow"` // console, console-silent, console-step-up or tenant
	Email         string `json:"email"`
	OrgID         string `json:"orgId"`
	Method        string `json:"method"` // password or sso
	IDPID         string `json:"idpId"`
	CodeChallenge string `json:"codeChallenge"`
	State         string `json:"state"`
	Nonce         string `json:"nonce"`
	// tenant-app flow: the app's own values, passed through
	ClientID    string `json:"clientId"`
	RedirectURI string `json:"redirectUri"`
	Scope       string `json:"scope"`
	// UILocales is the language the gateway page was asked for with its
	// ui_locales, carried to the authorize URL (D-languages).
	UILocales string `json:"uiLocales"`
	// console-step-up flow (D-step-up): what a refused dangerous action
	// asked for (its WWW-Authenticate's acr_values and max_age).
	ACRValues string `json:"acrValues"`
	MaxAge    *int   `json:"maxAge"`
}

// msgGeneric is the one error a login screen shows for an address that has
// no customer account (R7.2-generic, R5.5-enum).
const msgGeneric = "We could not sign you in with this e-mail address. Check it, or contact your administrator."

// POST /api/v1/login/authorize returns the identity provider's authorize URL
// for the user's choice. Everything is checked again here: the organization
// and method against resolve-org, the tenant app's client and redirect URI
// against resolve-client.
func (c *Console) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	var in authorizeRequest
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	u, err := c.AuthorizeURL(r.Context(), in)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"url": u})
}

// GET /api/v1/auth/me (R4.1-me)
