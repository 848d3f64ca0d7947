package storetest

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testSupport: what administrators read and change to help a user
// (D-support-tools): the state of an account in the users lists, a user's
// browser sessions (paged newest first, one ended with the grants it made,
// another user's never), the second factor reset and the removal of an
// account whose invitation is pending.
func testSupport(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "c-sup", "Support Co", "o-sup")
	member := func(id string, password bool) {
		t.Helper()
		u := &platform.User{ID: id, OrgID: "o-sup", Email: id + "@example.com", Name: "User " + id, CreatedAt: ts, UpdatedAt: ts}
		if password {
			u.PasswordHash = "$argon2id$x"
		}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: "member", CustomerID: "c-sup", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
	state := func(id string) store.AccountState {
		t.Helper()
		u, err := st.CustomerUser(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return u.AccountState
	}

	t.Run("AccountState", func(t *testing.T) {
		member("st-active", true)
		member("st-invited", false)
		member("st-linked", false) // signs in through an identity provider: no password, not invited
		if err := st.CreateExternalIDP(ctx, &platform.ExternalIDP{ID: "idp-sup", OrgID: "o-sup", Name: "Directory",
			Issuer: "https://directory.example", ClientID: "c", SecretSealed: []byte("sealed"), Scopes: []string{"openid"}, CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		if err := st.LinkExternalIdentity(ctx, "idp-sup", "subject-1", "st-linked", ts); err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordLoginFailure(ctx, "st-active", 2, ts.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		mustSecondFactors(t, st, "st-active", 2)
		wantSame(t, "active user", store.AccountState{FailedLogins: 1, TOTP: true, Passkeys: 2}, state("st-active"), nil)
		wantSame(t, "invited user", store.AccountState{Pending: true}, state("st-invited"), nil)
		wantSame(t, "linked user", store.AccountState{}, state("st-linked"), nil)
		if _, err := st.RecordLoginFailure(ctx, "st-active", 2, ts.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := st.SetUserSuspended(ctx, "st-invited", ts); err != nil {
			t.Fatal(err)
		}
		wantSame(t, "locked user", store.AccountState{LockedUntil: ts.Add(time.Hour), FailedLogins: 2, TOTP: true, Passkeys: 2},
			state("st-active"), nil)
		wantSame(t, "suspended user", store.AccountState{SuspendedAt: ts, Pending: true}, state("st-invited"), nil)
		// the lists read the same
		users, _, err := st.ListCustomerUsers(ctx, authz.Filter{All: true}, "c-sup", "", store.PageQuery{})
		if err != nil || len(users) != 3 || users[0].ID != "st-active" || users[0].LockedUntil.IsZero() || !users[1].Pending {
			t.Fatalf("list = %+v, %v", users, err)
		}
	})

	t.Run("Sessions", func(t *testing.T) {
		member("ses", true)
		member("ses-other", true)
		for i, sid := range []string{"sid-1", "sid-2", "sid-3"} {
			at := ts.Add(time.Duration(i) * time.Minute)
			if err := st.CreateSession(ctx, &store.Session{IDHash: "h-" + sid, SID: sid, UserID: "ses", AuthTime: at, AMR: []string{"pwd"},
				CreatedAt: at, ExpiresAt: at.Add(12 * time.Hour), UserAgent: "Agent " + sid, Address: "192.0.2.1"}); err != nil {
				t.Fatal(err)
			}
		}
		// a User-Agent is the browser's to write: too long, not UTF-8
		if err := st.CreateSession(ctx, &store.Session{IDHash: "h-other", SID: "sid-other", UserID: "ses-other", AuthTime: ts,
			CreatedAt: ts, ExpiresAt: ts.Add(12 * time.Hour), UserAgent: "Agent \xff\xfe" + strings.Repeat("x", 600)}); err != nil {
			t.Fatal(err)
		}
		if other, err := st.Session(ctx, "h-other", ts); err != nil || !utf8.ValidString(other.UserAgent) ||
			len(other.UserAgent) > store.MaxUserAgent || !strings.HasPrefix(other.UserAgent, "Agent xxx") {
			t.Fatalf("a browser's odd User-Agent kept as %q (%v)", other.UserAgent, err)
		}
		if err := st.SeeSession(ctx, "h-sid-1", "198.51.100.4", ts.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		page, next, err := st.UserSessionPage(ctx, "ses", ts, store.PageQuery{Limit: 2})
		if err != nil || len(page) != 2 || page[0].SID != "sid-3" || page[1].SID != "sid-2" || next == "" ||
			page[0].UserAgent != "Agent sid-3" || !page[0].LastSeenAt.Equal(page[0].CreatedAt) {
			t.Fatalf("first page = %+v, %q, %v", page, next, err)
		}
		page, next, err = st.UserSessionPage(ctx, "ses", ts, store.PageQuery{Limit: 2, Cursor: next})
		if err != nil || len(page) != 1 || page[0].SID != "sid-1" || next != "" || page[0].Address != "198.51.100.4" ||
			!page[0].LastSeenAt.Equal(ts.Add(time.Hour)) {
			t.Fatalf("second page = %+v, %q, %v", page, next, err)
		}
		_, _, err = st.UserSessionPage(ctx, "ses", ts, store.PageQuery{Cursor: "not a cursor"})
		wantCode(t, err, platform.EINVALID)
		// expired sessions are not listed
		if page, _, _ := st.UserSessionPage(ctx, "ses", ts.Add(12*time.Hour+90*time.Second), store.PageQuery{}); len(page) != 1 {
			t.Fatalf("after two expired: %+v", page)
		}

		// ending one: its grant goes with it, the application that takes
		// back-channel logouts is told; another user's sid is not found
		if err := st.CreateApplication(ctx, &platform.Application{AppID: "ses-app", ClientID: "ses-c", Name: "RP", Kind: platform.AppPublic,
			RedirectURIs: []string{"https://rp.example/cb"}, BackchannelLogoutURI: "https://rp.example/bcl", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		at := &store.AccessToken{ID: "at-ses", FamilyID: "fam-ses", ClientID: "ses-c", UserID: "ses", CreatedAt: ts,
			ExpiresAt: ts.Add(15 * time.Minute), GrantExpiresAt: ts.Add(time.Hour), SessionSID: "sid-2"}
		if err := st.CreateAccessToken(ctx, at); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.EndUserSession(ctx, "ses", "sid-other", ts), platform.ENOTFOUND)
		wantCode(t, st.EndUserSession(ctx, "ses", "", ts), platform.ENOTFOUND)
		if _, err := st.Session(ctx, "h-other", ts); err != nil {
			t.Fatalf("another user's session: %v", err)
		}
		if err := st.EndUserSession(ctx, "ses", "sid-2", ts); err != nil {
			t.Fatal(err)
		}
		_, err = st.Session(ctx, "h-sid-2", ts)
		wantCode(t, err, platform.ENOTFOUND)
		if g, err := st.TokenGrant(ctx, "fam-ses"); err != nil || g.RevokedAt.IsZero() {
			t.Fatalf("the session's grant = %+v, %v", g, err)
		}
		if due, err := st.ClaimBackchannelLogouts(ctx, ts, time.Minute, 10); err != nil || len(due) != 1 || due[0].SessionSID != "sid-2" ||
			due[0].ClientID != "ses-c" {
			t.Fatalf("back-channel logouts = %+v, %v", due, err)
		}
		if page, _, _ := st.UserSessionPage(ctx, "ses", ts, store.PageQuery{}); len(page) != 2 {
			t.Fatalf("after ending one: %+v", page)
		}
		wantCode(t, st.EndUserSession(ctx, "ses", "sid-2", ts), platform.ENOTFOUND)
	})

	t.Run("SecondFactorReset", func(t *testing.T) {
		member("mfa", true)
		member("mfa-none", true)
		mustSecondFactors(t, st, "mfa", 1)
		if err := st.CreateSession(ctx, &store.Session{IDHash: "h-mfa", SID: "sid-mfa", UserID: "mfa", AuthTime: ts, CreatedAt: ts,
			ExpiresAt: ts.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		removed, err := st.ResetSecondFactor(ctx, "mfa", ts)
		if err != nil || !removed {
			t.Fatalf("reset = %v, %v", removed, err)
		}
		wantSame(t, "after the reset", store.AccountState{}, state("mfa"), nil)
		if ok, _ := st.UseRecoveryCode(ctx, "mfa", "code-1"); ok {
			t.Error("a recovery code outlived the reset")
		}
		_, err = st.Session(ctx, "h-mfa", ts)
		wantCode(t, err, platform.ENOTFOUND)
		if removed, err := st.ResetSecondFactor(ctx, "mfa-none", ts); err != nil || removed {
			t.Fatalf("reset without a second factor = %v, %v", removed, err)
		}
	})

	t.Run("PendingUserRemoval", func(t *testing.T) {
		member("pending", false)
		member("accepted", true)
		if err := st.CreateAccountToken(ctx, &store.AccountToken{Hash: "inv-pending", Kind: store.TokenInvitation, UserID: "pending",
			CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.RemovePendingUser(ctx, "accepted"), platform.EINVALID)
		if _, err := st.CustomerUser(ctx, "accepted"); err != nil {
			t.Fatalf("the accepted user: %v", err)
		}
		if err := st.RemovePendingUser(ctx, "pending"); err != nil {
			t.Fatal(err)
		}
		_, err := st.CustomerUser(ctx, "pending")
		wantCode(t, err, platform.ENOTFOUND)
		_, err = st.AccountToken(ctx, "inv-pending", store.TokenInvitation, ts)
		wantCode(t, err, platform.ENOTFOUND)
		if _, err := st.ConsoleUser(ctx, "pending"); platform.ErrorCode(err) != platform.ENOTFOUND {
			t.Fatalf("the console role stayed: %v", err)
		}
		wantCode(t, st.RemovePendingUser(ctx, "pending"), platform.ENOTFOUND)
	})
}

// mustSecondFactors gives userID a confirmed authenticator app, recovery
// codes (code-1, code-2) and n passkeys.
func mustSecondFactors(t *testing.T, st *store.Store, userID string, n int) {
	t.Helper()
	if err := st.PutTOTP(ctx, &store.TOTPFactor{UserID: userID, SecretSealed: []byte("sealed"), CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.UseTOTPStep(ctx, userID, 1); err != nil || !ok {
		t.Fatalf("confirm: %v %v", ok, err)
	}
	if err := st.ReplaceRecoveryCodes(ctx, userID, []string{"code-1", "code-2"}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		id := userID + "-key-" + string(rune('a'+i))
		if err := st.CreatePasskey(ctx, &store.Passkey{ID: id, UserID: userID, CredentialID: []byte(id), Name: "Key " + id,
			Credential: []byte("{}"), CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
}
