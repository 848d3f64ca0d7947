package idp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// ssoClients caches the discovery documents of external providers (derived
// data, safe to lose) for a few minutes.
type ssoClients struct {
	http *http.Client
	mu   sync.Mutex
	m    map[string]cachedProvider
}

type cachedProvider struct {
	prov    *gooidc.Provider
	fetched time.Time
}

func newSSOClients() *ssoClients {
	return &ssoClients{http: &http.Client{Timeout: 10 * time.Second}, m: map[string]cachedProvider{}}
}

func (c *ssoClients) ctx(ctx context.Context) context.Context {
	return gooidc.ClientContext(ctx, c.http)
}

func (c *ssoClients) provider(ctx context.Context, issuer string) (*gooidc.Provider, error) {
	c.mu.Lock()
	cp, ok := c.m[issuer]
	c.mu.Unlock()
	if ok && time.Since(cp.fetched) < 5*time.Minute {
		return cp.prov, nil
	}
	prov, err := gooidc.NewProvider(c.ctx(ctx), issuer)
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", issuer, err)
	}
	c.mu.Lock()
	c.m[issuer] = cachedProvider{prov: prov, fetched: time.Now()}
	c.mu.Unlock()
	return prov, nil
}

// oauthConfig is this provider as a relying party of an external one.
func (p *Provider) oauthConfig(x *platform.ExternalIDP, prov *gooidc.Provider) (*oauth2.Config, error) {
	secret, err := p.sealer.Open(x.SecretSealed, "idp-secret:"+x.ID)
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

// ssoStart sends the user of a login to an external provider.
func (p *Provider) ssoStart(w http.ResponseWriter, r *http.Request) {
	a, err := p.store.AuthRequest(r.Context(), r.URL.Query().Get("authRequestID"), p.now())
	if err != nil || a.Done {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	p.redirectToIDP(w, r, a, r.URL.Query().Get("idp"))
}

// redirectToIDP starts an external login with PKCE, state and nonce of its own.
func (p *Provider) redirectToIDP(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, idpID string) {
	ctx := r.Context()
	x, err := p.store.ExternalIDP(ctx, idpID)
	if err != nil {
		p.ssoError(w, r, fmt.Errorf("identity provider %q: %w", idpID, err))
		return
	}
	if org := orgScope(a.Scopes); org != "" && org != x.OrgID {
		p.ssoError(w, r, fmt.Errorf("identity provider %s belongs to organization %s, not %s", x.ID, x.OrgID, org))
		return
	}
	policy, err := p.store.LoginPolicy(ctx, x.OrgID)
	if err != nil || !policy.SSOAllowed {
		p.ssoError(w, r, fmt.Errorf("organization %s does not allow SSO (%v)", x.OrgID, err))
		return
	}
	prov, err := p.sso.provider(ctx, x.Issuer)
	if err != nil {
		p.ssoError(w, r, err)
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
	http.Redirect(w, r, cfg.AuthCodeURL(state, opts...), http.StatusFound)
}

// ssoCallback finishes an external login: the state is taken once, the code
// exchanged with the verifier, the id_token verified and its nonce checked,
// then the external identity is linked to a user of the organization.
func (p *Provider) ssoCallback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	st, err := p.store.TakeSSOState(ctx, hashSecret(q.Get("state")), p.now())
	if err != nil {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	a, err := p.store.AuthRequest(ctx, st.AuthRequestID, p.now())
	if err != nil || a.Done {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	if e := q.Get("error"); e != "" {
		p.ssoError(w, r, fmt.Errorf("external provider answered %s: %s", e, q.Get("error_description")))
		return
	}
	x, err := p.store.ExternalIDP(ctx, st.IDPID)
	if err != nil {
		p.ssoError(w, r, err)
		return
	}
	userID, amr, err := p.externalUser(ctx, x, st, q.Get("code"))
	if err != nil {
		p.ssoError(w, r, err)
		return
	}
	p.finishLogin(w, r, a, userID, amr)
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
)

func (p *Provider) externalUser(ctx context.Context, x *platform.ExternalIDP, st *store.SSOState, code string) (string, []string, error) {
	prov, err := p.sso.provider(ctx, x.Issuer)
	if err != nil {
		return "", nil, err
	}
	cfg, err := p.oauthConfig(x, prov)
	if err != nil {
		return "", nil, err
	}
	tok, err := cfg.Exchange(p.sso.ctx(ctx), code, oauth2.VerifierOption(st.CodeVerifier))
	if err != nil {
		return "", nil, fmt.Errorf("code exchange with %s: %w", x.Issuer, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := prov.Verifier(&gooidc.Config{ClientID: x.ClientID}).Verify(p.sso.ctx(ctx), raw)
	if err != nil {
		return "", nil, fmt.Errorf("id_token from %s: %w", x.Issuer, err)
	}
	if idt.Nonce != st.Nonce {
		return "", nil, fmt.Errorf("id_token from %s: nonce mismatch", x.Issuer)
	}
	var c externalClaims
	if err := idt.Claims(&c); err != nil {
		return "", nil, err
	}
	if c.Email == "" {
		if info, err := prov.UserInfo(p.sso.ctx(ctx), oauth2.StaticTokenSource(tok)); err == nil && info.Subject == idt.Subject {
			c.Email, c.EmailVerified = info.Email, &info.EmailVerified
			_ = info.Claims(&c)
		}
	}
	amr := []string{"fed"}
	userID, err := p.linkExternal(ctx, x, idt.Subject, c)
	return userID, amr, err
}

// linkExternal finds or creates the local user of an external identity: an
// existing link, else the organization's user with the same verified
// address, else a new user when the organization allows it.
func (p *Provider) linkExternal(ctx context.Context, x *platform.ExternalIDP, subject string, c externalClaims) (string, error) {
	if uid, err := p.store.LinkedUser(ctx, x.ID, subject); err == nil {
		return uid, nil
	} else if platform.ErrorCode(err) != platform.ENOTFOUND {
		return "", err
	}
	email := platform.NormalizeEmail(c.Email)
	if !platform.ValidEmail(email) {
		return "", fmt.Errorf("external identity %s has no usable e-mail address", subject)
	}
	verified := c.EmailVerified != nil && *c.EmailVerified
	users, err := p.store.UsersByEmail(ctx, email, x.OrgID)
	if err != nil {
		return "", err
	}
	now := p.now()
	if len(users) == 1 {
		if !verified {
			return "", errUnverifiedLink
		}
		return users[0].ID, p.store.LinkExternalIdentity(ctx, x.ID, subject, users[0].ID, now)
	}
	policy, err := p.store.LoginPolicy(ctx, x.OrgID)
	if err != nil {
		return "", err
	}
	if !policy.SSOCreateUsers {
		return "", errNoAccount
	}
	name := c.Name
	if name == "" {
		name = email
	}
	u := &platform.User{ID: uuid.NewString(), OrgID: x.OrgID, Email: email, EmailVerified: verified, Name: name,
		CreatedAt: now, UpdatedAt: now}
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.LinkExternalIdentity(ctx, x.ID, subject, u.ID, now)
	})
	if err == nil {
		slog.InfoContext(ctx, "user created from external identity", "user_id", u.ID, "idp_id", x.ID)
	}
	return u.ID, err
}

// ssoError logs an external-login failure in full and shows the user a
// generic page with the request id to quote.
func (p *Provider) ssoError(w http.ResponseWriter, r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "external login failed", "err", err)
	p.renderError(w, r, http.StatusBadGateway, "Sign-in with your organization's provider failed",
		"Please try again. If it keeps failing, contact your administrator and quote the reference below.")
}
