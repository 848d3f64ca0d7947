package idp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"log/slog"
	"slices"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// storage implements op.Storage over the platform store. It is where the
// provider's own rules live: PKCE S256 for every client, prompt=none from the
// browser session, single-use codes and refresh-token rotation with reuse
// detection.
type storage struct {
	*core
	keys *keyManager
}

var (
	_ op.Storage                   = (*storage)(nil)
	_ op.CanSetUserinfoFromRequest = (*storage)(nil)
)

func (s *storage) now() time.Time { return s.core.now().UTC() }

// CreateAuthRequest refuses requests without an S256 challenge (R5.1-pkce),
// binds the transaction to the browser that sent it (D-login-binding) and
// answers prompt=none from the browser session (R5.2-silent). hintUserID is
// the subject of a valid id_token_hint: only that user's session answers.
// A request naming an impersonation completes for the impersonated user or
// is refused (impersonation_authorize.go, D-impersonation).
func (s *storage) CreateAuthRequest(ctx context.Context, req *oidc.AuthRequest, hintUserID string) (op.AuthRequest, error) {
	if err := checkAuthParams(req); err != nil {
		return nil, err
	}
	jkt, ok := codeKeyOf(ctx)
	if !ok {
		return nil, oidc.ErrInvalidRequest().WithDescription("dpop_jkt must be a key's SHA-256 thumbprint (RFC 7638)")
	}
	binding := bindingFromContext(ctx)
	if binding == "" {
		return nil, oidc.ErrServerError().WithDescription("login transactions start at the authorize endpoint")
	}
	now := s.now()
	a := &store.AuthRequest{BindingHash: binding, HintUserID: hintUserID,
		ID: uuid.NewString(), ClientID: req.ClientID, RedirectURI: req.RedirectURI, Scopes: req.Scopes,
		State: req.State, Nonce: req.Nonce, ResponseType: string(req.ResponseType), ResponseMode: string(req.ResponseMode),
		CodeChallenge: req.CodeChallenge, CodeChallengeMethod: string(req.CodeChallengeMethod),
		Prompt: req.Prompt, LoginHint: req.LoginHint, CreatedAt: now, ExpiresAt: now.Add(s.cfg.LoginTimeout),
		UILocales: i18n.Pick(i18n.UILocales(req.UILocales.String())),
		ACR:       demandedACR(req.ACRValues),
		DPoPJKT:   jkt,
	}
	if req.MaxAge != nil {
		v := int64(*req.MaxAge)
		a.MaxAge = &v
	}
	if id, sent := impersonationOfRequest(ctx); sent {
		if err := s.impersonate(ctx, id, a); err != nil {
			return nil, err
		}
	} else if slices.Contains(req.Prompt, oidc.PromptNone) {
		sess := sessionFromContext(ctx)
		if sess == nil || !s.sessionSatisfies(ctx, sess, a) {
			return nil, oidc.ErrLoginRequired()
		}
		a.UserID, a.AuthTime, a.AMR, a.Done, a.SessionSID = sess.UserID, sess.AuthTime, sess.AMR, true, sess.SID
	}
	if err := s.store.CreateAuthRequest(ctx, a); err != nil {
		return nil, err
	}
	return authRequest{a}, nil
}

// checkAuthParams holds an authorization request to what this provider
// serves beyond the op library's checks: the code flow with PKCE S256, and
// bounded state, nonce and login_hint.
func checkAuthParams(req *oidc.AuthRequest) *oidc.Error {
	switch {
	case req.CodeChallenge == "":
		return oidc.ErrInvalidRequest().WithDescription("code_challenge is required (PKCE with S256)")
	case req.CodeChallengeMethod != oidc.CodeChallengeMethodS256:
		return oidc.ErrInvalidRequest().WithDescription("code_challenge_method must be S256")
	case len(req.CodeChallenge) < 43 || len(req.CodeChallenge) > 128:
		return oidc.ErrInvalidRequest().WithDescription("code_challenge is malformed")
	case req.ResponseType != oidc.ResponseTypeCode:
		return oidc.ErrInvalidRequest().WithDescription("only response_type=code is supported")
	case len(req.State) > 2048 || len(req.Nonce) > 2048 || len(req.LoginHint) > 320:
		return oidc.ErrInvalidRequest().WithDescription("state, nonce or login_hint is too long")
	}
	return nil
}

func (s *storage) AuthRequestByID(ctx context.Context, id string) (op.AuthRequest, error) {
	a, err := s.store.AuthRequest(ctx, id, s.now())
	if err != nil {
		return nil, err
	}
	return authRequest{a}, nil
}

// AuthRequestByCode redeems a code at most once. A second presentation is a
// replay: everything the first exchange issued is revoked.
func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	a, err := s.store.AuthRequestByCodeHash(ctx, hashSecret(code), s.now())
	if err != nil {
		return nil, err
	}
	won, err := s.store.MarkAuthRequestExchanged(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	if !won {
		slog.WarnContext(ctx, "authorization code replayed; revoking its tokens", "client_id", a.ClientID, "auth_request", a.ID)
		if err := s.revokeFamily(ctx, a.ID, a.UserID, a.ClientID, "authorization_code"); err != nil {
			return nil, err
		}
		return nil, errors.New("code already used")
	}
	return authRequest{a}, nil
}

func (s *storage) SaveAuthCode(ctx context.Context, id, code string) error {
	return s.store.SaveAuthCode(ctx, id, hashSecret(code), s.now().Add(s.cfg.CodeLifetime))
}

// DeleteAuthRequest keeps an exchanged request until it expires, so that a
// replayed code is recognised; unexchanged ones are simply left to expire.
func (s *storage) DeleteAuthRequest(context.Context, string) error { return nil }

// CreateAccessToken stores an access token (and opens its grant) and
// returns it signed (see accesstoken.go: the library takes it as the token's id).
func (s *storage) CreateAccessToken(ctx context.Context, req op.TokenRequest) (string, time.Time, error) {
	m, err := s.impersonatedTokens(ctx, req)
	if err != nil {
		return "", time.Time{}, err
	}
	t := s.newAccessToken(ctx, req, familyOf(req))
	if m != nil {
		within(t, m)
	}
	err = s.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateAccessToken(ctx, t); err != nil {
			return err
		}
		return s.record(ctx, tx, tokensIssued(req, t))
	})
	if err != nil {
		return "", time.Time{}, err
	}
	jwt, err := s.signAccessToken(ctx, req, t)
	if err != nil {
		return "", time.Time{}, err
	}
	return jwt, t.ExpiresAt, nil
}

// newAccessToken is the record of an access token of req, bound to the DPoP
// key of the token request in ctx when there is one.
func (s *storage) newAccessToken(ctx context.Context, req op.TokenRequest, family string) *store.AccessToken {
	now := s.now()
	return &store.AccessToken{
		ID: uuid.NewString(), FamilyID: family, ClientID: clientOf(req), UserID: req.GetSubject(),
		Scopes: req.GetScopes(), Audience: req.GetAudience(), CreatedAt: now, ExpiresAt: now.Add(s.cfg.AccessTokenLifetime),
		GrantExpiresAt: now.Add(s.grantLifetime()), SessionSID: sessionOfGrant(req), DPoPJKT: boundTo(ctx).jkt,
	}
}

// sessionOfGrant is the provider session a grant ends with: the browser
// session that completed its authorization (D-session-grants). A device
// authorization has none; refreshes keep the grant's own.
func sessionOfGrant(req op.TokenRequest) string {
	if a, ok := req.(authRequest); ok {
		return a.SessionSID
	}
	return ""
}

// CreateAccessAndRefreshTokens issues an access token and a new refresh token
// in the request's family; when refreshing, the presented token is used up in
// the same transaction (D-refresh-reuse).
func (s *storage) CreateAccessAndRefreshTokens(ctx context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	if a, ok := req.(authRequest); ok && a.ImpersonationID != "" { // its scopes lost offline_access: never reached
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("an impersonation issues no refresh token")
	}
	family := familyOf(req)
	at := s.newAccessToken(ctx, req, family)
	refresh := randomToken()
	now := s.now()
	rt := &store.RefreshToken{
		TokenHash: hashSecret(refresh), FamilyID: family, ClientID: at.ClientID, UserID: at.UserID,
		Scopes: req.GetScopes(), Audience: req.GetAudience(), AccessTokenID: at.ID, CreatedAt: now,
		ExpiresAt: now.Add(s.cfg.RefreshTokenLifetime),
	}
	if b := boundTo(ctx); b.bindsRefresh {
		rt.DPoPJKT = b.jkt // a public client's refresh token is bound to its DPoP key (D-dpop)
	}
	switch r := req.(type) {
	case authRequest:
		rt.AMR, rt.AuthTime = r.AMR, r.AuthTime
	case *refreshRequest:
		// the original scopes stay the ceiling for later refreshes
		rt.AMR, rt.AuthTime, rt.Scopes = r.AMR, r.AuthTime, r.RefreshToken.Scopes
	case *op.DeviceAuthorizationState:
		rt.AMR, rt.AuthTime = r.AMR, r.AuthTime
	}
	used := ""
	if current != "" {
		used = hashSecret(current)
	}
	var ok bool
	issue := func(tx *store.Store) (err error) {
		ok, err = tx.IssueTokens(ctx, used, at, rt)
		return err
	}
	var err error
	if _, refresh := req.(*refreshRequest); refresh {
		err = issue(s.store) // a refresh issues no new grant: not recorded
	} else {
		err = s.store.InTx(ctx, func(tx *store.Store) error {
			if err := issue(tx); err != nil || !ok {
				return err
			}
			return s.record(ctx, tx, tokensIssued(req, at))
		})
	}
	if err != nil {
		return "", "", time.Time{}, err
	}
	if !ok {
		s.revokeReused(ctx, family, at.UserID, at.ClientID)
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("refresh token already used")
	}
	jwt, err := s.signAccessToken(ctx, req, at)
	if err != nil {
		return "", "", time.Time{}, err
	}
	return jwt, refresh, at.ExpiresAt, nil
}

func (s *storage) revokeReused(ctx context.Context, family, userID, clientID string) {
	slog.WarnContext(ctx, "refresh token reused; revoking its family", "family", family)
	if err := s.revokeFamily(ctx, family, userID, clientID, "refresh_token"); err != nil {
		slog.ErrorContext(ctx, "revoke token family", "family", family, "err", err)
	}
}

// revokeFamily revokes the grant family, whose token (a refresh token or
// an authorization code) was presented again, and records the reuse
// (token.reuse_detected) in the same transaction.
func (s *storage) revokeFamily(ctx context.Context, family, userID, clientID, token string) error {
	return s.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.RevokeFamily(ctx, family); err != nil {
			return err
		}
		return s.record(ctx, tx, audit.Entry{Kind: audit.TokenReuseDetected, Failed: true, Reason: "token_reused",
			ActorID: userID, Target: appTarget(clientID), CustomerOf: userID,
			Details: audit.Details{Token: token, GrantID: family}})
	})
}

// tokensIssued is the event of a new grant's first tokens, t among them:
// for its subject (a user, a service account, or a client of its own), to
// its client, by its grant type, with the support user of an impersonated
// authorization as impersonator. Refreshes are not recorded.
func tokensIssued(req op.TokenRequest, t *store.AccessToken) audit.Entry {
	grant := "authorization_code"
	switch req.(type) {
	case serviceRequest:
		grant = "client_credentials"
	case *op.DeviceAuthorizationState:
		grant = "urn:ietf:params:oauth:grant-type:device_code"
	}
	e := audit.Entry{Kind: audit.TokenIssued, ActorID: t.UserID, Target: appTarget(t.ClientID), CustomerOf: t.UserID,
		Details: audit.Details{GrantType: grant, GrantID: t.FamilyID}}
	if a, ok := req.(authRequest); ok {
		e.ImpersonatorID = a.ActorID // an impersonated authorization: the support user acted
	}
	return e
}

// TokenRequestByRefreshToken returns the grant behind a refresh token. A used
// or revoked token revokes its whole family (D-refresh-reuse).
func (s *storage) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	rt, err := s.store.RefreshToken(ctx, hashSecret(token), s.now())
	if err != nil {
		return nil, op.ErrInvalidRefreshToken
	}
	if rt.Used { // presented again after its rotation: reuse, recorded
		s.revokeReused(ctx, rt.FamilyID, rt.UserID, rt.ClientID)
		return nil, op.ErrInvalidRefreshToken
	}
	if rt.Revoked { // its grant already ended (signed out, reused, revoked): ended again, nothing new to record
		if err := s.store.RevokeFamily(ctx, rt.FamilyID); err != nil {
			slog.ErrorContext(ctx, "revoke token family", "family", rt.FamilyID, "err", err)
		}
		return nil, op.ErrInvalidRefreshToken
	}
	if !s.refreshWithinPolicy(ctx, rt) {
		return nil, op.ErrInvalidRefreshToken
	}
	return &refreshRequest{RefreshToken: rt, scopes: rt.Scopes}, nil
}

// refreshWithinPolicy reports whether the user's organization still lets
// a refresh token be used (D-org-policy): within its session lifetimes
// (absolute since the sign-in, idle since the token was issued, that is,
// the last refresh), and signed in a way that satisfies its policy now (a
// second factor it accepts where it forces MFA). A user that is gone is
// refused.
func (s *storage) refreshWithinPolicy(ctx context.Context, rt *store.RefreshToken) bool {
	u, err := s.user(ctx, rt.UserID)
	if err != nil {
		return false
	}
	if u.OrgID == "" || rt.AuthTime.IsZero() { // a machine's grant (client credentials) has no sign-in
		return true
	}
	rules, err := s.loginRules(ctx, u.OrgID)
	if err != nil {
		return false
	}
	return !rules.outlived(s.cfg.SessionLifetime, rt.AuthTime, rt.CreatedAt, s.now()) && rules.satisfiedBy(rt.AMR)
}

// TerminateSession does nothing: end_session ends the browser's own session
// in endSessionSubmit, after the user confirmed with a POST, before the op
// library calls this. A request that reaches here by GET had no session to
// end, and an id_token_hint never ends the sessions of other browsers.
func (s *storage) TerminateSession(context.Context, string, string) error { return nil }

// RevokeToken revokes an access token (by JWT id) or a refresh token (RFC 7009).
// Revoking an access token of a running impersonation ends the
// impersonation (its grant, so every token of it). Unknown tokens are not
// an error.
func (s *storage) RevokeToken(ctx context.Context, tokenOrID, _ string, clientID string) *oidc.Error {
	if rt, err := s.store.RefreshToken(ctx, hashSecret(tokenOrID), s.now()); err == nil {
		if rt.ClientID != clientID {
			return oidc.ErrInvalidClient().WithDescription("token was not issued to this client")
		}
		if err := s.store.RevokeFamily(ctx, rt.FamilyID); err != nil {
			return oidc.ErrServerError()
		}
		return nil
	}
	if at, err := s.store.ActiveAccessToken(ctx, tokenOrID, s.now()); err == nil {
		if at.ClientID != clientID {
			return oidc.ErrInvalidClient().WithDescription("token was not issued to this client")
		}
		if _, err := s.store.RevokeAccessToken(ctx, at.ID); err != nil {
			return oidc.ErrServerError()
		}
		if err := s.endRevokedImpersonation(ctx, at); err != nil {
			return oidc.ErrServerError()
		}
	}
	return nil
}

func (s *storage) GetRefreshTokenInfo(ctx context.Context, clientID, token string) (string, string, error) {
	rt, err := s.store.RefreshToken(ctx, hashSecret(token), s.now())
	if err != nil || rt.ClientID != clientID {
		return "", "", op.ErrInvalidRefreshToken
	}
	return rt.UserID, token, nil
}

func (s *storage) SigningKey(ctx context.Context) (op.SigningKey, error) {
	return s.keys.SigningKey(ctx)
}
func (s *storage) KeySet(ctx context.Context) ([]op.Key, error) { return s.keys.KeySet(ctx) }
func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{s.keys.alg}, nil
}

func (s *storage) GetClientByClientID(ctx context.Context, clientID string) (op.Client, error) {
	return s.client(ctx, clientID)
}

// AuthorizeClientIDSecret checks a confidential client's secret in
// constant time. A client registered for private_key_jwt has no secret
// that counts.
func (s *storage) AuthorizeClientIDSecret(ctx context.Context, clientID, secret string) error {
	app, err := s.application(ctx, clientID)
	if err != nil || app.Kind == platform.AppPublic || app.TokenAuthMethod() == platform.AuthPrivateKeyJWT || app.SecretHash == "" {
		return oidc.ErrInvalidClient()
	}
	if subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(app.SecretHash)) != 1 {
		return oidc.ErrInvalidClient()
	}
	return nil
}

// SetUserinfoFromScopes is superseded by SetUserinfoFromRequest.
func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest fills the id_token claims.
func (s *storage) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	if err := s.fillUserinfo(ctx, info, req.GetSubject(), scopes); err != nil {
		return err
	}
	if a, ok := req.(authRequest); ok && a.SessionSID != "" {
		info.AppendClaims("sid", a.SessionSID) // the provider session, for back-channel logout
	}
	return nil
}

// SetUserinfoFromToken answers the userinfo endpoint for an active access token.
func (s *storage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	t, err := s.store.ActiveAccessToken(ctx, tokenID, s.now())
	if err != nil || t.UserID != subject {
		return errors.New("access token is not active")
	}
	return s.fillUserinfo(ctx, info, t.UserID, t.Scopes)
}

// SetIntrospectionFromToken answers introspection (RFC 7662) to the
// callers a token concerns: its own client, a resource server it is for
// (the caller among its audience), or a management client of the provider
// (the console's service client). Any other authenticated client, another
// customer's service account among them, learns nothing of it: the answer
// is {"active":false}, as for an unknown token (D-introspection). Nothing
// is filled in before the check: the op library writes the response even
// when this returns an error.
func (s *storage) SetIntrospectionFromToken(ctx context.Context, resp *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	t, err := s.store.ActiveAccessToken(ctx, tokenID, s.now())
	if err != nil || t.UserID != subject {
		return errors.New("access token is not active")
	}
	if !s.mayIntrospect(ctx, clientID, t) {
		slog.InfoContext(ctx, "introspection refused: the token is not the caller's", "caller", clientID, "token_client", t.ClientID)
		return errors.New("the token does not concern the caller")
	}
	info := new(oidc.UserInfo)
	if t.UserID == t.ClientID {
		info.Subject = t.UserID // a service client's own token (client_credentials): no user behind it
	} else if err := s.fillUserinfo(ctx, info, t.UserID, t.Scopes); err != nil {
		return err
	}
	resp.SetUserInfo(info)
	resp.Scope = t.Scopes
	resp.ClientID = t.ClientID
	resp.Audience = t.Audience
	resp.Expiration = oidc.FromTime(t.ExpiresAt)
	resp.IssuedAt = oidc.FromTime(t.CreatedAt)
	resp.TokenType = oidc.BearerToken
	if t.DPoPJKT != "" { // a bound token: its type and key (RFC 9449 section 6.2)
		resp.TokenType = tokenTypeDPoP
		if resp.Claims == nil {
			resp.Claims = map[string]any{}
		}
		resp.Claims["cnf"] = confirmation{JKT: t.DPoPJKT}
	}
	resp.Active = true
	return nil
}

// mayIntrospect reports whether the authenticated client caller may learn
// about access token t: t's client, a client among t's audience, or a
// service application allowed to manage the provider.
func (p *storage) mayIntrospect(ctx context.Context, caller string, t *store.AccessToken) bool {
	if caller == "" {
		return false
	}
	if caller == t.ClientID || slices.Contains(t.Audience, caller) {
		return true
	}
	app, err := p.application(ctx, caller)
	return err == nil && app.Kind == platform.AppService && app.Management
}

// GetPrivateClaimsFromScopes adds the home organization to JWT access tokens.
func (s *storage) GetPrivateClaimsFromScopes(ctx context.Context, userID, _ string, _ []string) (map[string]any, error) {
	u, err := s.user(ctx, userID)
	if err != nil {
		return nil, nil // client_credentials tokens have no user
	}
	return map[string]any{ClaimResourceOwnerID: u.OrgID}, nil
}

// GetKeyByIDAndClientID is a private_key_jwt client's registered public
// key (the op library verifies the assertions of the code and refresh
// grants with it; clientAuth verified them first and spent their jti).
func (s *storage) GetKeyByIDAndClientID(ctx context.Context, keyID, clientID string) (*jose.JSONWebKey, error) {
	app, err := s.application(ctx, clientID)
	if err != nil || app.TokenAuthMethod() != platform.AuthPrivateKeyJWT {
		return nil, errors.New("the client has no registered keys")
	}
	return clientKey(app, keyID)
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("jwt profile is not supported")
}

func (s *storage) Health(ctx context.Context) error { return s.store.Ping(ctx) }

func familyOf(req op.TokenRequest) string {
	switch r := req.(type) {
	case authRequest:
		return r.ID
	case *refreshRequest:
		return r.FamilyID
	}
	return uuid.NewString()
}

func clientOf(req op.TokenRequest) string {
	if r, ok := req.(interface{ GetClientID() string }); ok {
		return r.GetClientID()
	}
	return ""
}

// hashSecret is how codes, refresh tokens, client secrets and session ids are
// kept at rest: SHA-256, base64url. They are random 256-bit values, so a fast
// hash is enough; a leaked table gives nothing usable.
func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

var _ op.ClientCredentialsStorage = (*storage)(nil)

// ClientCredentials authenticates a service application (client_credentials):
// by the assertion clientAuth verified, or by its secret.
func (s *storage) ClientCredentials(ctx context.Context, clientID, secret string) (op.Client, error) {
	if assertedClient(ctx) != clientID {
		if err := s.AuthorizeClientIDSecret(ctx, clientID, secret); err != nil {
			return nil, err
		}
	}
	return s.client(ctx, clientID)
}

// ClientCredentialsTokenRequest is the grant of a service application. A
// service account's tokens have its principal as subject and the API of the
// requested resource (RFC 8707) as audience (serviceAudience); the
// console's service client's have the client as both.
func (s *storage) ClientCredentialsTokenRequest(ctx context.Context, clientID string, scopes []string) (op.TokenRequest, error) {
	app, err := s.application(ctx, clientID)
	if err != nil {
		return nil, oidc.ErrInvalidClient()
	}
	if app.UserID == "" {
		return serviceRequest{subject: clientID, clientID: clientID, audience: []string{clientID}, scopes: scopes}, nil
	}
	aud, err := s.serviceAudience(ctx, app, requestedResource(ctx))
	if err != nil {
		return nil, err
	}
	return serviceRequest{subject: app.UserID, clientID: clientID, audience: aud, scopes: scopes}, nil
}

type serviceRequest struct {
	subject, clientID string
	audience, scopes  []string
}

func (r serviceRequest) GetSubject() string    { return r.subject }
func (r serviceRequest) GetAudience() []string { return r.audience }
func (r serviceRequest) GetScopes() []string   { return r.scopes }
func (r serviceRequest) GetClientID() string   { return r.clientID }

// NewSecret returns a random secret for a confidential application.
func NewSecret() string { return randomToken() }

// HashSecret is how application secrets are stored (see hashSecret).
func HashSecret(s string) string { return hashSecret(s) }

func (p *storage) client(ctx context.Context, clientID string) (op.Client, error) {
	app, err := p.application(ctx, clientID)
	if err != nil {
		return nil, err
	}
	return &client{
		app:      app,
		loginURL: func(id string) string { return p.cfg.Issuer + PathLogin + "?authRequestID=" + id },
		devMode:  !p.secure,
		idTTL:    p.idTokenLifetime(ctx, p.cfg.IDTokenLifetime),
	}, nil
}

// fillUserinfo sets the claims of a user for the granted scopes (R5.7-claims).
func (p *storage) fillUserinfo(ctx context.Context, info *oidc.UserInfo, userID string, scopes []string) error {
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
		// the language the user saved (D-languages), which the console app shows itself in
		if u.Locale != "" {
			info.Locale = oidc.NewLocale(i18n.Match(i18n.Saved(u.Locale)))
		}
	}
	info.AppendClaims(ClaimResourceOwnerID, u.OrgID)
	if hasScope(scopes, ScopeResourceOwner) {
		if org, err := p.store.Organization(ctx, u.OrgID); err == nil {
			info.AppendClaims(ClaimResourceOwnerName, org.Name)
		}
	}
	return nil
}
