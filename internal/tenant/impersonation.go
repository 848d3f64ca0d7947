package tenant

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// Support impersonation reaches the tenant web app (D-impersonation): the
// provider completes an authorization request with its impersonation
// parameter for the impersonated user, and its id_token and access token
// carry act naming the support user. The session made from them records
// that actor, which the app shows in a banner with "End"; ending revokes
// the session's access token at the provider, which ends the impersonation
// (its grant, so every token and session of it, console's included).

// Actor is who acts for the session's user: an impersonation's support
// user.
type Actor struct {
	Subject string `json:"sub"`
	Email   string `json:"email"`
}

// actorOf is the actor of a callback's tokens: nil when neither the
// id_token (c) nor the access token (at) has act; otherwise both must name
// the same support user, and the grant must be that support user's running
// impersonation of the user.
func (t *Tenant) actorOf(ctx context.Context, c idClaims, at *access.AccessToken) (*Actor, error) {
	idActor := ""
	if c.Act != nil {
		idActor = c.Act.Subject
	}
	if idActor != at.Actor {
		return nil, errors.New("the id_token and the access token name different actors")
	}
	if idActor == "" {
		return nil, nil
	}
	m, err := t.store.Impersonation(ctx, at.GrantID)
	switch {
	case err != nil:
		return nil, fmt.Errorf("impersonation: %w", err)
	case m.UserID != at.Subject || m.ActorID != idActor:
		return nil, errors.New("the grant is no impersonation of this user by this actor")
	case m.EndedAt != nil || !m.ExpiresAt.After(t.cfg.Now()):
		return nil, errors.New("the impersonation has ended")
	}
	return &Actor{Subject: m.ActorID, Email: m.ActorEmail}, nil
}

// sessionActor is the actor of session ts, nil for a user's own session.
func sessionActor(ts *store.TenantSession) *Actor {
	if ts.ActorID == "" {
		return nil
	}
	return &Actor{Subject: ts.ActorID, Email: ts.ActorEmail}
}

// handleImpersonationEnd is POST /auth/impersonation/end, the banner's
// "End": the session's access token is revoked at the provider (RFC 7009),
// which ends its impersonation everywhere; then the session ends. Only the
// web app's own pages may ask (CSRF, as for sign-out); a session without
// an actor has nothing to end (409).
func (t *Tenant) handleImpersonationEnd(w http.ResponseWriter, r *http.Request) {
	if !httpapi.FromOwnPages(r, httpapi.Origin(t.cfg.InstanceURL)) {
		httpapi.WriteError(w, r, platform.Errorf(platform.EFORBIDDEN,
			"cross-site request refused: end the impersonation from this instance's pages (send the %s header)", httpapi.CSRFHeader))
		return
	}
	ts, err := t.Session(r.Context(), r)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	if ts.ActorID == "" {
		httpapi.WriteError(w, r, platform.Errorf(platform.ECONFLICT, "this session acts for nobody: sign out instead"))
		return
	}
	revokeErr := t.revokeAccess(r.Context(), ts)
	if err := t.store.DeleteTenantSession(r.Context(), ts.IDHash); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: t.cookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: t.secure,
		SameSite: http.SameSiteLaxMode})
	if revokeErr != nil {
		slog.ErrorContext(r.Context(), "ending the impersonation at the provider", "err", revokeErr)
		httpapi.WriteError(w, r, platform.Errorf(platform.EUNAVAILABLE,
			"the session ended here, but the identity provider could not be told; end the impersonation in the console"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// revokeAccess revokes the access token of impersonated session ts at the
// provider as this instance's client.
func (t *Tenant) revokeAccess(ctx context.Context, ts *store.TenantSession) error {
	token, err := t.sealer.Open(ts.AccessSealed, secrets.LabelTenantAccess(ts.IDHash))
	if err != nil {
		return err
	}
	resp, err := httpapi.PostForm(ctx, t.http, t.cfg.Issuer+"/oauth/v2/revoke",
		url.Values{"token": {string(token)}, "token_type_hint": {"access_token"}, "client_id": {t.cfg.ClientID}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("revocation endpoint answered %d", resp.StatusCode)
	}
	return nil
}
