package tenant

import (
	"context"
	"net/http"
	"strings"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/web"
)

// Config configures the tenant backend (D-roles: one validated configuration).
type Config struct {
	Issuer      string
	ConsoleURL  string // the login gateway the web app sends users to
	InstanceURL string // where this instance is served
	ClientID    string // the instance application at the identity provider
	SecretsKey  []byte
	// SessionLifetime is how long a session lives without a refresh (12 h by default).
	SessionLifetime time.Duration
	Now             func() time.Time
}

// Tenant serves the tenant role.
type Tenant struct {
	cfg      Config
	store    *store.Store
	verifier *gooidc.IDTokenVerifier // id_tokens of the instance client
	access   *access.TokenVerifier   // access tokens of the instance client
	keys     *access.KeySet          // the identity provider's signing keys
	sealer   *secrets.Sealer
	http     *http.Client
	pages    i18n.Pages
	secure   bool
	cookie   string // the session cookie's name (SessionCookieName)
}

// Scope the web app asks for (R5.3-flow, R5.4-strip): no urn:idp:iam: scope.
const Scope = "openid profile email offline_access"

// New builds the tenant backend. id_tokens and access tokens are verified
// against the identity provider's JWKS, fetched on first use and cached, and
// fetched again for an unknown key at most once per access.MinRefetch.
func New(cfg Config, st *store.Store) (*Tenant, error) {
	if cfg.SessionLifetime == 0 {
		cfg.SessionLifetime = 12 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	sealer, err := secrets.New(cfg.SecretsKey)
	if err != nil {
		return nil, err
	}
	pages, err := i18n.ParsePages(web.FS, "tenant/*.html")
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: 10 * time.Second}
	keys := access.NewKeySet(cfg.Issuer+"/oauth/v2/keys", client)
	verifier := gooidc.NewVerifier(cfg.Issuer, keys, &gooidc.Config{ClientID: cfg.ClientID,
		SupportedSigningAlgs: []string{gooidc.RS256, gooidc.ES256}, Now: cfg.Now})
	return &Tenant{cfg: cfg, store: st, verifier: verifier, access: access.NewTokenVerifier(cfg.Issuer, cfg.ClientID, keys), keys: keys,
		sealer: sealer, http: client, pages: pages, secure: strings.HasPrefix(cfg.InstanceURL, "https://"),
		cookie: SessionCookieName(cfg.InstanceURL)}, nil
}

func (t *Tenant) redirectURI() string { return t.cfg.InstanceURL + "/auth/callback" }

// Routes mounts the backend and the web app on r.
func (t *Tenant) Routes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(httpapi.LimitBody(httpapi.MaxProviderBody))
		r.Get("/auth/config", t.handleConfig)
		r.Post("/auth/idp/callback", t.handleCallback)
		r.Get("/auth/session", t.handleSession)
		r.Post("/auth/logout", t.handleLogout)
		r.Post("/auth/impersonation/end", t.handleImpersonationEnd)
		r.Post(BackchannelLogoutPath, t.handleBackchannelLogout)
	})
	for _, p := range []string{"/", "/3/", "/auth/callback", "/3/auth/callback", "/projects", "/signed-out"} {
		name := "app.html"
		if strings.HasSuffix(p, "/auth/callback") {
			name = "callback.html"
		}
		r.Get(p, t.page(name))
	}
	r.Get("/static/{file}", t.static)
}

// Maintain removes expired sessions every interval until ctx ends.
func (t *Tenant) Maintain(ctx context.Context, interval time.Duration) {
	background.Every(ctx, "tenant maintenance", interval, interval/10, func(ctx context.Context) error {
		return t.store.DeleteExpiredTenantSessions(ctx, t.cfg.Now())
	})
}

type pageView struct {
	Issuer string
}

func (t *Tenant) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// in the language the browser asks for (D-languages)
		tag := i18n.Match(i18n.AcceptLanguage(r.Header.Get("Accept-Language")))
		w.Header().Set("Content-Language", tag.String())
		httpapi.RenderPage(w, http.StatusOK, t.pages.For(tag), name, pageView{Issuer: t.cfg.Issuer}, t.cfg.Issuer)
	}
}

func (t *Tenant) static(w http.ResponseWriter, r *http.Request) {
	web.ServeAsset(w, r, "tenant", chi.URLParam(r, "file"))
}
