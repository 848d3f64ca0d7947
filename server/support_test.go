package main

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/testkit"
)

// The support tools end to end (D-support-tools): the console API acts,
// the identity provider, the tenant backend and the mail server show it.

// withSMTP runs the platform with a real SMTP server as its mail server.
func withSMTP(t *testing.T) (*Main, *mailtest.Server) {
	t.Helper()
	smtp := mailtest.Start(t)
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.SMTPURL, m.Config.MailFrom = smtp.URL(), "Platform <no-reply@platform.test>"
		m.MailSender = smtp.Sender()
	})
	return m, smtp
}

// A Globex user (two-step verification forced) with an authenticator app
// is asked for its code after the password; platform_admin resets the
// second factor through the console API; the user gets the message over
// SMTP, and the next sign-in sets up a new authenticator instead.
//
// spec: D-support-tools
func TestSecondFactorResetEnrolsAtNextSignIn(t *testing.T) {
	t.Parallel()
	m, smtp := withSMTP(t)
	ctx := context.Background()
	const id, email = "5e0f0a11-0000-4000-8000-000000000001", "gus@globex.example"
	mustConsoleUser(t, m, id, DemoGlobexOrgID, email, "Gus", "member", DemoGlobexCustomerID)
	if err := m.Store.PutTOTP(ctx, &store.TOTPFactor{UserID: id, SecretSealed: []byte("sealed"), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ok, err := m.Store.UseTOTPStep(ctx, id, 1); err != nil || !ok {
		t.Fatal(ok, err)
	}
	redirect := m.Config.ConsoleURL + "/callback"
	if coded, page := passwordStep(t, m, m.Config.ConsoleClientID, redirect, email); coded || !strings.Contains(page, `id="recovery-code"`) ||
		strings.Contains(page, `id="totp-secret"`) {
		t.Fatalf("before the reset the sign-in does not ask for the code (code %v):\n%s", coded, page)
	}
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, redirect, "admin@platform.example")
	code, body := adminCall(t, m, admin.AccessToken, http.MethodPost, "/users/"+id+"/reset-second-factor", nil)
	if code != http.StatusOK || body["authenticatorApp"] != false {
		t.Fatalf("reset = %d %v", code, body)
	}
	if st, err := m.Mail.RunOnce(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("delivery: %+v %v", st, err)
	}
	got := smtp.To(email)
	if len(got) != 1 || got[0].Subject != "The second factor of your Globex Engineering account was reset" ||
		got[0].Link() != m.Config.IssuerURL+idp.PathAccount {
		t.Fatalf("messages: %+v", got)
	}
	if coded, page := passwordStep(t, m, m.Config.ConsoleClientID, redirect, email); coded || !strings.Contains(page, `id="totp-secret"`) {
		t.Fatalf("after the reset the sign-in does not set up a new authenticator (code %v):\n%s", coded, page)
	}
}

// A customer's owner lists a user's browser sessions (the browser and the
// address they were signed in from) and signs the user out of one: the
// tenant web app of that browser is signed out with the grant the session
// made, the other browser's stays; signing out everywhere ends that one too.
//
// spec: D-support-tools
func TestSignOutFromTheConsoleEndsTheTenantApp(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	const bobID = "2b7e4d10-0000-4000-8000-000000000003"
	jar1, _ := cookiejar.New(nil)
	jar2, _ := cookiejar.New(nil)
	app1, sid1 := tenantSignIn(t, m, jar1, "bob@acme.example")
	app2, sid2 := tenantSignIn(t, m, jar2, "bob@acme.example")
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	code, page := adminCall(t, m, owner.AccessToken, http.MethodGet, "/users/"+bobID+"/sessions", nil)
	items, _ := page["items"].([]any)
	if code != http.StatusOK || len(items) != 2 {
		t.Fatalf("sessions = %d %v", code, page)
	}
	for _, it := range items {
		s := it.(map[string]any)
		if (s["id"] != sid1 && s["id"] != sid2) || s["address"] != "127.0.0.1" || !strings.HasPrefix(s["userAgent"].(string), "Go-http-client") {
			t.Errorf("session %v", s)
		}
	}
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodDelete, "/users/"+bobID+"/sessions/"+sid1, nil); code != http.StatusNoContent {
		t.Fatalf("sign out of one = %d %v", code, body)
	}
	testkit.Eventually(t, "the tenant session of the browser signed out ended", func() bool { return !tenantSignedIn(t, m, app1) })
	if !tenantSignedIn(t, m, app2) {
		t.Fatal("signing the user out of one browser ended the other's tenant session")
	}
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodDelete, "/users/"+bobID+"/sessions", nil); code != http.StatusNoContent {
		t.Fatalf("sign out everywhere = %d %v", code, body)
	}
	if tenantSignedIn(t, m, app2) {
		t.Fatal("the other browser's tenant session outlived signing out everywhere")
	}
	if _, page := adminCall(t, m, owner.AccessToken, http.MethodGet, "/users/"+bobID+"/sessions", nil); len(page["items"].([]any)) != 0 {
		t.Fatalf("sessions after signing out everywhere: %v", page)
	}
}

// An invitation link that was replaced by a resend, or whose invitation
// was revoked, opens nothing and sets no password, also when its form was
// opened before the revocation and is posted after it; the revoked account
// is gone, and inviting the address again works with the new link only.
//
// attack: revoked-invitation-link
func TestAttackRevokedOrReplacedInvitationLink(t *testing.T) {
	t.Parallel()
	m, smtp := withSMTP(t)
	ctx := context.Background()
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	const who, password = "vera@acme.example", "correct staple battery horse"
	invite := func() string {
		t.Helper()
		code, user := adminCall(t, m, owner.AccessToken, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/users",
			map[string]any{"email": who, "name": "Vera"})
		if code != http.StatusCreated || user["status"] != "invited" {
			t.Fatalf("invite = %d %v", code, user)
		}
		return user["id"].(string)
	}
	links := func() []string {
		t.Helper()
		if _, err := m.Mail.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, msg := range smtp.To(who) {
			out = append(out, msg.Link())
		}
		return out
	}
	id := invite()
	links() // delivered before the resend, so the messages arrive in order
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/users/"+id+"/resend-invitation", nil); code != http.StatusOK {
		t.Fatalf("resend = %d", code)
	}
	sent := links()
	if len(sent) != 2 {
		t.Fatalf("%d messages", len(sent))
	}
	replaced, current := sent[0], sent[1]
	b := newPage(t)
	if code := b.get(replaced); code != http.StatusNotFound {
		t.Fatalf("the replaced link = %d", code)
	}
	// the current link's form, opened before the revocation
	if code := b.get(current); code != http.StatusOK {
		t.Fatalf("the current link = %d\n%s", code, b.body)
	}
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodPost, "/users/"+id+"/revoke-invitation", nil); code != http.StatusNoContent {
		t.Fatalf("revoke = %d", code)
	}
	if code := b.submit(m.Config.IssuerURL+idp.PathInvitation, "password", password, "confirm", password); code != http.StatusNotFound ||
		strings.Contains(b.body, "You are signed in") {
		t.Fatalf("the kept form after the revocation = %d\n%s", code, b.body)
	}
	for _, l := range []string{replaced, current} {
		if code := newPage(t).get(l); code != http.StatusNotFound {
			t.Fatalf("%s after the revocation = %d", l, code)
		}
	}
	if code, _ := adminCall(t, m, owner.AccessToken, http.MethodGet, "/users/"+id, nil); code != http.StatusNotFound {
		t.Fatalf("the revoked account = %d", code)
	}
	if tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", who) {
		t.Fatal("the revoked address signs in")
	}
	// invited again: only the new link works
	invite()
	sent = links()
	fresh := sent[len(sent)-1]
	for _, l := range []string{replaced, current} {
		if code := newPage(t).get(l); code != http.StatusNotFound {
			t.Fatalf("an old link for the new invitation = %d", code)
		}
	}
	b = newPage(t)
	if code := b.get(fresh); code != http.StatusOK {
		t.Fatalf("the new link = %d", code)
	}
	if code := b.submit(m.Config.IssuerURL+idp.PathInvitation, "password", password, "confirm", password); code != http.StatusOK ||
		!strings.Contains(b.body, "You are signed in") {
		t.Fatalf("the new link's form = %d\n%s", code, b.body)
	}
}
