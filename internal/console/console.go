package console

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/web"
)

// Config configures the console (D-roles: one validated configuration).
type Config struct {
	Issuer     string // the identity provider
	ConsoleURL string
	ClientID   string // the console portal application
	AdminOrgID string
	// ResolveLimit is how many resolve-org requests one client address may
	// make per minute (0 turns the limit off).
	ResolveLimit int
	// Access authenticates API callers; New builds one over the store when nil.
	Access *access.Service
	// DPoP checks the proofs of DPoP-bound access tokens (D-dpop); nil
	// accepts bearer tokens only.
	DPoP *access.DPoPProofs
}

// Console serves the console role.
type Console struct {
	cfg      Config
	store    *store.Store
	verifier *access.TokenVerifier
	access   *access.Service
	pages    i18n.Pages
	appShell string // the console app's index.html
	appETag  string // its validator, for this console's issuer and client (D-console-caching)
	// issuerOrigin is the identity provider's origin, where branded logos
	// are loaded from (D-branding).
	issuerOrigin string
}

// New builds the console. Access tokens are verified locally against the
// identity provider's JWKS, fetched on first use and cached (D-api-auth); the
// console's API accepts only access tokens (typ at+jwt) issued to the console
// portal client (D-token-typ).
func New(cfg Config, st *store.Store) (*Console, error) {
	pages, err := i18n.ParsePages(web.FS, "console/*.html")
	if err != nil {
		return nil, err
	}
	shell, err := loadAppShell()
	if err != nil {
		return nil, err
	}
	keys := access.NewKeySet(cfg.Issuer+"/oauth/v2/keys", &http.Client{Timeout: 10 * time.Second})
	verifier := access.NewTokenVerifier(cfg.Issuer, cfg.ClientID, keys)
	acc := cfg.Access
	if acc == nil {
		if acc, err = access.New(context.Background(), st); err != nil {
			return nil, err
		}
	}
	return &Console{cfg: cfg, store: st, verifier: verifier, access: acc, pages: pages, appShell: shell,
		appETag: etag(cfg.Issuer, cfg.ClientID, shell), issuerOrigin: originOf(cfg.Issuer)}, nil
}

// originOf is the scheme and host of a URL, "" when it has none.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || strings.ContainsAny(u.Host, " ;,'") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Verifier verifies the identity provider's access tokens issued to the
// console portal client (D-api-auth, D-token-typ).
func (c *Console) Verifier() *access.TokenVerifier { return c.verifier }

// authenticators are the console API's: a DPoP-bound token with its proof
// (when configured) or a bearer token.
func (c *Console) authenticators() []access.Authenticator {
	if c.cfg.DPoP == nil {
		return []access.Authenticator{access.Bearer(c.verifier)}
	}
	return []access.Authenticator{access.DPoP(c.cfg.DPoP, c.verifier), access.Bearer(c.verifier)}
}

// Handler serves the gateway pages and the console API; api adds routes
// under /api/v1 (the administration API).
func (c *Console) Handler(api ...func(r chi.Router)) http.Handler {
	r := chi.NewRouter()
	r.Use(httpapi.LimitBody(httpapi.MaxBody), i18n.WithRequest)
	r.Get("/", c.gatewayPage)
	r.Get("/callback", c.staticPage("callback.html"))
	for _, base := range []string{"/dashboard", "/portal"} {
		r.Get(base, c.appPage)
		r.Get(base+"/*", c.appPage)
	}
	r.Get("/app/assets/{file}", c.appAsset)
	r.Get("/static/{file}", c.static)
	r.Route("/api/v1", func(r chi.Router) {
		r.With(httpapi.RequireJSON, httpapi.RateLimitByAddress(c.store, "resolve-org", c.cfg.ResolveLimit, time.Minute)).
			Post("/login/resolve-org", c.handleResolveOrg)
		r.Get("/login/resolve-client", c.handleResolveClient)
		// The tenant flow's answers differ for internal and other addresses, so
		// this route is limited like resolve-org, under its own counter.
		r.With(httpapi.RequireJSON, httpapi.RateLimitByAddress(c.store, "login-authorize", c.cfg.ResolveLimit, time.Minute)).
			Post("/login/authorize", c.handleAuthorize)
		auth := c.access.Require(c.authenticators()...)
		r.With(auth).Get("/auth/me", c.handleMe)
		r.With(auth).Post("/auth/logout", c.handleLogout)
		for _, f := range api {
			f(r)
		}
	})
	return r
}

// Maintain drops rate-limit windows no count reads any more every
// interval until ctx ends.
func (c *Console) Maintain(ctx context.Context, interval time.Duration) {
	background.Every(ctx, "console maintenance", interval, interval/10, func(ctx context.Context) error {
		return c.store.DeleteOldRateCounters(ctx, time.Now())
	})
}
