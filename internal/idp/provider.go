package idp

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/web"
)

// Paths of the provider's endpoints (D-idp).
const (
	PathAuthorize  = "/oauth/v2/authorize"
	PathToken      = "/oauth/v2/token"
	PathKeys       = "/oauth/v2/keys"
	PathUserinfo   = "/oidc/v1/userinfo"
	PathRevoke     = "/oauth/v2/revoke"
	PathIntrospect = "/oauth/v2/introspect"
	PathEndSession = "/oidc/v1/end_session"
	PathLogin      = "/ui/login"
	PathLoggedOut  = "/ui/logged-out"

	PathLoginOTP      = "/ui/login/otp"
	PathLoginMFASetup = "/ui/login/mfa-setup"
	PathSSOStart      = "/ui/sso/start"
	PathSSOCallback   = "/ui/sso/callback"
	PathAccountMFA    = "/ui/account/mfa"
)

// Config tunes the provider. Zero durations take the defaults of withDefaults.
type Config struct {
	Issuer               string
	AdminOrgID           string
	AccessTokenLifetime  time.Duration
	IDTokenLifetime      time.Duration
	RefreshTokenLifetime time.Duration
	CodeLifetime         time.Duration
	LoginTimeout         time.Duration
	SessionLifetime      time.Duration
	KeyRotation          time.Duration
	KeyPublishAhead      time.Duration
	MaxFailedLogins      int
	LockoutDuration      time.Duration
	// LoginRateLimit is the number of sign-in form posts (password, code,
	// account link) allowed per client address and minute; 0 turns it off.
	LoginRateLimit int
	// AuthorizeRateLimit is the number of authorization requests, and
	// apart from them of pushed authorization requests, allowed per client
	// address and minute (each stores a row); 0 turns it off.
	AuthorizeRateLimit int
	// RefreshReuseGrace is how long after a rotation the same public client
	// may present the used refresh token again and get the same answer
	// (D-refresh-grace); 0 turns it off: any reuse revokes the family.
	RefreshReuseGrace time.Duration
	Password          PasswordParams
	// PasswordHashSlots bounds the password verifications in flight
	// (default GOMAXPROCS); PasswordHashWait is how long a sign-in waits
	// for a slot before it is answered 503 (default 5s, D-hash-queue).
	PasswordHashSlots int
	PasswordHashWait  time.Duration
	// SecretsKey (32 bytes) seals external client secrets and TOTP seeds.
	SecretsKey []byte
	// ConsoleURL and ConsoleClientID name the console's API for service
	// accounts' tokens: a token for resource ConsoleURL (or none) has the
	// console portal's client id as audience, which the console accepts.
	ConsoleURL      string
	ConsoleClientID string
	// Egress is the policy of the provider's requests to external identity
	// providers (discovery, JWKS, token, userinfo): by default every
	// internal address is refused (D-egress).
	Egress egress.Policy
	// SigningAlgorithm is RS256 (default, widest client support) or ES256
	// (about fifty times cheaper to sign; see docs/benchmarks.md).
	SigningAlgorithm string
	Now              func() time.Time
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.AccessTokenLifetime, 15*time.Minute)
	def(&c.IDTokenLifetime, time.Hour)
	def(&c.RefreshTokenLifetime, 30*24*time.Hour)
	def(&c.CodeLifetime, 2*time.Minute)
	def(&c.LoginTimeout, 30*time.Minute)
	def(&c.SessionLifetime, 12*time.Hour)
	def(&c.KeyRotation, 30*24*time.Hour)
	def(&c.KeyPublishAhead, time.Hour)
	def(&c.LockoutDuration, 15*time.Minute)
	if c.MaxFailedLogins == 0 {
		c.MaxFailedLogins = 5
	}
	if c.Password == (PasswordParams{}) {
		c.Password = DefaultPasswordParams
	}
	if c.SigningAlgorithm == "" {
		c.SigningAlgorithm = string(jose.RS256)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Provider is the identity provider: the parts (core.go) composed, and
// the surface the server uses.
type Provider struct {
	*core
	keys      *keyManager
	op        *op.Provider
	factors   *factors
	storage   *storage
	endpoints *endpoints
	login     *loginPages
	account   *accountPages
	passkeys  *passkeys
	sso       *ssoLogin
	mgmt      *mgmtAPI
	registrar *registrar
	logouts   *logoutSender
}

// New builds the provider and loads (or creates) its signing keys.
func New(ctx context.Context, cfg Config, st *store.Store) (*Provider, error) {
	cfg = cfg.withDefaults()
	c := &core{cfg: cfg, store: st, secure: strings.HasPrefix(cfg.Issuer, "https://"),
		logoutWake: make(chan struct{}, 1), laterSlots: make(chan struct{}, laterSlots)}
	var err error
	if c.sealer, err = secrets.New(cfg.SecretsKey); err != nil {
		return nil, err
	}
	keys := &keyManager{store: st, sealer: c.sealer, alg: jose.SignatureAlgorithm(cfg.SigningAlgorithm), now: c.now, rotateEvery: cfg.KeyRotation, publishAhead: cfg.KeyPublishAhead,
		keepAfter: max(cfg.IDTokenLifetime, cfg.AccessTokenLifetime), reloadEvery: time.Minute}
	if err := keys.load(ctx); err != nil {
		return nil, fmt.Errorf("idp signing keys: %w", err)
	}
	if c.pages, err = i18n.ParsePages(web.FS, "idp/*.html"); err != nil {
		return nil, err
	}
	wa := newWebAuthn(cfg.Issuer)
	c.passkeysOn = wa != nil
	f := &factors{core: c, hashQueue: newHashQueue(cfg.PasswordHashSlots, cfg.PasswordHashWait)}
	if f.dummyHash, err = HashPassword(randomToken(), cfg.Password); err != nil {
		return nil, err
	}
	ssoClients := newSSOClients(cfg.Egress.Client())
	origins := &corsOrigins{load: st.ApplicationRedirectURIs}
	p := &Provider{core: c, keys: keys, factors: f, storage: &storage{core: c, keys: keys}}
	p.login = &loginPages{core: c, factors: f}
	p.account = &accountPages{core: c, factors: f}
	p.passkeys = &passkeys{core: c, webauthn: wa, login: p.login, account: p.account}
	p.sso = &ssoLogin{core: c, clients: ssoClients, login: p.login}
	p.login.passkeys, p.login.sso, p.account.passkeys = p.passkeys, p.sso, p.passkeys
	p.logouts = &logoutSender{core: c, keys: keys, client: cfg.Egress.Client()}
	var cryptoKey [32]byte
	if _, err := rand.Read(cryptoKey[:]); err != nil {
		return nil, err
	}
	opts := []op.Option{
		op.WithCustomEndpoints(op.NewEndpoint(PathAuthorize), op.NewEndpoint(PathToken), op.NewEndpoint(PathUserinfo),
			op.NewEndpoint(PathRevoke), op.NewEndpoint(PathEndSession), op.NewEndpoint(PathKeys)),
		op.WithCustomIntrospectionEndpoint(op.NewEndpoint(PathIntrospect)),
		op.WithCustomDeviceAuthorizationEndpoint(op.NewEndpoint(PathDeviceAuthorization)),
		op.WithCrypto(newTokenCrypto(cryptoKey)), // access tokens are RFC 9068 JWTs (accesstoken.go)
		op.WithCORSOptions(nil),                  // no CORS from the library: cors (cors.go) on the endpoints browser apps call
	}
	if !c.secure {
		opts = append(opts, op.WithAllowInsecure())
	}
	p.op, err = op.NewProvider(&op.Config{
		CryptoKey:                cryptoKey, // only seals codes; codes are looked up by hash, so per-process keys are fine
		CodeMethodS256:           true,
		AuthMethodPost:           true,
		AuthMethodPrivateKeyJWT:  true,
		DefaultLogoutRedirectURI: PathLoggedOut,
		GrantTypeRefreshToken:    true,
		DeviceAuthorization: op.DeviceAuthorizationConfig{Lifetime: deviceLifetime, PollInterval: devicePollInterval,
			UserFormPath: PathDevice, UserCode: op.UserCodeBase20},
		SupportedScopes: []string{"openid", "profile", "email", "offline_access", ScopeResourceOwner},
		SupportedClaims: append(op.DefaultSupportedClaims, ClaimResourceOwnerID, ClaimResourceOwnerName),
		// the languages of the sign-in pages (D-languages): discovery's ui_locales_supported
		SupportedUILocales: i18n.Supported,
	}, p.storage, op.StaticIssuer(cfg.Issuer), opts...)
	if err != nil {
		return nil, err
	}
	p.login.op = p.op
	p.endpoints = &endpoints{core: c, op: p.op, storage: p.storage, origins: origins, nonces: dpop.NewNonces(cfg.SecretsKey)}
	p.mgmt = &mgmtAPI{core: c, op: p.op, origins: origins, ssoClients: ssoClients}
	p.registrar = &registrar{core: c, origins: origins}
	return p, nil
}

// Handler serves the OIDC endpoints and the hosted login UI.
func (p *Provider) Handler() http.Handler {
	r := chi.NewRouter()
	// the client's address and user agent, for the audit log (the server's, behind TRUSTED_PROXIES, when it set them)
	r.Use(httpapi.WithRequestID, httpapi.ClientAddress(nil), httpapi.LimitBodyPlain(httpapi.MaxProviderBody), withRequestCache,
		i18n.WithRequest)
	r.Group(func(r chi.Router) {
		r.Use(p.loadSession)
		p.login.routes(r)
		p.sso.routes(r)
		p.account.routes(r)
		p.passkeys.routes(r)
		r.With(p.limitAuthorize, p.errorPages, p.endpoints.pushedRequests, p.endpoints.codeKey,
			p.endpoints.impersonationParam, p.login.bindBrowser).Handle(PathAuthorize, p.op)
	})
	r.Mount(PathManagement, p.mgmt.managementRoutes())
	p.endpoints.routes(r)
	p.registrar.routes(r)
	r.Get(PathLoggedOut, func(w http.ResponseWriter, r *http.Request) {
		// Only a page: signing out is the end_session POST (no logout by GET).
		p.renderError(w, r, http.StatusOK, "You are signed out", "You can close this window.")
	})
	brandAssets{p.core.store}.routes(r)
	r.Get("/ui/static/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		http.ServeFileFS(w, r, web.FS, "idp/style.css")
	})
	r.Get(PathPasskeyScript, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		http.ServeFileFS(w, r, web.FS, "idp/passkey.js")
	})
	r.With(p.notFoundPages).Handle("/*", p.op)
	return r
}

// RotateKeys makes a new signing key active now; older keys stay published.
func (p *Provider) RotateKeys(ctx context.Context) error { return p.keys.rotate(ctx) }

// Maintain deletes expired rows, lifts the locks that ran out (recording
// each unlock) and rotates keys when due, every interval, until ctx ends.
func (p *Provider) Maintain(ctx context.Context, interval time.Duration) {
	background.Every(ctx, "idp maintenance", interval, interval/10, func(ctx context.Context) error {
		err := errors.Join(p.store.DeleteExpired(ctx, p.now()), p.store.DeleteExpiredAccountTokens(ctx, p.now()),
			p.store.DeleteExpiredCeremonies(ctx, p.now()),
			p.store.ForgetRefreshSuccessors(ctx, p.now().Add(-p.cfg.RefreshReuseGrace)), p.LiftExpiredLocks(ctx))
		if kerr := p.keys.load(ctx); kerr != nil {
			err = errors.Join(err, fmt.Errorf("key rotation: %w", kerr))
		}
		return err
	})
}

// RegisterExternalIDP stores an external provider as the management API
// does (mgmt.go: registerExternalIDP); the demo data uses it.
func (p *Provider) RegisterExternalIDP(ctx context.Context, x *platform.ExternalIDP, secret string, checkDiscovery bool) error {
	return p.mgmt.registerExternalIDP(ctx, x, secret, checkDiscovery)
}
