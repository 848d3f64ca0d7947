package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

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
