package idp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// custB is the customer whose organization is orgB: bob's events are its.
const custB = "cust-b"

// withCustomerB makes orgB a customer's organization.
func (ti *testIDP) withCustomerB() {
	ti.t.Helper()
	if err := ti.st.CreateCustomer(context.Background(), &platform.Customer{ID: custB, Name: "Customer B", OrgID: orgB,
		CreatedAt: time.Now()}); err != nil {
		ti.t.Fatal(err)
	}
}

// events lists the audit events of kind (every kind for ""), oldest first,
// as the APIs answer them; scope is the reader's (every event with All).
func (ti *testIDP) events(kind audit.Kind, scope authz.Filter) []audit.Event {
	ti.t.Helper()
	ti.p.WaitBackground()
	rows, _, err := ti.st.AuditEvents(context.Background(), store.AuditQuery{Scope: scope, Kind: string(kind), Limit: 500})
	if err != nil {
		ti.t.Fatal(err)
	}
	out := make([]audit.Event, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		out = append(out, audit.FromRow(&rows[i]))
	}
	return out
}

var everyone = authz.Filter{All: true}

// last is the newest event of kind, or fails.
func (ti *testIDP) last(kind audit.Kind) audit.Event {
	ti.t.Helper()
	evs := ti.events(kind, everyone)
	if len(evs) == 0 {
		ti.t.Fatalf("no %s event", kind)
	}
	return evs[len(evs)-1]
}

// from checks that e came with a request of the test's client (loopback,
// Go's user agent, a request id).
func from(t *testing.T, e audit.Event) {
	t.Helper()
	if e.SourceAddress != "127.0.0.1" || !strings.HasPrefix(e.UserAgent, "Go-http-client") || e.RequestID == "" {
		t.Errorf("%s from %q, user agent %q, request %q", e.Kind, e.SourceAddress, e.UserAgent, e.RequestID)
	}
}

// Sign-ins through the real login pages and token endpoint: a success (the
// session's start, then the grant's tokens), each failure with its reason,
// the lockout and the lock's end at expiry, all with their actor, target,
// customer and request. A failure for an address without an account is no
// customer's, and carries the precise reason only there.
//
// spec: D-audit-trail
func TestAuditSignInEvents(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withCustomerB()
	r := ti.rp()
	ownB := authz.Filter{CustomerIDs: []string{custB}}

	tok, _ := ti.loginTokens(r, bob)
	if tok.AccessToken == "" {
		t.Fatal("no token")
	}
	in := ti.last(audit.SignIn)
	cust := func(e audit.Event) string {
		if e.CustomerID == nil {
			return ""
		}
		return *e.CustomerID
	}
	if in.Outcome != "success" || in.Actor != (audit.Actor{UserID: userBob, Email: bob, OrganizationID: orgB, Role: "member"}) ||
		in.Target != (audit.Target{Type: "application", ID: appClientID, Name: "App"}) || cust(in) != custB ||
		in.Details.Method != "password" || in.Details.AMR != "pwd" || in.Class != "Authentication" || in.Activity != "Logon" ||
		in.TypeUID != 300201 || in.Category != "Identity & Access Management" {
		t.Errorf("sign-in = %+v", in)
	}
	from(t, in)
	issued := ti.last(audit.TokenIssued)
	if issued.Actor.UserID != userBob || issued.Target.ID != appClientID || issued.Details.GrantType != "authorization_code" ||
		issued.Details.GrantID == "" || cust(issued) != custB || issued.Outcome != "success" {
		t.Errorf("tokens issued = %+v", issued)
	}

	attempt := func(email, password string) {
		t.Helper()
		b := ti.browser()
		_, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "login")))
		if resp, _ := b.submitLogin(ti.issuer, page, email, password); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s: %d, want 401", email, resp.StatusCode)
		}
	}
	failure := func(e audit.Event, reason string) {
		t.Helper()
		if e.Outcome != "failure" || e.Reason != reason || e.Details.Method != "password" || e.Details.Step != "first_factor" ||
			e.Status != 401 || e.Target.ID != appClientID {
			t.Errorf("failure %+v, want reason %s", e, reason)
		}
		from(t, e)
	}
	attempt("nobody@b.example", "whatever")
	unknown := ti.last(audit.SignIn)
	failure(unknown, "unknown_user")
	if unknown.Actor != (audit.Actor{Email: "nobody@b.example"}) || unknown.CustomerID != nil {
		t.Errorf("an address without an account: actor %+v, customer %v", unknown.Actor, unknown.CustomerID)
	}
	for i := 1; i <= 5; i++ {
		attempt(bob, "wrong password")
		failure(ti.last(audit.SignIn), "invalid_credentials")
	}
	locked := ti.last(audit.AccountLocked)
	until, err := time.Parse(time.RFC3339, locked.Details.Until)
	if locked.Actor.UserID != userBob || locked.Target != (audit.Target{Type: "user", ID: userBob, Name: bob}) ||
		cust(locked) != custB || locked.Reason != "failed_attempts" || err != nil || !until.After(time.Now()) ||
		locked.Activity != "Lock" || locked.Class != "Account Change" {
		t.Errorf("lockout = %+v", locked)
	}
	from(t, locked)
	attempt(bob, goodPass) // refused while locked, the right password too
	failure(ti.last(audit.SignIn), "account_locked")

	// the lock ends by itself: maintenance records its end
	ti.clock.offset += 16 * time.Minute
	if err := ti.p.LiftExpiredLocks(context.Background()); err != nil {
		t.Fatal(err)
	}
	unlocked := ti.last(audit.AccountUnlocked)
	if unlocked.Reason != "lock_expired" || unlocked.Target.ID != userBob || cust(unlocked) != custB || unlocked.Activity != "Unlock" {
		t.Errorf("unlock at expiry = %+v", unlocked)
	}
	if err := ti.p.LiftExpiredLocks(context.Background()); err != nil || len(ti.events(audit.AccountUnlocked, everyone)) != 1 {
		t.Errorf("a lock's end recorded twice (%v)", err)
	}
	// or at the account's next attempt, before maintenance runs
	for range 5 {
		attempt(bob, "wrong password")
	}
	ti.clock.offset += 16 * time.Minute
	ti.loginTokens(r, bob)
	if evs := ti.events(audit.AccountUnlocked, everyone); len(evs) != 2 || evs[1].Reason != "lock_expired" {
		t.Errorf("unlocks = %+v", evs)
	}
	from(t, ti.last(audit.AccountUnlocked))

	if err := ti.st.SetUserSuspended(context.Background(), userBob, time.Now()); err != nil {
		t.Fatal(err)
	}
	attempt(bob, goodPass)
	failure(ti.last(audit.SignIn), "account_suspended")

	// the customer's own view: its user's events, never the unknown address
	for _, e := range ti.events("", ownB) {
		if e.Actor.UserID != userBob || e.Reason == "unknown_user" {
			t.Errorf("customer B reads %+v", e)
		}
	}
	want := 0
	for _, e := range ti.events(audit.SignIn, everyone) {
		if e.Actor.UserID == userBob {
			want++
		}
	}
	if n := len(ti.events(audit.SignIn, ownB)); n != want || n < 10 {
		t.Errorf("customer B reads %d sign-ins of bob, want all %d of them", n, want)
	}
}

// A wrong one-time code at the second step is a failed sign-in of its own
// (invalid_code, second_factor); the code's method is named.
//
// spec: D-audit-trail
func TestAuditSecondFactorFailure(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	b := ti.signedIn()
	ti.enrolTOTP(b)
	if e := ti.last(audit.MFAEnrolled); e.Outcome != "success" || e.Details.Method != "totp" || e.Target.ID != userAlice {
		t.Errorf("enrolment = %+v", e)
	}
	if evs := ti.events(audit.MFAEnrolled, everyone); len(evs) != 2 || evs[0].Outcome != "failure" || evs[0].Reason != "invalid_code" {
		t.Errorf("the wrong first code of the enrolment: %+v", evs)
	}
	r := ti.rp()
	nb := ti.browser()
	_, page := ti.passwordStep(nb, r, newFlow(), alice)
	if resp, _ := nb.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {"000000"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong code: %d", resp.StatusCode)
	}
	e := ti.last(audit.SignIn)
	if e.Outcome != "failure" || e.Reason != "invalid_code" || e.Details.Method != "totp" || e.Details.Step != "second_factor" ||
		e.Actor.UserID != userAlice {
		t.Errorf("wrong code = %+v", e)
	}
}

// The account page's changes, each recorded in the transaction that makes
// it: the password, sessions ended elsewhere, new recovery codes, the
// authenticator removed, a confirmation, signing out, another user signing
// in in the same browser.
//
// spec: D-audit-trail
func TestAuditAccountEvents(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	b := ti.signedIn()
	ti.signedIn() // another browser
	f := ti.accountForms(b)
	if resp, _ := f.post(PathAccountEndOthers, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("end others: %d", resp.StatusCode)
	}
	ended := ti.last(audit.SessionEnded)
	if ended.Reason != "signed_out_elsewhere" || ended.Details.Sessions != 1 || ended.Actor.UserID != userAlice ||
		ended.Target.ID != userAlice || ended.Activity != "Logoff" {
		t.Errorf("sessions ended elsewhere = %+v", ended)
	}
	from(t, ended)

	if resp, _ := f.post(PathAccountPassword, url.Values{"current": {"wrong"}, "password": {newPass}, "confirm": {newPass}}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong current password: %d", resp.StatusCode)
	}
	if e := ti.last(audit.Reauthentication); e.Outcome != "failure" || e.Details.Method != "password" || e.Reason != "invalid_credentials" {
		t.Errorf("wrong current password = %+v", e)
	}
	if resp, _ := f.post(PathAccountPassword, url.Values{"current": {goodPass}, "password": {newPass}, "confirm": {newPass}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("password change: %d", resp.StatusCode)
	}
	if e := ti.last(audit.PasswordChanged); e.Actor.UserID != userAlice || e.Target.Name != alice || e.Activity != "Password Change" {
		t.Errorf("password changed = %+v", e)
	}

	ti.enrolTOTP(b)
	f = ti.accountForms(b)
	if resp, _ := f.post(PathAccountRecovery, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("new recovery codes: %d", resp.StatusCode)
	}
	if e := ti.last(audit.RecoveryCodesRegenerated); e.Actor.UserID != userAlice || e.Details.Method != "totp" {
		t.Errorf("recovery codes = %+v", e)
	}
	f = ti.accountForms(b)
	if resp, _ := f.post(PathAccountMFAReset, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("authenticator reset: %d", resp.StatusCode)
	}
	if e := ti.last(audit.MFARemoved); e.Actor.UserID != userAlice || e.Reason != "replaced_by_user" || e.Activity != "MFA Factor Disable" {
		t.Errorf("authenticator removed = %+v", e)
	}

	// confirming with the password where it proves the account
	ti.staleProof()
	f = ti.accountForms(b)
	if resp, _ := f.post(PathAccountConfirm, url.Values{"password": {newPass}, "next": {PathAccount}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("confirm: %d", resp.StatusCode)
	}
	if e := ti.last(audit.Reauthentication); e.Outcome != "success" || e.Details.Method != "password" {
		t.Errorf("confirmation = %+v", e)
	}

	// bob signs in in alice's browser: her session ends, without naming him
	ti.login(b, ti.rp(), newFlow(), bob, goodPass, oauth2.SetAuthURLParam("prompt", "login"))
	e := ti.last(audit.SessionEnded)
	if e.Reason != "other_user_signed_in" || e.Actor.UserID != userAlice || e.Target.ID != userAlice {
		t.Errorf("session ended by another sign-in = %+v", e)
	}
	// and signs out
	_, page := b.get(ti.issuer + PathEndSession)
	if resp, _ := b.submitForm(ti.issuer+PathEndSession, page); resp.StatusCode >= 400 {
		t.Fatalf("sign out: %d", resp.StatusCode)
	}
	if e := ti.last(audit.SessionEnded); e.Reason != "sign_out" || e.Actor.UserID != userBob {
		t.Errorf("signed out = %+v", e)
	}
}

// The links sent by e-mail: a reset asked for (for an address without an
// account too, platform-wide), a password reset through its link, which
// lifts a lock in force, an invitation accepted (the user signed in), a
// new address confirmed.
//
// spec: D-audit-trail
func TestAuditLinkEvents(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withCustomerB()
	b := ti.browser()
	_, page := b.get(ti.issuer + PathPasswordForgot)
	if resp, _ := b.submitForm(ti.issuer+PathPasswordForgot, page, "email", bob); resp.StatusCode != http.StatusOK {
		t.Fatalf("forgot: %d", resp.StatusCode)
	}
	asked := ti.last(audit.PasswordResetRequested)
	if asked.Outcome != "success" || asked.Actor.UserID != userBob || asked.CustomerID == nil || *asked.CustomerID != custB {
		t.Errorf("reset asked = %+v", asked)
	}
	from(t, asked)
	_, page = b.get(ti.issuer + PathPasswordForgot)
	b.submitForm(ti.issuer+PathPasswordForgot, page, "email", "nobody@b.example")
	if e := ti.last(audit.PasswordResetRequested); e.Outcome != "failure" || e.Reason != "unknown_user" || e.CustomerID != nil ||
		e.Actor.Email != "nobody@b.example" {
		t.Errorf("reset for an address without an account = %+v", e)
	}

	// bob locks himself out, then follows the link
	r := ti.rp()
	for range 5 {
		nb := ti.browser()
		_, page := nb.get(r.authURL(newFlow()))
		nb.submitLogin(ti.issuer, page, bob, "wrong password")
	}
	link := ti.link(userBob, store.TokenReset, PathPasswordReset, time.Hour)
	_, page = b.get(link)
	if resp, done := b.submitForm(ti.issuer+PathPasswordReset, page, "password", newPass, "confirm", newPass); resp.StatusCode != http.StatusOK {
		t.Fatalf("reset: %d\n%s", resp.StatusCode, done)
	}
	if e := ti.last(audit.PasswordReset); e.Actor.UserID != userBob || e.Activity != "Password Reset" {
		t.Errorf("password reset = %+v", e)
	}
	if e := ti.last(audit.AccountUnlocked); e.Reason != "password_reset" || e.Target.ID != userBob {
		t.Errorf("unlocked by the reset = %+v", e)
	}

	link = ti.invite("carol", "carol@a.example")
	nb := ti.browser()
	_, page = nb.get(link)
	if resp, _ := nb.submitForm(ti.issuer+PathInvitation, page, "password", newPass, "confirm", newPass); resp.StatusCode != http.StatusOK {
		t.Fatalf("invitation: %d", resp.StatusCode)
	}
	if e := ti.last(audit.InvitationAccepted); e.Actor.UserID != "carol" || e.Actor.Email != "carol@a.example" || e.Activity != "Enable" {
		t.Errorf("invitation accepted = %+v", e)
	}
	if e := ti.last(audit.SignIn); e.Actor.UserID != "carol" || e.Details.Method != "link" || e.Outcome != "success" {
		t.Errorf("the invitation's sign-in = %+v", e)
	}

	ab := ti.signedIn()
	_, page = ab.get(ti.issuer + PathAccount)
	ab.submitForm(ti.issuer+PathAccountEmail, page, "email", "alice.new@a.example", "current", goodPass)
	msgs := ti.mails("alice.new@a.example")
	if len(msgs) != 1 {
		t.Fatalf("confirmation mails: %d", len(msgs))
	}
	_, confirm := ab.get(linkOf(t, msgs[0]))
	if resp, _ := ab.submitForm(ti.issuer+PathVerifyEmail, confirm); resp.StatusCode != http.StatusOK {
		t.Fatalf("confirm the address: %d", resp.StatusCode)
	}
	if e := ti.last(audit.EmailChanged); e.Actor.UserID != userAlice || e.Actor.Email != "alice.new@a.example" {
		t.Errorf("address changed = %+v", e)
	}
}

// Tokens: each new grant's first tokens (a code's, a service's client
// credentials), not its refreshes; a refresh token or a code presented
// again revokes the grant and is recorded as reuse.
//
// spec: D-audit-trail
func TestAuditTokenEvents(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp(gooidc.ScopeOpenID, "email", gooidc.ScopeOfflineAccess)
	tok, _ := ti.loginTokens(r, alice)
	refresh := func(rt string) (*oauth2.Token, error) {
		return r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: rt}).Token()
	}
	next, err := refresh(tok.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ti.events(audit.TokenIssued, everyone)); n != 1 {
		t.Fatalf("%d token.issued events after a sign-in and a refresh, want 1 (refreshes are not recorded)", n)
	}
	if _, err := refresh(tok.RefreshToken); oauthErrorCode(err) != "invalid_grant" {
		t.Fatalf("reuse: %v", err)
	}
	reuse := ti.last(audit.TokenReuseDetected)
	if reuse.Outcome != "failure" || reuse.Details.Token != "refresh_token" || reuse.Actor.UserID != userAlice ||
		reuse.Target.ID != appClientID || reuse.Details.GrantID != ti.last(audit.TokenIssued).Details.GrantID {
		t.Errorf("refresh reuse = %+v", reuse)
	}
	if _, err := refresh(next.RefreshToken); err == nil {
		t.Fatal("the family survived")
	}
	if n := len(ti.events(audit.TokenReuseDetected, everyone)); n != 1 {
		t.Errorf("a token of an ended grant recorded as reuse too: %d events", n)
	}

	f := newFlow()
	code := ti.login(ti.browser(), r, f, alice, goodPass)
	if _, err := r.exchange(f, code); err != nil {
		t.Fatal(err)
	}
	if _, err := r.exchange(f, code); oauthErrorCode(err) != "invalid_grant" {
		t.Fatalf("code replay: %v", err)
	}
	if e := ti.last(audit.TokenReuseDetected); e.Details.Token != "authorization_code" || e.Actor.UserID != userAlice {
		t.Errorf("code replay = %+v", e)
	}

	ti.mustServiceApp()
	if code, _ := ti.tokenPost(t, url.Values{"grant_type": {"client_credentials"}}, serviceClientID, serviceSecret); code != http.StatusOK {
		t.Fatalf("client credentials: %d", code)
	}
	e := ti.last(audit.TokenIssued)
	if e.Details.GrantType != "client_credentials" || e.Target != (audit.Target{Type: "application", ID: serviceClientID, Name: "Resource server"}) ||
		e.Actor.UserID != serviceClientID || e.CustomerID != nil {
		t.Errorf("client credentials = %+v", e)
	}
}
