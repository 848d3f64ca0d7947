package idp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/httpapi"
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

// Provider is the identity provider.
type Provider struct {
	cfg    Config
	store  *store.Store
	keys   *keyManager
	op     *op.Provider
	pages  *template.Template
	sealer *secrets.Sealer
	sso    *ssoClients
	// logoutClient posts logout tokens under the egress policy; logoutWake
	// has DeliverLogouts look at the queue.
	logoutClient *http.Client
	logoutWake   chan struct{}
	dummyHash    string                // verified against when no user matches, so both cost the same
	secure       bool                  // cookies get Secure when the issuer is https
	hashes       *atomic.Int64         // when set (tests), counts password verifications
	hashGate     func(password string) // when set (tests), runs inside each verification
	pending      sync.WaitGroup        // work started after requests (links.go: later)
	laterSlots   chan struct{}         // one per job of later running
	hashQueue    *hashQueue            // bounds the verifications in flight
	webauthn     *webauthn.WebAuthn    // nil when the issuer cannot be a relying party (passkey.go)
	origins      *corsOrigins          // the applications' origins, for cors
}

// New builds the provider and loads (or creates) its signing keys.
func New(ctx context.Context, cfg Config, st *store.Store) (*Provider, error) {
	cfg = cfg.withDefaults()
	p := &Provider{cfg: cfg, store: st, secure: strings.HasPrefix(cfg.Issuer, "https://"),
		hashQueue: newHashQueue(cfg.PasswordHashSlots, cfg.PasswordHashWait),
		origins:   &corsOrigins{load: st.ApplicationRedirectURIs}, laterSlots: make(chan struct{}, laterSlots)}
	p.keys = &keyManager{store: st, alg: jose.SignatureAlgorithm(cfg.SigningAlgorithm), now: p.now, rotateEvery: cfg.KeyRotation, publishAhead: cfg.KeyPublishAhead,
		keepAfter: max(cfg.IDTokenLifetime, cfg.AccessTokenLifetime), reloadEvery: time.Minute}
	if err := p.keys.load(ctx); err != nil {
		return nil, fmt.Errorf("idp signing keys: %w", err)
	}
	var err error
	if p.sealer, err = secrets.New(cfg.SecretsKey); err != nil {
		return nil, err
	}
	p.sso = newSSOClients(cfg.Egress.Client())
	p.webauthn = newWebAuthn(cfg.Issuer)
	p.logoutClient, p.logoutWake = cfg.Egress.Client(), make(chan struct{}, 1)
	if p.dummyHash, err = HashPassword(randomToken(), cfg.Password); err != nil {
		return nil, err
	}
	if p.pages, err = template.ParseFS(web.FS, "idp/*.html"); err != nil {
		return nil, err
	}
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
	if !p.secure {
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
	}, storage{p}, op.StaticIssuer(cfg.Issuer), opts...)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Provider) now() time.Time { return p.cfg.Now() }

// Handler serves the OIDC endpoints and the hosted login UI.
func (p *Provider) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID, httpapi.LimitBodyPlain(httpapi.MaxProviderBody), withRequestCache)
	r.Group(func(r chi.Router) {
		r.Use(p.loadSession)
		r.Get(PathLogin, p.loginPage)
		r.Post(PathLogin, p.loginSubmit)
		r.Post(PathLoginOTP, p.otpSubmit)
		r.Post(PathLoginMFASetup, p.mfaSetupSubmit)
		r.Get(PathSSOStart, p.ssoStart)
		r.Get(PathSSOCallback, p.ssoCallback)
		r.Get(PathInvitation, p.setPasswordPage(invitationPage))
		r.Post(PathInvitation, p.setPasswordSubmit(invitationPage))
		r.Get(PathPasswordReset, p.setPasswordPage(resetPage))
		r.Post(PathPasswordReset, p.setPasswordSubmit(resetPage))
		r.Get(PathPasswordForgot, p.forgotPage)
		r.Post(PathPasswordForgot, p.forgotSubmit)
		r.Get(PathAccount, p.accountHome)
		r.Post(PathAccountPassword, p.accountPassword)
		r.Post(PathAccountEndOthers, p.accountEndOthers)
		r.Post(PathAccountRecovery, p.accountRecoveryCodes)
		r.Post(PathAccountMFAReset, p.accountMFAReset)
		r.Post(PathAccountEmail, p.accountEmail)
		r.Get(PathAccountConfirm, p.accountConfirmPage)
		r.Post(PathAccountConfirm, p.accountConfirmSubmit)
		r.Post(PathAccountConfirmOptions, p.accountConfirmOptions)
		r.Get(PathVerifyEmail, p.verifyPage)
		r.Post(PathVerifyEmail, p.verifySubmit)
		p.passkeyRoutes(r)
		r.Get(PathAccountMFA, p.accountMFA)
		r.Post(PathAccountMFA, p.accountMFASubmit)
		r.With(p.limitAuthorize, p.errorPages, p.pushedRequests, p.bindBrowser).Handle(PathAuthorize, p.op)
		// The step that issues the code answers only the browser that holds
		// the transaction, whatever the method (D-login-binding).
		r.With(p.errorPages).HandleFunc(PathAuthorize+"/callback", p.authorizeCallback)
		r.Get(PathDevice, p.devicePage)
		r.Post(PathDevice, p.deviceSubmit)
		r.Post(PathDeviceDecide, p.deviceDecide)
		r.Get(PathEndSession, p.endSessionPage)
		r.Post(PathEndSession, p.endSessionSubmit)
	})
	r.Mount(PathManagement, p.managementRoutes())
	r.With(p.cors).Get(DiscoveryPath, p.discovery)
	r.With(p.cors).Options(DiscoveryPath, allowGet)
	r.With(p.cors).Handle(PathToken, p.supportedGrants(p.clientAuth(p.refreshGrace(p.refreshWithoutIDToken(p.op)))))
	r.Post(PathDeviceAuthorization, p.deviceAuthorization)
	r.With(p.limitPushed, p.clientAuth).Post(PathPAR, p.pushAuthorization)
	r.With(p.cors).Handle(PathUserinfo, p.bearerChallenge(p.op))
	r.With(p.cors).Handle(PathKeys, p.op)
	r.With(p.cors).Handle(PathRevoke, p.op)
	r.With(p.cors).Handle(PathIntrospect, p.op)
	r.Get(PathLoggedOut, func(w http.ResponseWriter, r *http.Request) {
		// Only a page: signing out is the end_session POST (no logout by GET).
		p.renderError(w, r, http.StatusOK, "You are signed out", "You can close this window.")
	})
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

// Maintain deletes expired rows and rotates keys when due, every interval, until ctx ends.
func (p *Provider) Maintain(ctx context.Context, interval time.Duration) {
	background.Every(ctx, "idp maintenance", interval, interval/10, func(ctx context.Context) error {
		err := errors.Join(p.store.DeleteExpired(ctx, p.now()), p.store.DeleteExpiredAccountTokens(ctx, p.now()),
			p.store.DeleteExpiredCeremonies(ctx, p.now()),
			p.store.ForgetRefreshSuccessors(ctx, p.now().Add(-p.cfg.RefreshReuseGrace)))
		if kerr := p.keys.load(ctx); kerr != nil {
			err = errors.Join(err, fmt.Errorf("key rotation: %w", kerr))
		}
		return err
	})
}

func (p *Provider) client(ctx context.Context, clientID string) (op.Client, error) {
	app, err := p.application(ctx, clientID)
	if err != nil {
		return nil, err
	}
	return &client{
		app:      app,
		loginURL: func(id string) string { return p.cfg.Issuer + PathLogin + "?authRequestID=" + id },
		devMode:  !p.secure,
		idTTL:    p.cfg.IDTokenLifetime,
	}, nil
}

// fillUserinfo sets the claims of a user for the granted scopes (R5.7-claims).
func (p *Provider) fillUserinfo(ctx context.Context, info *oidc.UserInfo, userID string, scopes []string) error {
	u, err := p.user(ctx, userID)
	if err != nil {
		return err
	}
	info.Subject = u.ID
	if hasScope(scopes, oidc.ScopeEmail) {
		info.Email, info.EmailVerified = u.Email, oidc.Bool(u.EmailVerified)
	}
	if hasScope(scopes, oidc.ScopeProfile) {
		info.Name = u.Name
	}
	info.AppendClaims(ClaimResourceOwnerID, u.OrgID)
	if hasScope(scopes, ScopeResourceOwner) {
		if org, err := p.store.Organization(ctx, u.OrgID); err == nil {
			info.AppendClaims(ClaimResourceOwnerName, org.Name)
		}
	}
	return nil
}

// sessionSatisfies reports whether a browser session may answer a login
// transaction without asking the user: the user of the id_token_hint, same
// organization as the org scope, same address as login_hint, within
// max_age, and signed in a way the account's own policy allows now
// (D-account-policy).
func (p *Provider) sessionSatisfies(ctx context.Context, sess *store.Session, a *store.AuthRequest) bool {
	if a.HintUserID != "" && a.HintUserID != sess.UserID {
		return false // OIDC Core 3.1.2.2: the session must be the hinted user's
	}
	u, err := p.user(ctx, sess.UserID)
	if err != nil {
		return false
	}
	if org := orgScope(a.Scopes); org != "" && u.OrgID != org {
		return false
	}
	if a.LoginHint != "" && platform.NormalizeEmail(a.LoginHint) != u.Email {
		return false
	}
	if a.MaxAge != nil && p.now().Sub(sess.AuthTime) > time.Duration(*a.MaxAge)*time.Second {
		return false
	}
	allowed, policy := p.sessionAllowed(ctx, sess, u)
	if !allowed {
		return false // e.g. a password session of an organization that has turned to SSO only
	}
	if policy.MFAForced && !slices.Contains(sess.AMR, "mfa") {
		return false // a session without a second factor does not satisfy a policy that forces one
	}
	if policy.PasskeyRequired && !slices.Contains(sess.AMR, "hwk") {
		return false // nor one without a passkey a policy that requires passkeys
	}
	return true
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// allowGet answers an OPTIONS request (other than a preflight) to a
// resource that is only read.
func allowGet(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "GET, HEAD, OPTIONS")
	w.WriteHeader(http.StatusNoContent)
}
