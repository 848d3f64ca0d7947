package console

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/web"
)

// gatewayView is what the gateway page needs to run either flow.
type gatewayView struct {
	Flow            string // console or tenant
	Refused         string // set when a tenant-app request is refused
	Issuer          string
	ConsoleClientID string
	ClientID        string
	RedirectURI     string
	Scope           string
	CodeChallenge   string
	State           string
	Nonce           string
	// AppName names the application the user signs in to: the console, or
	// the tenant app of a registered Flow 2 request.
	AppName string
	// UILocales is the supported language the page was asked for with
	// ui_locales ("" for none), which the gateway carries to the
	// provider's authorize URL (D-languages).
	UILocales string
}

// consoleAppName is what the gateway calls the console itself.
const consoleAppName = "the platform console"

const maxGatewayQuery = 4096

// gatewayPage is the login gateway at {console_url}/. With client_id or
// redirect_uri in the query it is the tenant-app flow: the request must be
// complete (S256 challenge, state, nonce) and its client and redirect URI
// registered (resolve-client), or the page refuses it and offers no sign-in
// (R5.3-refuse, R4.1-rc-never). Unknown parameters are ignored.
func (c *Console) gatewayPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := gatewayView{Flow: "console", Issuer: c.cfg.Issuer, ConsoleClientID: c.cfg.ClientID, AppName: consoleAppName,
		UILocales: i18n.Pick(i18n.UILocales(q.Get("ui_locales")))}
	if q.Has("client_id") || q.Has("redirect_uri") {
		v.Flow = "tenant"
		v.ClientID, v.RedirectURI, v.Scope = q.Get("client_id"), q.Get("redirect_uri"), q.Get("scope")
		v.CodeChallenge, v.State, v.Nonce = q.Get("code_challenge"), q.Get("state"), q.Get("nonce")
		switch {
		case len(r.URL.RawQuery) > maxGatewayQuery:
			v.Refused = "The sign-in request is too long."
		case v.ClientID == "" || v.RedirectURI == "":
			v.Refused = "The sign-in request is missing client_id or redirect_uri."
		case q.Get("code_challenge_method") != "S256" || !validChallenge(v.CodeChallenge):
			v.Refused = "The sign-in request must use PKCE with code_challenge_method=S256."
		case !validOpaque(v.State) || !validOpaque(v.Nonce):
			v.Refused = "The sign-in request is missing state or nonce."
		default:
			valid, _, err := c.ResolveClient(r.Context(), v.ClientID, v.RedirectURI)
			if err != nil {
				slog.ErrorContext(r.Context(), "resolve-client", "err", err)
				v.Refused = "Sign-in is not available right now. Please try again."
			} else if !valid {
				v.Refused = "This application is not registered for sign-in here."
			} else {
				v.AppName = c.appName(r.Context(), v.ClientID)
			}
		}
		if v.Refused != "" { // nothing of the request is echoed into the page
			v = gatewayView{Flow: "tenant", Refused: v.Refused, UILocales: v.UILocales}
		}
	}
	status := http.StatusOK
	if v.Refused != "" {
		status = http.StatusBadRequest
	}
	c.render(w, r, status, "gateway.html", v)
}

func (c *Console) staticPage(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c.render(w, r, http.StatusOK, name, gatewayView{Issuer: c.cfg.Issuer, ConsoleClientID: c.cfg.ClientID})
	}
}

func (c *Console) static(w http.ResponseWriter, r *http.Request) {
	web.ServeAsset(w, r, "console", chi.URLParam(r, "file"))
}

// render answers a page in the language the request asks for: the
// gateway's ui_locales, else Accept-Language, else English (D-languages).
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	tag := i18n.Match(i18n.UILocales(r.URL.Query().Get("ui_locales")), i18n.AcceptLanguage(r.Header.Get("Accept-Language")))
	w.Header().Set("Content-Language", tag.String())
	httpapi.RenderPage(w, status, c.pages.For(tag), name, data, c.cfg.Issuer)
}
