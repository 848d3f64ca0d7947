package idp

import (
	"context"
	"net/http"
	"time"

	"github.com/platform/platform/internal/store"
)

// SessionCookie is the provider's own browser-session cookie. Each role has its
// own cookie name because cookies are shared across ports on one host.
const SessionCookie = "idp_session"

type sessionKey struct{}

func sessionFromContext(ctx context.Context) *store.Session {
	s, _ := ctx.Value(sessionKey{}).(*store.Session)
	return s
}

// loadSession puts the browser session, when the cookie names a live one, into
// the request context for the authorize endpoint and the login UI.
func (p *Provider) loadSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(SessionCookie); err == nil && len(c.Value) <= 128 {
			if s, err := p.store.Session(r.Context(), hashSecret(c.Value), p.now()); err == nil {
				r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, s))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// startSession creates a browser session for a user who just authenticated.
func (p *Provider) startSession(w http.ResponseWriter, r *http.Request, userID string, amr []string) (*store.Session, error) {
	if old := sessionFromContext(r.Context()); old != nil {
		_ = p.store.DeleteSession(r.Context(), old.IDHash) // a new login replaces the old session
	}
	id := randomToken()
	now := p.now()
	s := &store.Session{IDHash: hashSecret(id), UserID: userID, AuthTime: now, AMR: amr, CreatedAt: now,
		ExpiresAt: now.Add(p.cfg.SessionLifetime)}
	if err := p.store.CreateSession(r.Context(), s); err != nil {
		return nil, err
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: id, Path: "/", HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteLaxMode, Expires: s.ExpiresAt, MaxAge: int(p.cfg.SessionLifetime / time.Second)})
	return s, nil
}
