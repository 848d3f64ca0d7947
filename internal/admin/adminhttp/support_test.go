package adminhttp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The support tools through the REST API (D-support-tools): a user's status
// as it is, unlock, the second factor reset, a user's sessions and signing
// out of them, for customer and internal users.

// lockUser locks userID out as failed sign-ins do (two failures, the limit
// two), until an hour from now.
func (e *env) lockUser(userID string) time.Time {
	e.t.Helper()
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	for range 2 {
		if _, err := e.st.RecordLoginFailure(context.Background(), userID, 2, until); err != nil {
			e.t.Fatal(err)
		}
	}
	return until
}

// status answers the status and the whole view of a user read through path.
func (e *env) status(caller, path string) (string, map[string]any) {
	e.t.Helper()
	resp := e.do(caller, http.MethodGet, path, nil)
	if resp.Status != http.StatusOK {
		e.t.Fatalf("GET %s = %d %s", path, resp.Status, resp.Body)
	}
	v := resp.json(e.t)
	s, _ := v["status"].(string)
	return s, v
}

// A user's status is what the account is now: invited while it has no
// credential, locked while a lockout is in force (with its end), suspended
// before all; the list answers what the user's own read does, for
// customer and internal users alike.
//
// spec: D-support-tools
func TestUserStatusAsItIs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	platformAdmin := e.mustUser(authz.PlatformAdmin, "")
	active, invited, locked, suspended := e.mustUser(authz.Member, cust), e.mustInvited(authz.Member, cust),
		e.mustUser(authz.Member, cust), e.mustUser(authz.Member, cust)
	until := e.lockUser(locked)
	e.mustTOTP(active)
	if err := e.st.SetUserSuspended(context.Background(), suspended, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.lockUser(suspended) // suspension shows before the lock
	want := map[string]string{active: "active", invited: "invited", locked: "locked", suspended: "suspended"}
	for id, w := range want {
		got, v := e.status(platformAdmin, "/users/"+id)
		if got != w {
			t.Errorf("%s: status %q, want %q: %v", id, got, w, v)
		}
		if (w == "locked") != (v["lockedUntil"] != nil && id == locked) {
			t.Errorf("%s: lockedUntil %v", id, v["lockedUntil"])
		}
	}
	_, v := e.status(platformAdmin, "/users/"+locked)
	if at, err := time.Parse(time.RFC3339, v["lockedUntil"].(string)); err != nil || !at.Equal(until) || v["failedSignIns"] != 2.0 {
		t.Errorf("locked user: %v (%v)", v, err)
	}
	if _, v := e.status(platformAdmin, "/users/"+active); v["authenticatorApp"] != true || v["passkeys"] != 0.0 {
		t.Errorf("second factors of the active user: %v", v)
	}
	list := e.do(platformAdmin, http.MethodGet, "/users?customerId="+cust, nil).json(t)
	for _, it := range list["items"].([]any) {
		u := it.(map[string]any)
		if u["status"] != want[u["id"].(string)] {
			t.Errorf("listed %s as %v, want %s", u["id"], u["status"], want[u["id"].(string)])
		}
	}
	// internal users
	staff, staffInvited := e.mustUser(authz.Reader, ""), e.mustInvited(authz.Reader, "")
	e.lockUser(staff)
	for id, w := range map[string]string{staff: "locked", staffInvited: "invited", platformAdmin: "active"} {
		if got, v := e.status(platformAdmin, "/internal-users/"+id); got != w {
			t.Errorf("internal user %s: %q, want %q: %v", id, got, w, v)
		}
	}
}

// Unlocking ends the lockout and forgets the failed sign-ins; the event is
// in the audit log with the user as its resource.
//
// spec: D-support-tools
func TestUnlockClearsLockAndCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	admin, user := e.mustUser(authz.Admin, cust), e.mustUser(authz.Member, cust)
	e.lockUser(user)
	resp := e.doWithID("unlock-1", admin, http.MethodPost, "/users/"+user+"/unlock", nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("unlock = %d %s", resp.Status, resp.Body)
	}
	if v := resp.json(t); v["status"] != "active" || v["lockedUntil"] != nil || v["failedSignIns"] != 0.0 {
		t.Fatalf("answer after unlock: %v", v)
	}
	u, err := e.st.User(context.Background(), user)
	if err != nil || !u.LockedUntil.IsZero() || u.FailedLogins != 0 {
		t.Fatalf("stored after unlock: %+v %v", u, err)
	}
	if rows := auditRows(t, e.st, "unlock-1"); len(rows) != 1 || rows[0].Operation != "user.unlock" ||
		rows[0].Resource != "users/"+user || rows[0].CustomerID != cust {
		t.Fatalf("audit: %+v", rows)
	}
}

// Resetting a second factor removes the authenticator app, its recovery
// codes and the passkeys, ends the user's sessions and grants, and mails
// the user, in the transaction of the audit event; it refuses the caller's
// own account (the account page does that, with a recent proof) and a user
// without a second factor, and then nothing is mailed.
//
// spec: D-support-tools
func TestSecondFactorReset(t *testing.T) {
	t.Parallel()
	e, sl, cust, owner := mailEnv(t)
	ctx := context.Background()
	user := e.mustUser(authz.Member, cust)
	e.mustTOTP(user)
	if err := e.st.CreatePasskey(ctx, &store.Passkey{ID: "key-" + user, UserID: user, CredentialID: []byte("cred-" + user),
		Name: "Laptop", Credential: []byte("{}"), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	sid := e.mustSession(user, "Firefox")
	grant := e.logins.Grant(user) // the user's console sign-in
	if r := e.do(user, http.MethodGet, "/me/permissions", nil); r.Status != http.StatusOK {
		t.Fatalf("the user before the reset: %d", r.Status)
	}
	resp := e.doWithID("reset-1", owner, http.MethodPost, "/users/"+user+"/reset-second-factor", nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("reset = %d %s", resp.Status, resp.Body)
	}
	if v := resp.json(t); v["authenticatorApp"] != false || v["passkeys"] != 0.0 || v["status"] != "active" {
		t.Fatalf("answer: %v", v)
	}
	if _, err := e.st.TOTP(ctx, user); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Errorf("the authenticator app stayed: %v", err)
	}
	if keys, _ := e.st.Passkeys(ctx, user); len(keys) != 0 {
		t.Errorf("passkeys stayed: %v", keys)
	}
	if ok, _ := e.st.UseRecoveryCode(ctx, user, "code-hash-1"); ok {
		t.Error("a recovery code stayed")
	}
	if page, _, _ := e.st.UserSessionPage(ctx, user, time.Now(), store.PageQuery{}); len(page) != 0 {
		t.Errorf("session %s stayed: %+v", sid, page)
	}
	if g, err := e.st.TokenGrant(ctx, grant); err != nil || g.RevokedAt.IsZero() {
		t.Errorf("the user's grant: %+v %v", g, err)
	}
	if r := e.do(user, http.MethodGet, "/me/permissions", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the user's console token after the reset = %d, want 401", r.Status)
	}
	mails := outbox(t, e, sl, user+"@example.com", mail.KindSecondFactorReset)
	if len(mails) != 1 || !strings.Contains(mails[0].Text, "reset the second factor") || !strings.Contains(mails[0].Text, testIssuer+mail.PathAccount) {
		t.Fatalf("messages: %+v", mails)
	}
	if rows := auditRows(t, e.st, "reset-1"); len(rows) != 1 || rows[0].Operation != "user.second_factor_reset" || rows[0].CustomerID != cust {
		t.Fatalf("audit: %+v", rows)
	}
	// nothing left to reset: refused, nothing mailed
	if r := e.do(owner, http.MethodPost, "/users/"+user+"/reset-second-factor", nil); r.Status != http.StatusBadRequest ||
		!strings.Contains(string(r.Body), "no second factor") {
		t.Fatalf("second reset = %d %s", r.Status, r.Body)
	}
	if n := len(outbox(t, e, sl, user+"@example.com", mail.KindSecondFactorReset)); n != 1 {
		t.Fatalf("%d messages after a refused reset", n)
	}
	// one's own: the account page, not this
	admin := e.mustUser(authz.Admin, cust)
	e.mustTOTP(admin)
	if r := e.do(admin, http.MethodPost, "/users/"+admin+"/reset-second-factor", nil); r.Status != http.StatusBadRequest {
		t.Fatalf("own reset = %d %s", r.Status, r.Body)
	}
	if _, err := e.st.TOTP(ctx, admin); err != nil {
		t.Fatalf("the refused own reset removed the authenticator: %v", err)
	}
	// an internal user's, by platform_admin
	staff, pa := e.mustUser(authz.Reader, ""), e.mustUser(authz.PlatformAdmin, "")
	e.mustTOTP(staff)
	if r := e.do(pa, http.MethodPost, "/internal-users/"+staff+"/reset-second-factor", nil); r.Status != http.StatusOK ||
		r.json(t)["authenticatorApp"] != false {
		t.Fatalf("internal reset = %d %s", r.Status, r.Body)
	}
}

// A user's sessions are listed newest first with their browser, address
// and times, paged; signing out of one ends it with the grants it made and
// leaves the others; signing out everywhere ends them all with every grant.
//
// spec: D-support-tools
func TestUserSessionsAndSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	cust := e.mustCustomer()
	admin, user := e.mustUser(authz.Admin, cust), e.mustUser(authz.Member, cust)
	first := e.mustSession(user, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")
	second := e.mustSession(user, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1")
	if err := e.st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-" + second, FamilyID: "fam-" + second, ClientID: "c",
		UserID: user, CreatedAt: time.Now(), ExpiresAt: time.Now().Add(15 * time.Minute), SessionSID: second}); err != nil {
		t.Fatal(err)
	}
	resp := e.do(admin, http.MethodGet, "/users/"+user+"/sessions?limit=1", nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("sessions = %d %s", resp.Status, resp.Body)
	}
	page := resp.json(t)
	items := page["items"].([]any)
	s := items[0].(map[string]any)
	if len(items) != 1 || page["nextCursor"] == nil || s["id"] != second && s["id"] != first || s["address"] != "203.0.113.7" ||
		!strings.Contains(s["userAgent"].(string), "Mozilla/5.0") || s["signedInAt"] == nil || s["lastSeenAt"] == nil ||
		s["expiresAt"] == nil || fmt.Sprint(s["methods"]) != "[pwd]" {
		t.Fatalf("first page: %v", page)
	}
	rest := e.do(admin, http.MethodGet, "/users/"+user+"/sessions?limit=1&cursor="+page["nextCursor"].(string), nil).json(t)
	if items := rest["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] == s["id"] || rest["nextCursor"] != nil {
		t.Fatalf("second page: %v", rest)
	}
	for _, bad := range []string{"?limit=0", "?limit=1001", "?cursor=nope"} {
		if r := e.do(admin, http.MethodGet, "/users/"+user+"/sessions"+bad, nil); r.Status != http.StatusBadRequest {
			t.Errorf("sessions%s = %d", bad, r.Status)
		}
	}

	// one
	if r := e.doWithID("end-one", admin, http.MethodDelete, "/users/"+user+"/sessions/"+second, nil); r.Status != http.StatusNoContent {
		t.Fatalf("end one = %d %s", r.Status, r.Body)
	}
	if rows := auditRows(t, e.st, "end-one"); len(rows) != 1 || rows[0].Operation != "user.session_end" ||
		rows[0].Resource != "users/"+user+"/sessions/"+second {
		t.Fatalf("audit: %+v", rows)
	}
	if g, err := e.st.TokenGrant(ctx, "fam-"+second); err != nil || g.RevokedAt.IsZero() {
		t.Errorf("the ended session's grant: %+v %v", g, err)
	}
	left := e.do(admin, http.MethodGet, "/users/"+user+"/sessions", nil).json(t)["items"].([]any)
	if len(left) != 1 || left[0].(map[string]any)["id"] != first {
		t.Fatalf("after ending one: %v", left)
	}
	if r := e.do(admin, http.MethodDelete, "/users/"+user+"/sessions/"+second, nil); r.Status != http.StatusNotFound {
		t.Fatalf("ended twice = %d", r.Status)
	}

	// all: the console sign-in of the user too
	grant := e.logins.Grant(user)
	if r := e.do(admin, http.MethodDelete, "/users/"+user+"/sessions", nil); r.Status != http.StatusNoContent {
		t.Fatalf("end all = %d %s", r.Status, r.Body)
	}
	if left := e.do(admin, http.MethodGet, "/users/"+user+"/sessions", nil).json(t)["items"].([]any); len(left) != 0 {
		t.Fatalf("after ending all: %v", left)
	}
	if g, err := e.st.TokenGrant(ctx, grant); err != nil || g.RevokedAt.IsZero() {
		t.Errorf("the user's console grant: %+v %v", g, err)
	}
}

// A customer's admin reaches for another customer's user with every support
// tool: the user's id answers as one that does not exist (404), and the
// lock, the second factor, the sessions and the invitation stay as they
// were; an account manager not granted that customer gets 403, as for any
// of its records.
//
// attack: support-tools-other-customer
func TestAttackSupportToolsAcrossCustomers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	victimCust, attackerCust := e.mustCustomer(), e.mustCustomer()
	victim, pending := e.mustUser(authz.Member, victimCust), e.mustInvited(authz.Member, victimCust)
	e.lockUser(victim)
	e.mustTOTP(victim)
	sid := e.mustSession(victim, "Firefox")
	if err := e.st.CreateAccountToken(ctx, &store.AccountToken{Hash: "inv-" + pending, Kind: store.TokenInvitation, UserID: pending,
		CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}, true); err != nil {
		t.Fatal(err)
	}
	manager := e.mustUser(authz.AccountManager, "")
	e.mustGrant(manager, false, attackerCust)
	for caller, want := range map[string]int{e.mustUser(authz.Admin, attackerCust): 404, e.mustUser(authz.Owner, attackerCust): 404, manager: 403} {
		for _, rq := range [][2]string{
			{http.MethodPost, "/users/" + victim + "/unlock"},
			{http.MethodPost, "/users/" + victim + "/reset-second-factor"},
			{http.MethodGet, "/users/" + victim + "/sessions"},
			{http.MethodDelete, "/users/" + victim + "/sessions/" + sid},
			{http.MethodDelete, "/users/" + victim + "/sessions"},
			{http.MethodPost, "/users/" + pending + "/resend-invitation"},
			{http.MethodPost, "/users/" + pending + "/revoke-invitation"},
			// through the internal users' routes, which are platform_admin's
			{http.MethodPost, "/internal-users/" + victim + "/reset-second-factor"},
			{http.MethodDelete, "/internal-users/" + victim + "/sessions"},
		} {
			r := e.do(caller, rq[0], rq[1], nil)
			w := want
			if strings.HasPrefix(rq[1], "/internal-users/") {
				w = 403
			}
			if r.Status != w {
				t.Errorf("%s %s = %d, want %d: %s", rq[0], rq[1], r.Status, w, r.Body)
			}
			if strings.Contains(string(r.Body), "Firefox") || strings.Contains(string(r.Body), victim+"@") {
				t.Errorf("%s %s shows the victim: %s", rq[0], rq[1], r.Body)
			}
		}
	}
	u, err := e.st.CustomerUser(ctx, victim)
	if err != nil || u.LockedUntil.IsZero() || !u.TOTP {
		t.Errorf("the victim after the attempts: %+v %v", u, err)
	}
	if page, _, _ := e.st.UserSessionPage(ctx, victim, time.Now(), store.PageQuery{}); len(page) != 1 {
		t.Errorf("the victim's session: %+v", page)
	}
	if _, err := e.st.AccountToken(ctx, "inv-"+pending, store.TokenInvitation, time.Now()); err != nil {
		t.Errorf("the victim's invitation: %v", err)
	}
	if box, _ := e.st.Mailbox(ctx, 100); len(box) != 0 {
		t.Errorf("mail sent: %+v", box)
	}
}

// A session is named under its user: an admin who may sign out its own
// customer's users names one of them with the session id of another
// customer's user, or of a colleague, and nothing ends (404).
//
// attack: session-of-another-user
func TestAttackEndAnotherUsersSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	mine, theirs := e.mustCustomer(), e.mustCustomer()
	admin, member, colleague := e.mustUser(authz.Admin, mine), e.mustUser(authz.Member, mine), e.mustUser(authz.Member, mine)
	victim := e.mustUser(authz.Member, theirs)
	foreign, colleagues := e.mustSession(victim, "Firefox"), e.mustSession(colleague, "Safari")
	for _, sid := range []string{foreign, colleagues, "hash-" + foreign, "", strings.Repeat("x", 200)} {
		if r := e.do(admin, http.MethodDelete, "/users/"+member+"/sessions/"+sid, nil); r.Status != http.StatusNotFound {
			t.Errorf("end %q under my member = %d %s", sid, r.Status, r.Body)
		}
	}
	for who, sid := range map[string]string{victim: foreign, colleague: colleagues} {
		if page, _, _ := e.st.UserSessionPage(ctx, who, time.Now(), store.PageQuery{}); len(page) != 1 || page[0].SID != sid {
			t.Errorf("%s's session after the attempts: %+v", who, page)
		}
	}
}

// Only platform_admin touches the owner with the support tools
// (D-owner-protect): the customer's admin, an account manager or QA admin
// of the customer, and the owner itself are refused (403, audited) to reset
// the owner's second factor, sign the owner out or unlock it, and the
// owner's factor, session and lock stay; platform_admin may.
//
// attack: second-factor-reset-owner
func TestAttackSupportToolsOnTheOwner(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	for _, role := range []authz.Role{authz.Admin, authz.AccountManager, authz.QAAdmin, authz.Owner, authz.PlatformAdmin} {
		t.Run(role.String(), func(t *testing.T) {
			cust := e.mustCustomer()
			owner := e.mustUser(authz.Owner, cust)
			e.mustTOTP(owner)
			e.lockUser(owner)
			sid := e.mustSession(owner, "Firefox")
			caller := owner
			switch {
			case role == authz.Admin:
				caller = e.mustUser(role, cust)
			case role != authz.Owner:
				caller = e.mustUser(role, "")
				if role.Scoped() {
					e.mustGrant(caller, false, cust)
				}
			}
			want := http.StatusForbidden
			if role == authz.PlatformAdmin {
				want = 0 // 2xx
			}
			for _, rq := range [][2]string{
				{http.MethodDelete, "/users/" + owner + "/sessions/" + sid},
				{http.MethodDelete, "/users/" + owner + "/sessions"},
				{http.MethodPost, "/users/" + owner + "/reset-second-factor"},
				{http.MethodPost, "/users/" + owner + "/unlock"},
			} {
				r := e.do(caller, rq[0], rq[1], nil)
				if (want == 0 && (r.Status < 200 || r.Status > 299)) || (want != 0 && r.Status != want) {
					t.Errorf("%s %s as %s = %d: %s", rq[0], rq[1], role, r.Status, r.Body)
				}
			}
			u, err := e.st.CustomerUser(ctx, owner)
			if err != nil {
				t.Fatal(err)
			}
			page, _, _ := e.st.UserSessionPage(ctx, owner, time.Now(), store.PageQuery{})
			touched := !u.TOTP || u.LockedUntil.IsZero() || len(page) == 0
			if touched != (role == authz.PlatformAdmin) {
				t.Errorf("as %s the owner's factor, lock and session are %+v, %d sessions", role, u.AccountState, len(page))
			}
			if role != authz.PlatformAdmin {
				if got := e.do(e.mustUser(authz.PlatformAdmin, ""), "GET", "/audit-log?limit=20", nil).json(t); !containsReason(got, authz.ReasonOwnerProtected) {
					t.Errorf("refusal not audited: %v", got)
				}
			}
		})
	}
}
