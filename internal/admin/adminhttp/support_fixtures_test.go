package adminhttp

import (
	"context"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

func init() {
	// A user signed in at the identity provider: a browser session to list
	// and end.
	registerFixture("user_session", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		return Request{Params: params("id", u, "sessionId", w.env.mustSession(u, "Firefox"))}
	})
	registerFixture("internal_user_session", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.AccountManager, "")
		return Request{Params: params("id", u, "sessionId", w.env.mustSession(u, "Firefox"))}
	})
	// A user with a second factor to reset.
	registerFixture("user_second_factor", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.Member, w.CustomerID)
		w.env.mustTOTP(u)
		return Request{Params: params("id", u)}
	})
	registerFixture("internal_user_second_factor", func(t *testing.T, w *World, rt routeRow) Request {
		u := w.env.mustUser(authz.AccountManager, "")
		w.env.mustTOTP(u)
		return Request{Params: params("id", u)}
	})
}

// mustSession opens a browser session of userID at the identity provider,
// signed in a minute ago by the browser userAgent, and answers its id (sid).
func (e *env) mustSession(userID, userAgent string) string {
	e.t.Helper()
	sid := e.id("sid")
	at := time.Now().Add(-time.Minute).UTC().Truncate(time.Microsecond)
	if err := e.st.CreateSession(context.Background(), &store.Session{IDHash: "hash-" + sid, SID: sid, UserID: userID, AuthTime: at,
		AMR: []string{"pwd"}, CreatedAt: at, ExpiresAt: at.Add(12 * time.Hour), UserAgent: userAgent, Address: "203.0.113.7"}); err != nil {
		e.t.Fatal(err)
	}
	return sid
}

// mustTOTP gives userID a confirmed authenticator app with recovery codes.
func (e *env) mustTOTP(userID string) {
	e.t.Helper()
	ctx := context.Background()
	if err := e.st.PutTOTP(ctx, &store.TOTPFactor{UserID: userID, SecretSealed: []byte("sealed"), CreatedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
	if ok, err := e.st.UseTOTPStep(ctx, userID, 1); err != nil || !ok {
		e.t.Fatalf("confirm the authenticator: %v %v", ok, err)
	}
	if err := e.st.ReplaceRecoveryCodes(ctx, userID, []string{"code-hash-1", "code-hash-2"}); err != nil {
		e.t.Fatal(err)
	}
}
