package idp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The token exchange grant (RFC 8693, D-impersonation) serves two cases,
// each issuing one access token (never a refresh token) whose sub is the
// user and whose act claim names who acts for it:
//
//   - impersonation: the console's client presents the one-time subject
//     token the console API issued (POST /api/v1/users/{id}/impersonate;
//     subject_token_type TokenTypeImpersonation) with the support user's
//     own access token as actor_token. The token is for the console, its
//     grant is the impersonation's, it lives until the impersonation ends
//     (at most ImpersonationLifetime after the exchange).
//   - delegation: a service account (client_credentials client) presents a
//     user's access token of its own customer (subject_token_type
//     access_token) and receives a token for the API of the resource (or
//     audience) it names (RFC 8707), with a subset of the user's scopes,
//     on the same grant, no longer than the user's token.
//
// A token that already carries act is never exchanged again (no chains).

// TokenTypeImpersonation is the subject_token_type of an impersonation's
// one-time subject token.
const TokenTypeImpersonation = "urn:platform:params:oauth:token-type:impersonation"

// ImpersonationLifetime is the longest an impersonation's token lives.
const ImpersonationLifetime = time.Hour

// grantTokenExchange is how the audit log names the grant.
const grantTokenExchange = string(oidc.GrantTypeTokenExchange)

// actorClaim is the act claim (RFC 8693 section 4.1): who acts.
type actorClaim struct {
	Subject string `json:"sub"`
}

// exchangeResponse is the token exchange's answer (RFC 8693 section 2.2.1).
type exchangeResponse struct {
	AccessToken     string `json:"access_token"`
	IssuedTokenType string `json:"issued_token_type"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in"`
	Scope           string `json:"scope,omitempty"`
}

// exchangeError is a refusal of the exchange: an OAuth error code, its
// description and status.
type exchangeError struct {
	status     int
	code, desc string
}

func (e *exchangeError) Error() string { return e.code + ": " + e.desc }

func refuseExchange(status int, code, desc string) error {
	return &exchangeError{status: status, code: code, desc: desc}
}

var (
	errExchangeClient  = refuseExchange(http.StatusUnauthorized, "invalid_client", "client authentication failed")
	errExchangeSubject = refuseExchange(http.StatusBadRequest, "invalid_grant", "subject_token is not valid")
	errExchangeActor   = refuseExchange(http.StatusBadRequest, "invalid_grant", "actor_token is not valid")
	errExchangeChain   = refuseExchange(http.StatusBadRequest, "invalid_grant", "a token that acts for another user cannot be exchanged")
)

// tokenExchange answers the token exchange grant; every other request
// goes on to next. clientAuth ran before it (a verified assertion is in
// the context).
func (p *endpoints) tokenExchange(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.PostForm.Get("grant_type") != grantTokenExchange {
			next.ServeHTTP(w, r)
			return
		}
		ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
		resp, err := p.exchange(ctx, r)
		if err != nil {
			var e *exchangeError
			if !errors.As(err, &e) {
				slog.ErrorContext(ctx, "token exchange", "err", err)
				e = &exchangeError{status: http.StatusInternalServerError, code: "server_error", desc: "the token could not be issued"}
			}
			oauthError(w, e.status, e.code, e.desc)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		httpapi.WriteJSON(w, http.StatusOK, resp)
	})
}

// exchange checks the request and issues its token.
func (p *endpoints) exchange(ctx context.Context, r *http.Request) (*exchangeResponse, error) {
	form := r.PostForm
	for _, k := range []string{"subject_token", "subject_token_type", "actor_token", "actor_token_type", "scope",
		"requested_token_type", "resource", "audience"} {
		if len(form[k]) > 1 {
			return nil, refuseExchange(http.StatusBadRequest, "invalid_request", k+" is repeated")
		}
	}
	if t := form.Get("requested_token_type"); t != "" && t != string(oidc.AccessTokenType) {
		return nil, refuseExchange(http.StatusBadRequest, "invalid_request", "requested_token_type must be an access token")
	}
	if form.Get("subject_token") == "" || len(form.Get("subject_token")) > maxExchangeToken ||
		len(form.Get("actor_token")) > maxExchangeToken {
		return nil, refuseExchange(http.StatusBadRequest, "invalid_request", "subject_token is required")
	}
	app, err := p.exchangeClient(ctx, r)
	if err != nil {
		return nil, err
	}
	switch form.Get("subject_token_type") {
	case TokenTypeImpersonation:
		return p.impersonate(ctx, app, form)
	case string(oidc.AccessTokenType):
		return p.delegate(ctx, app, form)
	}
	return nil, refuseExchange(http.StatusBadRequest, "invalid_request", "subject_token_type is not supported")
}

// maxExchangeToken bounds the tokens an exchange presents.
const maxExchangeToken = 8192

// exchangeClient authenticates the client of an exchange: by the
// assertion clientAuth verified, by its secret, or, for a public client,
// by its id alone.
func (p *endpoints) exchangeClient(ctx context.Context, r *http.Request) (*platform.Application, error) {
	if id := assertedClient(ctx); id != "" {
		app, err := p.application(ctx, id)
		if err != nil {
			return nil, errExchangeClient
		}
		return app, nil
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	app, err := p.application(ctx, id)
	if err != nil || id == "" {
		return nil, errExchangeClient
	}
	if app.Kind == platform.AppPublic {
		if secret != "" {
			return nil, errExchangeClient
		}
		return app, nil
	}
	if err := p.storage.AuthorizeClientIDSecret(ctx, id, secret); err != nil {
		return nil, errExchangeClient
	}
	return app, nil
}

// presented is a verified access token of this provider, still active,
// of a grant that holds.
type presented struct {
	claims *oidc.AccessTokenClaims
	token  *store.AccessToken
}

// verifyPresented verifies raw as an access token of this provider that
// is active and whose grant holds; chained tokens (with act) are refused.
func (p *endpoints) verifyPresented(ctx context.Context, raw string, refused error) (*presented, error) {
	claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, p.op.AccessTokenVerifier(ctx))
	if err != nil {
		return nil, refused
	}
	if claims.Actor != nil || claims.Claims["act"] != nil {
		return nil, errExchangeChain
	}
	t, err := p.store.ActiveAccessToken(ctx, claims.JWTID, p.now())
	if err != nil || t.UserID != claims.Subject {
		return nil, refused
	}
	g, err := p.store.TokenGrant(ctx, t.FamilyID)
	if err != nil || !g.RevokedAt.IsZero() {
		return nil, refused
	}
	return &presented{claims: claims, token: t}, nil
}

// impersonate exchanges an impersonation's subject token, presented by the
// console's client with the support user's access token as actor_token.
func (p *endpoints) impersonate(ctx context.Context, app *platform.Application, form url.Values) (*exchangeResponse, error) {
	if app.ClientID != p.cfg.ConsoleClientID || p.cfg.ConsoleClientID == "" {
		return nil, refuseExchange(http.StatusBadRequest, "unauthorized_client", "only the console exchanges impersonation tokens")
	}
	if form.Get("actor_token") == "" || form.Get("actor_token_type") != string(oidc.AccessTokenType) {
		return nil, refuseExchange(http.StatusBadRequest, "invalid_request", "actor_token (an access token) is required")
	}
	actor, err := p.verifyPresented(ctx, form.Get("actor_token"), errExchangeActor)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(actor.token.Audience, p.cfg.ConsoleClientID) {
		return nil, errExchangeActor
	}
	scopes, err := narrowScopes(actor.token.Scopes, form.Get("scope"))
	if err != nil {
		return nil, err // before the subject token is spent
	}
	now := p.now()
	m, err := p.store.ExchangeImpersonation(ctx, hashSecret(form.Get("subject_token")), actor.token.UserID, actor.token.FamilyID,
		now, now.Add(ImpersonationLifetime))
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, errExchangeSubject
	} else if err != nil {
		return nil, err
	}
	t := &store.AccessToken{ID: uuid.NewString(), FamilyID: m.ID, ClientID: app.ClientID, UserID: m.UserID, Scopes: scopes,
		Audience: []string{p.cfg.ConsoleClientID}, CreatedAt: now, ExpiresAt: m.ExpiresAt, GrantExpiresAt: m.ExpiresAt}
	return p.issueExchanged(ctx, t, m.ActorID)
}

// delegate exchanges a user's access token, presented by a service
// account of the user's customer, for a token of another audience.
func (p *endpoints) delegate(ctx context.Context, app *platform.Application, form url.Values) (*exchangeResponse, error) {
	if app.Kind != platform.AppService || app.UserID == "" {
		return nil, refuseExchange(http.StatusBadRequest, "unauthorized_client", "only a service account delegates a user's token")
	}
	if form.Get("actor_token") != "" {
		return nil, refuseExchange(http.StatusBadRequest, "invalid_request", "a delegation takes no actor_token: the client acts")
	}
	subject, err := p.verifyPresented(ctx, form.Get("subject_token"), errExchangeSubject)
	if err != nil {
		return nil, err
	}
	if err := p.sameCustomer(ctx, app.UserID, subject.token.UserID); err != nil {
		return nil, err
	}
	target := form.Get("resource")
	if target == "" {
		target = form.Get("audience")
	}
	if target == p.cfg.ConsoleClientID {
		target = ""
	}
	aud, err := p.storage.serviceAudience(ctx, app, target)
	if err != nil {
		var oe *oidc.Error
		if errors.As(err, &oe) {
			return nil, refuseExchange(http.StatusBadRequest, string(oe.ErrorType), oe.Description)
		}
		return nil, err
	}
	scopes, err := narrowScopes(subject.token.Scopes, form.Get("scope"))
	if err != nil {
		return nil, err
	}
	now := p.now()
	exp := now.Add(p.cfg.AccessTokenLifetime)
	if subject.token.ExpiresAt.Before(exp) {
		exp = subject.token.ExpiresAt // never outlives the user's own token
	}
	t := &store.AccessToken{ID: uuid.NewString(), FamilyID: subject.token.FamilyID, ClientID: app.ClientID,
		UserID: subject.token.UserID, Scopes: scopes, Audience: aud, CreatedAt: now, ExpiresAt: exp}
	return p.issueExchanged(ctx, t, app.UserID)
}

// sameCustomer refuses a delegation by service account principal
// serviceUser of a user of another customer (or of an internal service
// account for a customer's user, or any user of none).
func (p *endpoints) sameCustomer(ctx context.Context, serviceUser, userID string) error {
	customer, err := p.store.ServiceAccountCustomer(ctx, serviceUser)
	if err != nil {
		return errExchangeClient
	}
	u, err := p.user(ctx, userID)
	if err != nil {
		return errExchangeSubject
	}
	c, err := p.store.CustomerByOrg(ctx, u.OrgID)
	if err != nil || customer == "" || c.ID != customer {
		return refuseExchange(http.StatusBadRequest, "invalid_grant", "the user is not of the service account's customer")
	}
	return nil
}

// narrowScopes is the scopes of an exchanged token: requested (space
// separated), each one of held, or all of held when none is requested.
// invalid_scope otherwise.
func narrowScopes(held []string, requested string) ([]string, error) {
	want := strings.Fields(requested)
	if len(want) == 0 {
		return slices.Clone(held), nil
	}
	for _, s := range want {
		if !slices.Contains(held, s) {
			return nil, refuseExchange(http.StatusBadRequest, "invalid_scope", "scope "+clipScope(s)+" is not held by the subject token")
		}
	}
	slices.Sort(want)
	return slices.Compact(want), nil
}

// clipScope shortens a scope for an error description.
func clipScope(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// issueExchanged stores t (opening or extending its grant) with its
// token.issued event, and answers it signed with act naming actorID.
func (p *endpoints) issueExchanged(ctx context.Context, t *store.AccessToken, actorID string) (*exchangeResponse, error) {
	t.DPoPJKT = boundTo(ctx).jkt
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateAccessToken(ctx, t); err != nil {
			return err
		}
		return p.storage.record(ctx, tx, audit.Entry{Kind: audit.TokenIssued, ActorID: t.UserID, Target: appTarget(t.ClientID),
			CustomerOf: t.UserID, ImpersonatorID: actorID, Details: audit.Details{GrantType: grantTokenExchange, GrantID: t.FamilyID}})
	})
	if err != nil {
		return nil, err
	}
	c := p.storage.claimsOf(ctx, nil, t)
	c.Actor = &actorClaim{Subject: actorID}
	jwt, err := p.storage.keys.signJWT(ctx, typeAccessToken, c)
	if err != nil {
		return nil, err
	}
	return &exchangeResponse{AccessToken: jwt, IssuedTokenType: string(oidc.AccessTokenType), TokenType: oidc.BearerToken,
		ExpiresIn: int64(t.ExpiresAt.Sub(p.now()).Seconds()), Scope: strings.Join(t.Scopes, " ")}, nil
}
