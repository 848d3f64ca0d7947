package idp

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/store"
)

// SessionCookie is the provider's own browser-session cookie (under an
// https issuer its name has the __Host- prefix, see cookie). Each role has
// its own cookie name because cookies are shared across ports on one host.
const SessionCookie = "idp_session"

type sessionKey struct{}

func sessionFromContext(ctx context.Context) *store.Session {
	s, _ := ctx.Value(sessionKey{}).(*store.Session)
	return s
}

// SeenEvery is how far behind a session's last use may be recorded: a
// session used again within it is not written again.
const SeenEvery = time.Minute

// loadSession puts the browser session, when the cookie names a live one, into
// the request context for the authorize endpoint and the login UI, and
// records its use (when and from which address) at most every SeenEvery.
func (p *core) loadSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(p.cookie(SessionCookie)); err == nil && len(c.Value) <= 128 {
			if s, err := p.store.Session(r.Context(), hashSecret(c.Value), p.now()); err == nil && p.withinPolicy(r.Context(), s) {
				p.seen(r, s)
				r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, s))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// endedPolicyLifetime is why a session ended that outlived its
// organization's session lifetime (D-org-policy).
const endedPolicyLifetime = "policy_lifetime"

// withinPolicy reports whether a session is within its user's
// organization's session lifetimes (idle since its last recorded use, which
// is written at most every SeenEvery; absolute since the sign-in); one that
// has outlived them is ended, with its back-channel logouts, and recorded.
func (p *core) withinPolicy(ctx context.Context, s *store.Session) bool {
	u, err := p.user(ctx, s.UserID)
	if err != nil {
		return false
	}
	rules, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return false
	}
	if !rules.outlived(p.cfg.SessionLifetime, s.CreatedAt, s.LastSeenAt, p.now()) {
		return true
	}
	if err := p.endSession(ctx, s, endedPolicyLifetime); err != nil {
		slog.WarnContext(ctx, "session past its lifetime not ended", "error", err)
	}
	return false
}

// seen records that the session s is used by r, unless that was recorded
// less than SeenEvery ago from the same address; a failure is only logged
// (the record is what administrators read, the request does not need it).
func (p *core) seen(r *http.Request, s *store.Session) {
	now, addr := p.now(), httpapi.ClientIP(r)
	if now.Sub(s.LastSeenAt) < SeenEvery && addr == s.Address {
		return
	}
	if err := p.store.SeeSession(r.Context(), s.IDHash, addr, now); err != nil {
		slog.WarnContext(r.Context(), "session use not recorded", "error", err)
		return
	}
	s.LastSeenAt, s.Address = now, addr
}

// startSession creates a browser session for a user who just authenticated.
// It replaces the browser's old session: a sign-in of the same user (again,
// or stepping up) keeps its sid, so the applications' sessions stay tied
// to it; another user's session ends, with its back-channel logouts, and
// is recorded (session.ended). signIn, when the session is a sign-in's, is
// its event (sign_in), recorded in the transaction that starts the
// session: a session and its record exist together or not at all.
func (p *core) startSession(w http.ResponseWriter, r *http.Request, userID string, amr []string, signIn *audit.Entry) (*store.Session, error) {
	ctx := r.Context()
	now := p.now()
	sid := randomToken()
	old := sessionFromContext(ctx)
	ending := old != nil && (old.UserID != userID || old.SID == "")
	if old != nil && !ending {
		sid = old.SID
		_ = p.store.DeleteSession(ctx, old.IDHash)
	}
	id := randomToken()
	lifetime := p.cfg.SessionLifetime
	if u, err := p.user(ctx, userID); err == nil {
		if rules, err := p.loginRules(ctx, u.OrgID); err == nil {
			_, lifetime = rules.sessionLimits(lifetime) // the organization's absolute lifetime (D-org-policy)
		}
	}
	s := &store.Session{IDHash: hashSecret(id), SID: sid, UserID: userID, AuthTime: now, AMR: amr, CreatedAt: now,
		ExpiresAt: now.Add(lifetime), UserAgent: r.UserAgent(), Address: httpapi.ClientIP(r), LastSeenAt: now}
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if ending {
			if err := tx.EndSession(ctx, old.IDHash, old.UserID, old.SID, now); err != nil {
				return err
			}
			why := endedOtherUser
			if old.UserID == userID { // a session from before sids: replaced by a new one
				why = "signed_in_again"
			}
			if err := p.record(ctx, tx, sessionsEnded(old.UserID, why, 1)); err != nil {
				return err
			}
		}
		if err := tx.CreateSession(ctx, s); err != nil {
			return err
		}
		if signIn != nil {
			return p.record(ctx, tx, *signIn)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ending {
		p.wakeLogouts()
	}
	http.SetCookie(w, &http.Cookie{Name: p.cookie(SessionCookie), Value: id, Path: "/", HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteLaxMode, Expires: s.ExpiresAt, MaxAge: int(lifetime / time.Second)})
	return s, nil
}

// endSession ends a provider session and queues its back-channel logouts;
// why ended it, by its own user, is recorded in the same transaction.
func (p *core) endSession(ctx context.Context, s *store.Session, why string) error {
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.EndSession(ctx, s.IDHash, s.UserID, s.SID, p.now()); err != nil {
			return err
		}
		return p.record(ctx, tx, sessionsEnded(s.UserID, why, 1))
	})
	if err != nil {
		return err
	}
	p.wakeLogouts()
	return nil
}

// wakeLogouts has DeliverLogouts look at the queue now.
func (p *core) wakeLogouts() {
	select {
	case p.logoutWake <- struct{}{}:
	default:
	}
}
