package storetest

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// MustGrant records a live token grant of userID, as the identity provider
// does when it issues a token (store.CreateAccessToken), and returns its id:
// the credentials a test caller signs in with. The grant lasts a day.
func MustGrant(t testing.TB, st *store.Store, userID string) string {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := "grant-" + hex.EncodeToString(b)
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-" + id, FamilyID: id, ClientID: "test-client",
		UserID: userID, CreatedAt: now, ExpiresAt: now.Add(time.Hour), GrantExpiresAt: now.Add(24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return id
}

// testCredentials covers D-credentials-follow: the statement that loads a
// caller refuses suspended and deleted users and revoked or foreign grants,
// and each way of ending credentials ends them.
func testCredentials(t *testing.T, st *store.Store) {
	mustOrg(t, st, "org-admin")
	mustCustomer(t, st, "acme", "Acme", "org-acme")
	user := func(id, org, role, customer string) string {
		t.Helper()
		mustUser(t, st, id, org, id+"@example.com")
		if role != "" {
			if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: role, CustomerID: customer, CreatedAt: ts}); err != nil {
				t.Fatal(err)
			}
		}
		return MustGrant(t, st, id)
	}
	ok := func(t *testing.T, userID, grantID string) (*authz.Principal, string) {
		t.Helper()
		p, role, err := st.Principal(ctx, userID, grantID, ts)
		if err != nil {
			t.Fatalf("principal of %s: %v", userID, err)
		}
		return p, role
	}
	refused := func(t *testing.T, userID, grantID string) {
		t.Helper()
		p, _, err := st.Principal(ctx, userID, grantID, ts)
		if platform.ErrorCode(err) != platform.EUNAUTHORIZED || p != nil {
			t.Fatalf("principal of %s with %s = %+v, %v; want EUNAUTHORIZED", userID, grantID, p, err)
		}
	}

	t.Run("RoleAndDefaultCustomer", func(t *testing.T) {
		g := user("owner", "org-acme", "owner", "acme")
		if p, role := ok(t, "owner", g); role != "owner" || p.CustomerID != "acme" {
			t.Errorf("owner = %q %+v", role, p)
		}
		g = user("plain", "org-acme", "", "")
		if p, role := ok(t, "plain", g); role != "" || p.CustomerID != "acme" {
			t.Errorf("customer user without a role = %q %+v, want no role in acme", role, p)
		}
		g = user("staff", "org-admin", "", "")
		if p, role := ok(t, "staff", g); role != "" || p.CustomerID != "" {
			t.Errorf("internal user without a role = %q %+v", role, p)
		}
	})

	t.Run("ErrGrant", func(t *testing.T) {
		g := user("am", "org-admin", "account_manager", "")
		other := user("am2", "org-admin", "account_manager", "")
		ok(t, "am", g)
		refused(t, "am", "")
		refused(t, "am", "no-such-grant")
		refused(t, "am", other) // another user's grant
		refused(t, "no-such-user", g)
	})

	t.Run("ErrSuspended", func(t *testing.T) {
		g := user("sus", "org-acme", "admin", "acme")
		if err := st.SetUserSuspended(ctx, "sus", ts); err != nil {
			t.Fatal(err)
		}
		refused(t, "sus", g)
		g2 := MustGrant(t, st, "sus") // a grant issued while suspended does not help
		refused(t, "sus", g2)
		if err := st.SetUserSuspended(ctx, "sus", time.Time{}); err != nil {
			t.Fatal(err)
		}
		refused(t, "sus", g) // the suspension ended the grant: reactivation needs a new sign-in
		ok(t, "sus", MustGrant(t, st, "sus"))
	})

	t.Run("ErrDeleted", func(t *testing.T) {
		g := user("gone", "org-acme", "member", "acme")
		if err := st.DeleteUser(ctx, "gone"); err != nil {
			t.Fatal(err)
		}
		refused(t, "gone", g)
		if tg, err := st.TokenGrant(ctx, g); err != nil || tg.RevokedAt.IsZero() {
			t.Errorf("grant of a deleted user = %+v, %v; want revoked", tg, err)
		}
	})

	t.Run("ErrPasswordChanged", func(t *testing.T) {
		g := user("pw", "org-acme", "member", "acme")
		if err := st.SetPassword(ctx, "pw", "$argon2id$new"); err != nil {
			t.Fatal(err)
		}
		refused(t, "pw", g)
		ok(t, "pw", MustGrant(t, st, "pw"))
		wantCode(t, st.SetPassword(ctx, "no-such-user", "$argon2id$x"), platform.ENOTFOUND)
	})

	t.Run("RehashKeepsCredentials", func(t *testing.T) {
		g := user("rehash", "org-acme", "member", "acme")
		u, err := st.User(ctx, "rehash")
		if err != nil {
			t.Fatal(err)
		}
		old := u.PasswordHash
		if done, err := st.RehashPassword(ctx, "rehash", "$argon2id$not-the-stored-one", "$argon2id$lost"); err != nil || done {
			t.Fatalf("rehash against a hash that is not stored = %v, %v; want nothing replaced", done, err)
		}
		if done, err := st.RehashPassword(ctx, "rehash", old, "$argon2id$rehashed"); err != nil || !done {
			t.Fatalf("rehash = %v, %v; want replaced", done, err)
		}
		if u, err := st.User(ctx, "rehash"); err != nil || u.PasswordHash != "$argon2id$rehashed" {
			t.Fatalf("stored hash after rehash = %+v, %v", u, err)
		}
		ok(t, "rehash", g) // the same password: the grant stays
		if done, err := st.RehashPassword(ctx, "rehash", old, "$argon2id$stale"); err != nil || done {
			t.Fatalf("a second rehash from the old hash = %v, %v; want nothing replaced", done, err)
		}
	})

	t.Run("ErrFamilyRevoked", func(t *testing.T) {
		g := user("fam", "org-acme", "member", "acme")
		g2 := MustGrant(t, st, "fam")
		if err := st.CreateTenantSession(ctx, &store.TenantSession{IDHash: "sess-" + g, UserID: "fam", ClientID: "c", GrantID: g,
			TokenExpiresAt: ts.Add(time.Hour), CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.TenantSession(ctx, "sess-"+g, ts); err != nil {
			t.Fatalf("session before revocation: %v", err)
		}
		if err := st.RevokeFamily(ctx, g); err != nil {
			t.Fatal(err)
		}
		refused(t, "fam", g)
		ok(t, "fam", g2) // other grants of the user hold
		_, err := st.TenantSession(ctx, "sess-"+g, ts)
		wantCode(t, err, platform.ENOTFOUND)
		if _, err := st.ActiveAccessToken(ctx, "at-"+g, time.Now()); platform.ErrorCode(err) != platform.ENOTFOUND {
			t.Errorf("access token of a revoked family is active: %v", err)
		}
	})

	// A tenant session whose grant was revoked some other way (or is
	// unknown) is not a session.
	t.Run("ErrSessionOfRevokedGrant", func(t *testing.T) {
		g := user("sess", "org-acme", "member", "acme")
		for _, ss := range []*store.TenantSession{
			{IDHash: "s-live", UserID: "sess", ClientID: "c", GrantID: g},
			{IDHash: "s-nogrant", UserID: "sess", ClientID: "c", GrantID: "unknown"},
		} {
			ss.TokenExpiresAt, ss.CreatedAt, ss.ExpiresAt = ts.Add(time.Hour), ts, ts.Add(time.Hour)
			if err := st.CreateTenantSession(ctx, ss); err != nil {
				t.Fatal(err)
			}
		}
		if s, err := st.TenantSession(ctx, "s-live", ts); err != nil || s.GrantID != g {
			t.Fatalf("session = %+v, %v", s, err)
		}
		_, err := st.TenantSession(ctx, "s-nogrant", ts)
		wantCode(t, err, platform.ENOTFOUND)
		if err := st.EndUserCredentials(ctx, "sess", ts); err != nil {
			t.Fatal(err)
		}
		_, err = st.TenantSession(ctx, "s-live", ts)
		wantCode(t, err, platform.ENOTFOUND)
	})

	// Ending a provider session ends the grants it made (D-session-grants):
	// their access and refresh tokens and tenant sessions, whether the grant
	// opened with an access token alone or with a refresh token, and whatever
	// refreshes followed; the user's grants of other sessions, without one
	// (the device flow) and another user's stay.
	t.Run("SessionGrantsEndWithTheSession", func(t *testing.T) {
		mustUser(t, st, "sg", "org-acme", "sg@example.com")
		mustUser(t, st, "sg-other", "org-acme", "sg-other@example.com")
		issue := func(family, userID, sid, hash string) {
			t.Helper()
			at := &store.AccessToken{ID: "at-" + family + hash, FamilyID: family, ClientID: "c", UserID: userID, CreatedAt: ts,
				ExpiresAt: ts.Add(15 * time.Minute), SessionSID: sid}
			if hash == "" {
				if err := st.CreateAccessToken(ctx, at); err != nil {
					t.Fatal(err)
				}
				return
			}
			rt := &store.RefreshToken{TokenHash: hash, FamilyID: family, ClientID: "c", UserID: userID, AuthTime: ts,
				AccessTokenID: at.ID, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
			if ok, err := st.IssueTokens(ctx, "", at, rt); err != nil || !ok {
				t.Fatalf("issue %s = %v, %v", family, ok, err)
			}
		}
		issue("sg-tab1", "sg", "sid-a", "")
		issue("sg-tab2", "sg", "sid-a", "rt-sg-tab2")
		issue("sg-tab2", "sg", "", "rt-sg-tab2-next") // a refresh names no session and keeps the grant's
		issue("sg-elsewhere", "sg", "sid-b", "rt-sg-elsewhere")
		issue("sg-device", "sg", "", "rt-sg-device")
		issue("sg-other", "sg-other", "sid-a", "")
		if err := st.CreateTenantSession(ctx, &store.TenantSession{IDHash: "ts-sg", UserID: "sg", ClientID: "c", GrantID: "sg-tab1",
			TokenExpiresAt: ts.Add(time.Hour), CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := st.EndSession(ctx, "no-such-session", "sg", "sid-a", ts); err != nil {
			t.Fatal(err)
		}
		for family, want := range map[string]bool{"sg-tab1": true, "sg-tab2": true, "sg-elsewhere": false, "sg-device": false, "sg-other": false} {
			g, err := st.TokenGrant(ctx, family)
			if err != nil || g.RevokedAt.IsZero() != !want {
				t.Errorf("grant %s revoked at %v (%v), want revoked %v", family, g.RevokedAt, err, want)
			}
		}
		_, err := st.ActiveAccessToken(ctx, "at-sg-tab1", ts)
		wantCode(t, err, platform.ENOTFOUND)
		for hash, want := range map[string]bool{"rt-sg-tab2": true, "rt-sg-tab2-next": true, "rt-sg-elsewhere": false} {
			if rt, err := st.RefreshToken(ctx, hash, ts); err != nil || rt.Revoked != want {
				t.Errorf("refresh token %s = %+v, %v; want revoked %v", hash, rt, err, want)
			}
		}
		_, err = st.TenantSession(ctx, "ts-sg", ts)
		wantCode(t, err, platform.ENOTFOUND)
	})

	t.Run("GrantExtendedByRefresh", func(t *testing.T) {
		user("ext", "org-acme", "member", "acme")
		at := &store.AccessToken{ID: "at-ext-1", FamilyID: "fam-ext", ClientID: "c", UserID: "ext", CreatedAt: ts,
			ExpiresAt: ts.Add(15 * time.Minute), GrantExpiresAt: ts.Add(time.Hour)}
		if err := st.CreateAccessToken(ctx, at); err != nil {
			t.Fatal(err)
		}
		g, err := st.TokenGrant(ctx, "fam-ext")
		if err != nil || !g.ExpiresAt.Equal(ts.Add(time.Hour)) || g.UserID != "ext" || g.ClientID != "c" {
			t.Fatalf("grant = %+v, %v", g, err)
		}
		at2 := &store.AccessToken{ID: "at-ext-2", FamilyID: "fam-ext", ClientID: "c", UserID: "ext", CreatedAt: ts,
			ExpiresAt: ts.Add(15 * time.Minute)}
		rt := &store.RefreshToken{TokenHash: "rt-ext", FamilyID: "fam-ext", ClientID: "c", UserID: "ext", AuthTime: ts,
			AccessTokenID: at2.ID, CreatedAt: ts, ExpiresAt: ts.Add(30 * 24 * time.Hour)}
		if ok, err := st.IssueTokens(ctx, "", at2, rt); err != nil || !ok {
			t.Fatalf("issue = %v, %v", ok, err)
		}
		if g, _ := st.TokenGrant(ctx, "fam-ext"); !g.ExpiresAt.Equal(rt.ExpiresAt) {
			t.Errorf("grant expires %v, want the refresh token's %v", g.ExpiresAt, rt.ExpiresAt)
		}
		// an earlier expiry never shortens it
		if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-ext-3", FamilyID: "fam-ext", ClientID: "c", UserID: "ext",
			CreatedAt: ts, ExpiresAt: ts.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if g, _ := st.TokenGrant(ctx, "fam-ext"); !g.ExpiresAt.Equal(rt.ExpiresAt) {
			t.Errorf("grant shortened to %v", g.ExpiresAt)
		}
		// expired grants go with the other expired rows
		if err := st.DeleteExpired(ctx, rt.ExpiresAt.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		_, err = st.TokenGrant(ctx, "fam-ext")
		wantCode(t, err, platform.ENOTFOUND)
	})

	// The grant key holds grantee_type: a group grant and a user grant of
	// the same id and customer are two grants, and only user grants give the
	// user its customers.
	// spec: R2.6-grant-key
	t.Run("GranteeTypeInGrantKey", func(t *testing.T) {
		g := user("am-key", "org-admin", "account_manager", "")
		for _, gr := range []store.Grant{
			{GranteeType: store.GranteeGroup, GranteeID: "am-key", TargetID: "acme", GrantedAt: ts},
			{GranteeID: "am-key", TargetID: "acme", GrantedAt: ts}, // user by default
			{GranteeType: store.GranteeUser, GranteeID: "am-key", TargetID: "acme", GrantedAt: ts.Add(time.Hour)},
		} {
			if err := st.PutGrant(ctx, false, &gr); err != nil {
				t.Fatal(err)
			}
		}
		gs, err := st.Grants(ctx, false, "acme", "am-key")
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, gr := range gs {
			types = append(types, gr.GranteeType)
			if !gr.GrantedAt.Equal(ts) {
				t.Errorf("%s grant granted at %v: granting again replaced the first", gr.GranteeType, gr.GrantedAt)
			}
		}
		if !slices.Equal(types, []string{"group", "user"}) {
			t.Fatalf("grants of (am-key, acme) by type = %v, want one group and one user grant", types)
		}
		if p, _ := ok(t, "am-key", g); !slices.Equal(p.CustomerGrants, []string{"acme"}) {
			t.Errorf("customer grants = %v", p.CustomerGrants)
		}
		if err := st.DeleteGrant(ctx, false, "am-key", "acme"); err != nil { // the user's grant
			t.Fatal(err)
		}
		if p, _ := ok(t, "am-key", g); len(p.CustomerGrants) != 0 {
			t.Errorf("a group grant gives the user %v", p.CustomerGrants)
		}
		if gs, _ := st.Grants(ctx, false, "acme", "am-key"); len(gs) != 1 || gs[0].GranteeType != "group" {
			t.Errorf("after removing the user grant: %+v", gs)
		}
	})
}

// Logins hands out one live grant per user, as signing in would, and keeps
// it: tests whose authenticator names a user by id sign it in with its
// grant, so a suspension, a deletion or a revocation refuses that user's
// next request exactly as it refuses a real token.
type Logins struct {
	t      testing.TB
	st     *store.Store
	mu     sync.Mutex
	grants map[string]string
}

// NewLogins returns the logins of st.
func NewLogins(t testing.TB, st *store.Store) *Logins {
	return &Logins{t: t, st: st, grants: map[string]string{}}
}

// Grant returns the grant userID is signed in with, opening one on first use.
func (l *Logins) Grant(userID string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.grants[userID]
	if !ok {
		g = MustGrant(l.t, l.st, userID)
		l.grants[userID] = g
	}
	return g
}

// testBackchannelLogouts covers the logout queue: queued for the
// applications with a back-channel URI the user holds a live grant with,
// one pending per (client, user, sid), leased once, retried, and finished
// only if nothing newer was queued; and the tenant sessions a logout ends.
func testBackchannelLogouts(t *testing.T, st *store.Store) {
	mustOrg(t, st, "org-bcl")
	mustUser(t, st, "bcl-u", "org-bcl", "bcl@example.com")
	for _, a := range []platform.Application{
		{AppID: "bcl-a", ClientID: "bcl-c", Name: "RP", Kind: platform.AppPublic, RedirectURIs: []string{"https://rp.example/cb"},
			BackchannelLogoutURI: "https://rp.example/bcl", CreatedAt: ts},
		{AppID: "bcl-b", ClientID: "plain-c", Name: "Plain", Kind: platform.AppPublic, RedirectURIs: []string{"https://p.example/cb"}, CreatedAt: ts},
		{AppID: "bcl-d", ClientID: "idle-c", Name: "Idle", Kind: platform.AppPublic, RedirectURIs: []string{"https://i.example/cb"},
			BackchannelLogoutURI: "https://i.example/bcl", CreatedAt: ts},
	} {
		if err := st.CreateApplication(ctx, &a); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"bcl-c", "plain-c"} { // no grant with idle-c
		if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-" + c, FamilyID: "fam-" + c, ClientID: c, UserID: "bcl-u",
			CreatedAt: ts, ExpiresAt: ts.Add(time.Hour), GrantExpiresAt: ts.Add(24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(at time.Time) []*store.BackchannelLogout {
		t.Helper()
		got, err := st.ClaimBackchannelLogouts(ctx, at, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if n, err := st.QueueBackchannelLogouts(ctx, "bcl-u", "sid1", ts); err != nil || n != 1 {
		t.Fatalf("queued %d, %v; want 1 (only bcl-c has a URI and a grant)", n, err)
	}
	if _, err := st.QueueBackchannelLogouts(ctx, "bcl-u", "sid1", ts.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	got := claim(ts.Add(time.Second))
	if len(got) != 1 || got[0].ClientID != "bcl-c" || got[0].URI != "https://rp.example/bcl" || got[0].SessionSID != "sid1" ||
		!got[0].IssuedAt.Equal(ts.Add(time.Second)) {
		t.Fatalf("claimed %+v", got)
	}
	if again := claim(ts.Add(time.Second)); len(again) != 0 {
		t.Fatalf("a leased logout claimed again: %+v", again)
	}
	l := got[0]
	if err := st.RetryBackchannelLogout(ctx, l, ts.Add(2*time.Minute), "503"); err != nil {
		t.Fatal(err)
	}
	if early := claim(ts.Add(time.Minute + 30*time.Second)); len(early) != 0 {
		t.Fatalf("claimed before its retry time: %+v", early)
	}
	retried := claim(ts.Add(2 * time.Minute))
	if len(retried) != 1 || retried[0].Attempts != 1 {
		t.Fatalf("retry = %+v", retried)
	}
	// a newer logout queued while this one is out is not finished with it
	if _, err := st.QueueBackchannelLogouts(ctx, "bcl-u", "sid1", ts.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishBackchannelLogout(ctx, retried[0]); err != nil {
		t.Fatal(err)
	}
	newer := claim(ts.Add(3 * time.Minute))
	if len(newer) != 1 || !newer[0].IssuedAt.Equal(ts.Add(3*time.Minute)) || newer[0].Attempts != 0 {
		t.Fatalf("the newer logout = %+v", newer)
	}
	if err := st.FinishBackchannelLogout(ctx, newer[0]); err != nil {
		t.Fatal(err)
	}
	if left := claim(ts.Add(time.Hour)); len(left) != 0 {
		t.Fatalf("left after finishing: %+v", left)
	}
	// ending every credential queues a logout of every session
	if err := st.EndUserCredentials(ctx, "bcl-u", ts.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if all := claim(ts.Add(4 * time.Minute)); len(all) != 1 || all[0].SessionSID != "" || all[0].ClientID != "bcl-c" {
		t.Fatalf("after ending credentials: %+v", all)
	}

	for _, ss := range []*store.TenantSession{
		{IDHash: "t1", UserID: "bcl-u", IDPSID: "sid1", CreatedAt: ts},
		{IDHash: "t2", UserID: "bcl-u", IDPSID: "sid2", CreatedAt: ts},
		{IDHash: "t3", UserID: "bcl-u", IDPSID: "sid1", CreatedAt: ts.Add(10 * time.Minute)},
		{IDHash: "t4", UserID: "bcl-u", IDPSID: "sid1", CreatedAt: ts, ClientID: "other"},
	} {
		if ss.ClientID == "" {
			ss.ClientID = "bcl-c"
		}
		ss.TokenExpiresAt, ss.ExpiresAt = ts.Add(time.Hour), ts.Add(time.Hour)
		if err := st.CreateTenantSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	end := func(user, sid string, at time.Time) int64 {
		t.Helper()
		n, err := st.EndTenantSessionsForLogout(ctx, "bcl-c", user, sid, at)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := end("", "", ts.Add(time.Hour)); n != 0 {
		t.Fatalf("a logout naming nobody ended %d sessions", n)
	}
	if n := end("bcl-u", "sid1", ts.Add(5*time.Minute)); n != 1 {
		t.Fatalf("logout of sid1 ended %d sessions, want 1 (not the later one, not another client's)", n)
	}
	if n := end("bcl-u", "", ts.Add(5*time.Minute)); n != 1 {
		t.Fatalf("logout of every session ended %d, want 1 (t2; t3 began later)", n)
	}
	if n := end("", "sid1", ts.Add(time.Hour)); n != 1 {
		t.Fatalf("logout of sid1 an hour later ended %d, want 1 (t3)", n)
	}
}
