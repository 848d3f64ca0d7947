package tenant

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// SessionCookie names the tenant backend's session cookie (each role has its
// own name: cookies are shared across ports on one host); under https its
// name has the __Host- prefix (SessionCookieName).
const SessionCookie = "tenant_session"

// SessionCookieName is the name of the session cookie of the tenant web app
// at instanceURL: prefixed __Host- when it is https (the cookie is Secure,
// Path=/, without Domain), SessionCookie under http.
func SessionCookieName(instanceURL string) string {
	return httpapi.CookieName(SessionCookie, strings.HasPrefix(instanceURL, "https://"))
}

// ConfigResponse is GET /auth/config (R4.2-config).
type ConfigResponse struct {
	LoginURL    string `json:"loginUrl"`
	Issuer      string `json:"issuer"`
	ClientID    string `json:"clientId"`
	RedirectURI string `json:"redirectUri"`
	Scope       string `json:"scope"`
}

func (t *Tenant) handleConfig(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, ConfigResponse{LoginURL: t.cfg.ConsoleURL + "/", Issuer: t.cfg.Issuer,
		ClientID: t.cfg.ClientID, RedirectURI: t.redirectURI(), Scope: Scope})
}

// CallbackRequest is what the web app posts after its code exchange:
// id_token, access_token and nonce are required, refresh_token optional.
type CallbackRequest struct {
	IDToken      string `json:"id_token"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	Nonce        string `json:"nonce"`
	ExpiresIn    int    `json:"expires_in"`
}

// User is the signed-in user as the web app sees it.
type User struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	OrgID string `json:"orgId"`
	sid   string // the provider session, for back-channel logout
	actor *Actor // who acts for the user (an impersonation), nil when the user acts itself
}

type idClaims struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	OrgID string `json:"urn:idp:iam:user:resourceowner:id"`
	SID   string `json:"sid"`
	Act   *struct {
		Subject string `json:"sub"`
	} `json:"act"`
}

// handleCallback makes a session from the identity provider's tokens
// (R4.2-callback): the id_token's signature (JWKS), issuer, audience (this
// instance's client), expiry, header type (typ JWT, so no other token of
// the provider passes for one) and nonce are checked; the access token must be
// one (typ at+jwt) of this instance's client for the same user, match the
// id_token's at_hash when it carries one, and name a live grant: the session
// belongs to that grant and ends with it (D-credentials-follow). A missing
// field answers 400 naming it; any other failure 401. Nothing is stored then.
func (t *Tenant) handleCallback(w http.ResponseWriter, r *http.Request) {
	if !httpapi.IsJSON(r) {
		// a form post from another site cannot log a browser in with someone else's tokens
		httpapi.WriteError(w, r, platform.Errorf(platform.EINVALID, "the body must be application/json"))
		return
	}
	var in CallbackRequest
	if err := httpapi.DecodeJSONLoose(r, &in); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	if err := in.check(); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	user, tokenExp, grantID, err := t.verify(r.Context(), in)
	if err == nil && user.actor != nil && in.RefreshToken != "" {
		err = errors.New("an impersonation's session takes no refresh token")
	}
	if err != nil {
		slog.InfoContext(r.Context(), "session refused", "reason", err)
		httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "the tokens are not valid for this application"))
		return
	}
	id := randomID()
	now := t.cfg.Now()
	ts := &store.TenantSession{IDHash: hashID(id), UserID: user.ID, ClientID: t.cfg.ClientID, Email: user.Email,
		Name: user.Name, OrgID: user.OrgID, IDToken: in.IDToken, GrantID: grantID, IDPSID: user.sid, TokenExpiresAt: tokenExp, CreatedAt: now,
		ExpiresAt: now.Add(t.cfg.SessionLifetime)}
	if in.RefreshToken != "" {
		ts.RefreshSealed = t.sealer.Seal([]byte(in.RefreshToken), secrets.LabelTenantRefresh(ts.IDHash))
	}
	if user.actor != nil {
		ts.ActorID, ts.ActorEmail = user.actor.Subject, user.actor.Email
		ts.AccessSealed = t.sealer.Seal([]byte(in.AccessToken), secrets.LabelTenantAccess(ts.IDHash))
	}
	if err := t.store.CreateTenantSession(r.Context(), ts); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	t.setCookie(w, id, ts.ExpiresAt)
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"user": user, "actor": user.actor})
}

// check reports every required field the request lacks, at once.
func (in *CallbackRequest) check() error {
	var missing []string
	for _, f := range []struct{ name, v string }{{"id_token", in.IDToken}, {"access_token", in.AccessToken}, {"nonce", in.Nonce}} {
		if f.v == "" {
			missing = append(missing, f.name+" is required")
		}
	}
	if len(missing) > 0 {
		return &platform.Error{Code: platform.EINVALID, Message: "the request body lacks required fields", Details: missing}
	}
	if len(in.IDToken) > 16<<10 || len(in.AccessToken) > 16<<10 || len(in.RefreshToken) > 4<<10 || len(in.Nonce) > 2048 {
		return platform.Errorf(platform.EINVALID, "a token or the nonce is too large")
	}
	return nil
}

// verify checks the callback's tokens and returns the user, when its
// id_token expires, and the grant the tokens come from. Errors never carry
// the tokens.
func (t *Tenant) verify(ctx context.Context, in CallbackRequest) (*User, time.Time, string, error) {
	idt, err := t.verifyIDToken(ctx, in.IDToken)
	if err != nil {
		return nil, time.Time{}, "", fmt.Errorf("id_token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(in.Nonce)) != 1 {
		return nil, time.Time{}, "", errors.New("nonce mismatch")
	}
	at, err := t.access.Verify(ctx, in.AccessToken)
	if err != nil {
		return nil, time.Time{}, "", err
	}
	if at.JKT != "" { // a session cookie would carry what only the key's holder may use (D-dpop)
		return nil, time.Time{}, "", errors.New("a DPoP-bound access token opens no session")
	}
	if at.Subject != idt.Subject {
		return nil, time.Time{}, "", errors.New("the access token is another user's")
	}
	if idt.AccessTokenHash != "" {
		if err := idt.VerifyAccessToken(in.AccessToken); err != nil {
			return nil, time.Time{}, "", fmt.Errorf("access token hash: %w", err)
		}
	}
	if err := t.liveGrant(ctx, at.GrantID, at.Subject); err != nil {
		return nil, time.Time{}, "", err
	}
	var c idClaims
	if err := idt.Claims(&c); err != nil {
		return nil, time.Time{}, "", err
	}
	actor, err := t.actorOf(ctx, c, at)
	if err != nil {
		return nil, time.Time{}, "", err
	}
	return &User{ID: idt.Subject, Email: c.Email, Name: c.Name, OrgID: c.OrgID, sid: c.SID, actor: actor}, idt.Expiry, at.GrantID, nil
}

// liveGrant refuses a grant that is unknown, revoked or another user's.
func (t *Tenant) liveGrant(ctx context.Context, grantID, userID string) error {
	g, err := t.store.TokenGrant(ctx, grantID)
	switch {
	case err != nil:
		return fmt.Errorf("grant: %w", err)
	case !g.RevokedAt.IsZero():
		return errors.New("the grant is revoked")
	case g.UserID != userID:
		return errors.New("the grant is another user's")
	}
	return nil
}

func (t *Tenant) setCookie(w http.ResponseWriter, id string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: t.cookie, Value: id, Path: "/", HttpOnly: true, Secure: t.secure,
		SameSite: http.SameSiteLaxMode, Expires: expires})
}

// Session returns the request's live session, refreshing its tokens with the
// refresh token once they have expired (which extends the session). ENOTFOUND
// (as EUNAUTHORIZED) when there is none.
func (t *Tenant) Session(ctx context.Context, r *http.Request) (*store.TenantSession, error) {
	c, err := r.Cookie(t.cookie)
	if err != nil || len(c.Value) > 128 {
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "not signed in")
	}
	now := t.cfg.Now()
	ts, err := t.store.TenantSession(ctx, hashID(c.Value), now)
	if err != nil {
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return nil, platform.Errorf(platform.EUNAUTHORIZED, "not signed in")
		}
		return nil, err
	}
	if now.Before(ts.TokenExpiresAt) {
		return ts, nil
	}
	if len(ts.RefreshSealed) == 0 {
		_ = t.store.DeleteTenantSession(ctx, ts.IDHash)
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "the session has expired")
	}
	if err := t.refresh(ctx, ts); err != nil {
		slog.InfoContext(ctx, "session refresh failed; ending the session", "err", err)
		_ = t.store.DeleteTenantSession(ctx, ts.IDHash)
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "the session has expired")
	}
	return ts, nil
}

// refresh exchanges the session's refresh token (rotated by the provider).
// The provider answers a refresh without an id_token (D-refresh-id-token):
// the session is renewed from the access token, which must verify and be of
// the session's user and grant, and keeps the id_token of its sign-in (the
// end_session hint). The next renewal is due after as long as that id_token
// was valid for, so a session asks the provider as often as before. An
// id_token in the answer is verified and kept instead.
func (t *Tenant) refresh(ctx context.Context, ts *store.TenantSession) error {
	rt, err := t.sealer.Open(ts.RefreshSealed, secrets.LabelTenantRefresh(ts.IDHash))
	if err != nil {
		return err
	}
	resp, err := httpapi.PostForm(ctx, t.http, t.cfg.Issuer+"/oauth/v2/token",
		url.Values{"grant_type": {"refresh_token"}, "refresh_token": {string(rt)}, "client_id": {t.cfg.ClientID}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("token endpoint answered %d", resp.StatusCode)
	}
	var tok struct {
		IDToken      string `json:"id_token"`
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&tok); err != nil {
		return err
	}
	at, err := t.access.Verify(ctx, tok.AccessToken)
	if err != nil {
		return err
	}
	if at.Subject != ts.UserID || at.GrantID != ts.GrantID {
		return errors.New("refreshed tokens are of another grant")
	}
	now := t.cfg.Now()
	idToken, tokenExp := ts.IDToken, now.Add(tokenLifetime(ts.IDToken, at.Expiry.Sub(now)))
	if tok.IDToken != "" {
		idt, err := t.verifyIDToken(ctx, tok.IDToken)
		if err != nil {
			return err
		}
		if idt.Subject != ts.UserID {
			return errors.New("refreshed id_token is for another user")
		}
		idToken, tokenExp = tok.IDToken, idt.Expiry
	}
	sealed := t.sealer.Seal([]byte(tok.RefreshToken), secrets.LabelTenantRefresh(ts.IDHash))
	exp := now.Add(t.cfg.SessionLifetime)
	if err := t.store.RenewTenantSession(ctx, ts.IDHash, idToken, sealed, tokenExp, exp); err != nil {
		return err
	}
	ts.IDToken, ts.RefreshSealed, ts.TokenExpiresAt, ts.ExpiresAt = idToken, sealed, tokenExp, exp
	return nil
}

// tokenLifetime is how long the JWT raw was valid for (exp - iat), or def
// when it does not say. raw is a token this backend verified and stored.
func tokenLifetime(raw string, def time.Duration) time.Duration {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return def
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return def
	}
	var c struct{ IAT, EXP int64 }
	if json.Unmarshal(payload, &c) != nil || c.EXP <= c.IAT || c.IAT <= 0 {
		return def
	}
	return time.Duration(c.EXP-c.IAT) * time.Second
}

func (t *Tenant) handleSession(w http.ResponseWriter, r *http.Request) {
	ts, err := t.Session(r.Context(), r)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"user": User{ID: ts.UserID, Email: ts.Email, Name: ts.Name, OrgID: ts.OrgID},
		"actor": sessionActor(ts), "expiresAt": ts.ExpiresAt.UTC().Format(time.RFC3339)})
}

// handleLogout ends the session and tells the app where to end the
// provider's session (end_session with the id_token as hint).
func (t *Tenant) handleLogout(w http.ResponseWriter, r *http.Request) {
	// the cookie signs the request in: only the web app's own pages may
	// end its session (another site's form post would sign the user out)
	if !httpapi.FromOwnPages(r, httpapi.Origin(t.cfg.InstanceURL)) {
		httpapi.WriteError(w, r, platform.Errorf(platform.EFORBIDDEN,
			"cross-site request refused: sign out from this instance's pages (send the %s header)", httpapi.CSRFHeader))
		return
	}
	end := url.Values{"client_id": {t.cfg.ClientID}, "post_logout_redirect_uri": {t.cfg.InstanceURL + "/signed-out"}}
	if c, err := r.Cookie(t.cookie); err == nil && len(c.Value) <= 128 {
		if ts, err := t.store.TenantSession(r.Context(), hashID(c.Value), t.cfg.Now()); err == nil {
			end.Set("id_token_hint", ts.IDToken)
		}
		if err := t.store.DeleteTenantSession(r.Context(), hashID(c.Value)); err != nil {
			httpapi.WriteError(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: t.cookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: t.secure,
		SameSite: http.SameSiteLaxMode})
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"endSessionUrl": t.cfg.Issuer + "/oidc/v1/end_session?" + end.Encode()})
}

func randomID() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashID(id string) string {
	sum := sha256.Sum256([]byte(id))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Authenticator authenticates requests by the session cookie, for the data
// API on the tenant role: no cookie asks the next authenticator; a cookie
// that is not a live session (or whose grant is revoked) is EUNAUTHORIZED.
// The identity carries the session's grant and its actor (an
// impersonation's support user, whom the authorization core refuses what
// it refuses a token with act), which access.Service.Load checks
// again with the user on every request.
func (t *Tenant) Authenticator() access.Authenticator {
	return func(r *http.Request) (access.Identity, error) {
		if _, err := r.Cookie(t.cookie); err != nil {
			return access.Identity{}, nil
		}
		ts, err := t.Session(r.Context(), r)
		if err != nil {
			return access.Identity{}, err
		}
		return access.Identity{UserID: ts.UserID, GrantID: ts.GrantID, Via: access.ViaCookie, Actor: ts.ActorID}, nil
	}
}

// Verifier verifies the identity provider's access tokens issued to the
// instance client (bearer access to the data API, D-token-typ).
func (t *Tenant) Verifier() *access.TokenVerifier { return t.access }

// ConsoleVerifier verifies the identity provider's access tokens issued to
// the console's client, with the same keys: what the data subgraph accepts
// besides Verifier's behind a router (GRAPHQL_CONSOLE_TOKENS,
// D-graphql-router).
func (t *Tenant) ConsoleVerifier(consoleClientID string) *access.TokenVerifier {
	return access.NewTokenVerifier(t.cfg.Issuer, consoleClientID, t.keys)
}
