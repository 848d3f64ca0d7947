package idp

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
)

// A browser session keeps the browser it signed in with and where it is
// used from, for what administrators read of a user's sessions: the
// User-Agent and the address at sign-in, then its last use, written at
// most once a minute (a use within the minute writes nothing).
//
// spec: D-support-tools
func TestSessionLastSeen(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	b := ti.browser()
	ti.login(b, ti.rp(), newFlow(), alice, goodPass)
	session := func() store.Session {
		t.Helper()
		page, _, err := ti.st.UserSessionPage(context.Background(), userAlice, ti.clock.now(), store.PageQuery{})
		if err != nil || len(page) != 1 {
			t.Fatalf("sessions = %+v, %v", page, err)
		}
		return page[0]
	}
	signedIn := session()
	if signedIn.UserAgent != "Go-http-client/1.1" || signedIn.Address != "127.0.0.1" || !signedIn.LastSeenAt.Equal(signedIn.CreatedAt) {
		t.Fatalf("at sign-in: %+v", signedIn)
	}
	use := func() {
		t.Helper()
		if resp, _ := b.get(ti.issuer + PathAccount); resp.StatusCode != http.StatusOK {
			t.Fatalf("account page = %d", resp.StatusCode)
		}
	}
	ti.clock.offset = 30 * time.Second
	use()
	if s := session(); !s.LastSeenAt.Equal(signedIn.LastSeenAt) {
		t.Fatalf("a use within the minute was written: %v after %v", s.LastSeenAt, signedIn.LastSeenAt)
	}
	ti.clock.offset = 2 * time.Minute
	use()
	if s := session(); s.LastSeenAt.Sub(signedIn.LastSeenAt) < 2*time.Minute-time.Second || s.Address != "127.0.0.1" ||
		s.UserAgent != signedIn.UserAgent {
		t.Fatalf("a use two minutes on: %+v (signed in %v)", s, signedIn.LastSeenAt)
	}
}
