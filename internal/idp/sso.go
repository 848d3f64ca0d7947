package idp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-chi/chi/v5"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// ssoLogin signs users in through their organization's external OpenID
// providers.
type ssoLogin struct {
	*core
	clients *ssoClients
	login   *loginPages
}

// ssoBudget bounds the outbound requests of one step of an external login
// (discovery; or the code exchange, the keys and userinfo), within the
// request's own context: nothing an external provider is asked outlives
// the request that asked, nor takes longer than this.
const ssoBudget = 15 * time.Second

// ssoClients caches the discovery documents of external providers (derived
// data, safe to lose) for a few minutes, with each provider's key set.
// Every request to an external provider goes through one client of the
// egress policy.
type ssoClients struct {
	http *http.Client
	mu   sync.Mutex
	m    map[string]*ssoProvider
}

// ssoProvider is an external provider as discovered: its endpoints, its
// issuer and id_token algorithms, its keys.
type ssoProvider struct {
	*gooidc.Provider
	issuer  string
	algs    []string
	keys    *ssoKeySet
	fetched time.Time
}

// verifier verifies id_tokens of the provider for clientID with its keys,
// read within the verifying request (ssoKeySet).
func (sp *ssoProvider) verifier(clientID string) *gooidc.IDTokenVerifier {
	return gooidc.NewVerifier(sp.issuer, sp.keys, &gooidc.Config{ClientID: clientID, SupportedSigningAlgs: sp.algs})
}

func newSSOClients(client *http.Client) *ssoClients {
	return &ssoClients{http: client, m: map[string]*ssoProvider{}}
}

func (c *ssoClients) ctx(ctx context.Context) context.Context {
	return gooidc.ClientContext(ctx, c.http)
}

func (c *ssoClients) provider(ctx context.Context, issuer string) (*ssoProvider, error) {
	c.mu.Lock()
	old, ok := c.m[issuer]
	c.mu.Unlock()
	if ok && time.Since(old.fetched) < 5*time.Minute {
		return old, nil
	}
	prov, err := gooidc.NewProvider(c.ctx(ctx), issuer)
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", issuer, err)
	}
	var doc struct {
		Issuer  string   `json:"issuer"`
		JWKSURL string   `json:"jwks_uri"`
		Algs    []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := prov.Claims(&doc); err != nil {
		return nil, fmt.Errorf("discover %s: %w", issuer, err)
	}
	sp := &ssoProvider{Provider: prov, issuer: doc.Issuer, fetched: time.Now()}
	for _, a := range doc.Algs {
		if slices.Contains(ssoSigningAlgs, jose.SignatureAlgorithm(a)) {
			sp.algs = append(sp.algs, a)
		}
	}
	if ok && old.issuer == sp.issuer && old.keys.url == doc.JWKSURL {
		sp.keys = old.keys // keep the keys read so far
	} else {
		sp.keys = newSSOKeySet(c.http, doc.JWKSURL)
	}
	c.mu.Lock()
	c.m[issuer] = sp
	c.mu.Unlock()
	return sp, nil
}

// oauthConfig is this provider as a relying party of an external one.
func (p *ssoLogin) oauthConfig(x *platform.ExternalIDP, prov *ssoProvider) (*oauth2.Config, error) {
	secret, err := p.sealer.Open(x.SecretSealed, secrets.LabelIDPSecret(x.ID))
	if err != nil {
		return nil, fmt.Errorf("open client secret of %s: %w", x.ID, err)
	}
	scopes := x.Scopes
	if len(scopes) == 0 {
		scopes = []string{gooidc.ScopeOpenID, "profile", "email"}
	}
	return &oauth2.Config{ClientID: x.ClientID, ClientSecret: string(secret), Endpoint: prov.Endpoint(),
		RedirectURL: p.cfg.Issuer + PathSSOCallback, Scopes: scopes}, nil
}

// routes serves the way out to an external provider and back.
func (p *ssoLogin) routes(r chi.Router) {
	r.Get(PathSSOStart, p.ssoStart)
	r.Get(PathSSOCallback, p.ssoCallback)
}

// ssoStart sends the user of a login to an external provider. Only the
// browser that started the login may (D-login-binding), so discovery of an
// external provider is never triggered by a bare link.
func (p *ssoLogin) ssoStart(w http.ResponseWriter, r *http.Request) {
	a, ok := p.login.transaction(w, r, r.URL.Query().Get("authRequestID"), false)
	if !ok {
		return
	}
	p.redirectToIDP(w, r, a, r.URL.Query().Get("idp"))
}

// redirectToIDP starts an external login with PKCE, state and nonce of its own.
func (p *ssoLogin) redirectToIDP(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, idpID string) {
	ctx := r.Context()
	if idpID == "" || len(idpID) > 64 {
		p.ssoError(w, r, errors.New("no identity provider named"))
		return
	}
	x, err := p.store.ExternalIDP(ctx, idpID)
	if err != nil {
		p.ssoError(w, r, fmt.Errorf("identity provider %q: %w", idpID, err))
		return
	}
	if org := orgScope(a.Scopes); org != "" && org != x.OrgID {
		p.ssoError(w, r, fmt.Errorf("identity provider %s belongs to organization %s, not %s", x.ID, x.OrgID, org))
		return
	}
	policy, err := p.loginRules(ctx, x.OrgID)
	if err != nil || !policy.sso() {
		p.ssoError(w, r, fmt.Errorf("organization %s does not allow SSO (%v)", x.OrgID, err))
		return
	}
	dctx, cancel := context.WithTimeout(ctx, ssoBudget)
	prov, err := p.clients.provider(dctx, x.Issuer)
	cancel()
	if err != nil {
		p.ssoError(w, r, upstream("discovery", x, err))
		return
	}
	cfg, err := p.oauthConfig(x, prov)
	if err != nil {
		p.ssoError(w, r, err)
		return
	}
	state, nonce, verifier := randomToken(), randomToken(), oauth2.GenerateVerifier()
	now := p.now()
	if err := p.store.CreateSSOState(ctx, &store.SSOState{StateHash: hashSecret(state), AuthRequestID: a.ID, IDPID: x.ID,
		Nonce: nonce, CodeVerifier: verifier, CreatedAt: now, ExpiresAt: now.Add(10 * time.Minute)}); err != nil {
		p.internalError(w, r, err)
		return
	}
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), gooidc.Nonce(nonce)}
	if a.LoginHint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", a.LoginHint))
	}
	p.handOff(w, r, x.Name, cfg.AuthCodeURL(state, opts...))
}

// ssoCallback finishes an external login: the state is taken once, the
// login transaction must belong to this browser (so a callback link cannot
// sign a victim in to someone else's account, D-login-binding), the code is
// exchanged with the verifier, the id_token verified and its nonce checked,
// then the external identity is resolved to a local user (D-linking) and
// the organization's second factor asked for unless the provider enforces
// MFA (D-federated-mfa).
func (p *ssoLogin) ssoCallback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	if len(q.Get("state")) > 128 {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	st, err := p.store.TakeSSOState(ctx, hashSecret(q.Get("state")), p.now())
	if err != nil {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	a, ok := p.login.transaction(w, r, st.AuthRequestID, false)
	if !ok {
		return
	}
	var ext *externalIdentity
	fail := func(err error) { // recorded as a failed sign-in, then answered
		p.ssoSignInFailed(ctx, a, ext, err)
		p.ssoError(w, r, err)
	}
	if e := q.Get("error"); e != "" {
		fail(fmt.Errorf("external provider answered error %q", oauthCode(e)))
		return
	}
	x, err := p.store.ExternalIDP(ctx, st.IDPID)
	if err != nil {
		fail(err)
		return
	}
	xctx, cancel := context.WithTimeout(ctx, ssoBudget)
	ext, err = p.externalIdentity(xctx, x, st, q.Get("code"))
	cancel()
	if err != nil {
		fail(err)
		return
	}
	userID, err := p.store.LinkedUser(ctx, x.ID, ext.Subject)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		var proof *platform.User
		userID, proof, err = p.resolveUnlinked(ctx, a, x, ext)
		if err == nil && proof != nil {
			p.askAccountProof(w, r, a, x, proof)
			return
		}
	}
	if err != nil {
		fail(err)
		return
	}
	u, err := p.user(ctx, userID)
	if err != nil {
		fail(fmt.Errorf("linked user %s: %w", userID, err))
		return
	}
	p.syncGroups(ctx, x, u, ext)
	amr := []string{"fed"}
	var mfaBy func(loginRules) bool // a login without the provider's MFA is never MFA
	if x.MFAEnforced && amrShowsMFA(ext.AMR) {
		amr, mfaBy = append(amr, "mfa"), loginRules.ssoIsMFA
	}
	p.login.afterFirstFactor(w, r, a, u, amr, mfaBy)
}

// amrShowsMFA reports whether an external login's amr (RFC 8176) allows it
// to count as multi-factor: an absent amr leaves it to the organization's
// word; a present one must name MFA or a second factor.
func amrShowsMFA(amr []string) bool {
	if amr == nil {
		return true
	}
	for _, m := range amr {
		switch m {
		case "mfa", "otp", "hwk", "swk", "sms", "sc", "pop", "fpt", "face", "iris", "retina", "vbm":
			return true
		}
	}
	return false
}

// externalIdentity is what an external login proved.
type externalIdentity struct {
	Subject string
	externalClaims
	// Groups are the values of the provider's groups claim, and HasGroups
	// whether the ID token carried it (D-jit-groups).
	Groups    []string
	HasGroups bool
}

type externalClaims struct {
	Email         string   `json:"email"`
	EmailVerified *bool    `json:"email_verified"`
	Name          string   `json:"name"`
	AMR           []string `json:"amr"`
}

var (
	errUnverifiedLink = errors.New("external e-mail is not verified; it is never linked to an existing account")
	errNoAccount      = errors.New("no account matches the external identity and the organization does not create accounts")
	errNoProof        = errors.New("the account cannot prove itself: its organization allows no password sign-in or it has no password")
	errNotVouched     = errors.New("the address has an account in another organization; this provider may not create one for it")
)

// externalIdentity exchanges the code of an external login and verifies its
// id_token (signature, issuer, audience, expiry, nonce).
func (p *ssoLogin) externalIdentity(ctx context.Context, x *platform.ExternalIDP, st *store.SSOState, code string) (*externalIdentity, error) {
	prov, err := p.clients.provider(ctx, x.Issuer)
	if err != nil {
		return nil, upstream("discovery", x, err)
	}
	cfg, err := p.oauthConfig(x, prov)
	if err != nil {
		return nil, err
	}
	if code == "" || len(code) > 2048 {
		return nil, fmt.Errorf("callback from %s carries no usable code", x.ID)
	}
	tok, err := cfg.Exchange(p.clients.ctx(ctx), code, oauth2.VerifierOption(st.CodeVerifier))
	if err != nil {
		return nil, upstream("code exchange", x, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := prov.verifier(x.ClientID).Verify(p.clients.ctx(ctx), raw)
	if err != nil {
		return nil, upstream("id_token verification", x, err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(st.Nonce)) != 1 {
		return nil, fmt.Errorf("id_token from %s: nonce mismatch", x.ID)
	}
	ext := &externalIdentity{Subject: idt.Subject}
	if err := idt.Claims(&ext.externalClaims); err != nil {
		return nil, fmt.Errorf("id_token claims from %s: %w", x.ID, err)
	}
	if x.GroupsClaim != "" {
		var all map[string]any
		if idt.Claims(&all) == nil {
			ext.Groups, ext.HasGroups = claimValues(all, x.GroupsClaim)
		}
	}
	if ext.Email == "" {
		if info, err := prov.UserInfo(p.clients.ctx(ctx), oauth2.StaticTokenSource(tok)); err == nil && info.Subject == idt.Subject {
			ext.Email, ext.EmailVerified = info.Email, &info.EmailVerified
			if ext.Name == "" {
				var c externalClaims
				if info.Claims(&c) == nil {
					ext.Name = c.Name
				}
			}
		}
	}
	return ext, nil
}

// resolveUnlinked finds the local user of an external identity seen for
// the first time (D-linking). An existing account with the same verified
// address is linked at once only when a platform_admin trusts the provider
// for linking and the address is on a domain the customer verified;
// otherwise the account must prove itself first: resolveUnlinked records the
// pending link and returns that user as proof, and the link is stored when
// the user signs in with their own credentials (completeLogin). Without an
// account, one is created when the organization allows it.
func (p *ssoLogin) resolveUnlinked(ctx context.Context, a *store.AuthRequest, x *platform.ExternalIDP, ext *externalIdentity) (string, *platform.User, error) {
	email := platform.NormalizeEmail(ext.Email)
	if !platform.ValidEmail(email) {
		return "", nil, fmt.Errorf("external identity from %s has no usable e-mail address", x.ID)
	}
	verified := ext.EmailVerified != nil && *ext.EmailVerified
	users, err := p.store.UsersByEmail(ctx, email, x.OrgID)
	if err != nil {
		return "", nil, err
	}
	now := p.now()
	if len(users) == 1 {
		u := users[0]
		if !verified {
			return "", nil, errUnverifiedLink
		}
		if x.LinkTrusted {
			ok, err := p.store.OrgDomainVerified(ctx, x.OrgID, email[strings.LastIndexByte(email, '@')+1:])
			if err != nil {
				return "", nil, err
			}
			if ok {
				slog.InfoContext(ctx, "external identity linked by a trusted provider", "user_id", u.ID, "idp_id", x.ID)
				return u.ID, nil, p.store.LinkExternalIdentity(ctx, x.ID, ext.Subject, u.ID, now)
			}
		}
		if err := p.store.SetPendingLink(ctx, a.ID, x.ID, ext.Subject, u.ID); err != nil {
			return "", nil, err
		}
		return "", u, nil
	}
	policy, err := p.loginRules(ctx, x.OrgID)
	if err != nil {
		return "", nil, err
	}
	if !policy.ssoCreatesUsers() {
		return "", nil, errNoAccount
	}
	if ok, err := p.vouchesFor(ctx, x, email); err != nil {
		return "", nil, err
	} else if !ok {
		return "", nil, errNotVouched
	}
	name := ext.Name
	if name == "" {
		name = email
	}
	u := &platform.User{ID: uuid.NewString(), OrgID: x.OrgID, Email: email, EmailVerified: verified, Name: name,
		CreatedAt: now, UpdatedAt: now}
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.LinkExternalIdentity(ctx, x.ID, ext.Subject, u.ID, now)
	})
	if err == nil {
		slog.InfoContext(ctx, "user created from external identity", "user_id", u.ID, "idp_id", x.ID)
	}
	return u.ID, nil, err
}

// vouchesFor reports whether an external provider may create an account
// just in time for an address (D-jit, D-verified-domains): a customer's
// provider only for an address on a domain its customer holds verified
// (a provider of an organization of no customer, for any); and then only
// when the address has no account in another organization, or the
// provider is trusted for linking (a platform_admin's mark). An address of
// the administrator organization never: a customer's provider does not
// speak for the platform's own staff.
func (p *ssoLogin) vouchesFor(ctx context.Context, x *platform.ExternalIDP, email string) (bool, error) {
	if ok, err := p.store.OrgVouchesForDomain(ctx, x.OrgID, email[strings.LastIndexByte(email, '@')+1:]); err != nil || !ok {
		return false, err
	}
	users, err := p.store.UsersByEmail(ctx, email, "")
	if err != nil || len(users) == 0 {
		return err == nil, err
	}
	for _, u := range users {
		if u.OrgID == p.cfg.AdminOrgID {
			return false, nil
		}
	}
	if !x.LinkTrusted {
		return false, nil
	}
	return p.store.OrgDomainVerified(ctx, x.OrgID, email[strings.LastIndexByte(email, '@')+1:])
}

// askAccountProof shows the sign-in form for the existing account an
// external identity matched: signing in with the account's own password (and
// second factor) links the two (D-linking, Keycloak's "first broker login").
func (p *ssoLogin) askAccountProof(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, x *platform.ExternalIDP, u *platform.User) {
	a.LinkIDPID, a.LinkSubject, a.LinkUserID = x.ID, "", u.ID
	v, err := p.login.loginOptions(r.Context(), a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if accounts, err := p.passwordAccounts(r.Context(), []*platform.User{u}); err != nil {
		p.internalError(w, r, err)
		return
	} else if !v.PasswordAllowed || len(accounts) == 0 || u.PasswordHash == "" { // the account's own policy decides
		p.signInFailed(r.Context(), u, "", a.ClientID, "no_proof", methodSSO, factorFirst)
		p.ssoError(w, r, errNoProof)
		return
	}
	v.Email = u.Email
	p.login.renderLogin(w, r, http.StatusOK, v, "")
}

// ssoSignInFailed records a failed sign-in through an external provider,
// right after it: for the account the external identity resolved to when
// the failure is that account's (it cannot prove itself), otherwise for
// the external address alone, platform-wide (nothing tells a customer
// whether an address has an account elsewhere).
func (p *ssoLogin) ssoSignInFailed(ctx context.Context, a *store.AuthRequest, ext *externalIdentity, err error) {
	reason := "provider_error"
	switch {
	case errors.Is(err, errUnverifiedLink):
		reason = "unverified_email"
	case errors.Is(err, errNoAccount):
		reason = "no_account"
	case errors.Is(err, errNotVouched):
		reason = "address_not_vouched"
	}
	email := ""
	if ext != nil {
		email = platform.NormalizeEmail(ext.Email)
	}
	p.signInFailed(ctx, nil, email, a.ClientID, reason, methodSSO, factorFirst)
}

// ssoError logs an external-login failure and shows the user a generic page
// with the request id to quote. What an external provider answered is logged
// only as upstream describes it: never a response body.
func (p *ssoLogin) ssoError(w http.ResponseWriter, r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "external login failed", "err", err.Error())
	p.renderError(w, r, http.StatusBadGateway, "Sign-in with your organization's provider failed",
		"Please try again. If it keeps failing, contact your administrator and quote the reference below.")
}

type handOffView struct {
	Name string
	URL  string
}

// handOff sends the browser to an external identity provider: a browser
// (it asks for HTML) sees "Continuing to <provider>…", which moves on at
// once by itself (meta refresh, no script) and has a link; other clients
// get the plain redirect.
func (p *ssoLogin) handOff(w http.ResponseWriter, r *http.Request, name, target string) {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	p.render(w, r, http.StatusOK, "handoff.html", handOffView{Name: name, URL: target})
}
