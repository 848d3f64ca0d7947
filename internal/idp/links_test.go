package idp

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

const newPass = "a much longer new passphrase"

// invite makes a user of orgA without a password and its invitation link,
// as the console does.
func (ti *testIDP) invite(id, email string) string {
	ti.t.Helper()
	ctx, now := context.Background(), time.Now().UTC()
	if err := ti.st.CreateUser(ctx, &platform.User{ID: id, OrgID: orgA, Email: email, Name: "Invited", CreatedAt: now,
		UpdatedAt: now}); err != nil {
		ti.t.Fatal(err)
	}
	return ti.link(id, store.TokenInvitation, mail.PathInvitation, mail.InvitationLifetime)
}

// link stores a link of kind for a user and returns its URL.
func (ti *testIDP) link(userID, kind, path string, ttl time.Duration) string {
	ti.t.Helper()
	token, hash := mail.NewToken()
	now := ti.p.now()
	if err := ti.st.CreateAccountToken(context.Background(), &store.AccountToken{Hash: hash, Kind: kind, UserID: userID,
		CreatedAt: now, ExpiresAt: now.Add(ttl)}, false); err != nil {
		ti.t.Fatal(err)
	}
	return mail.Link(ti.issuer, path, token)
}

// mails returns the outbox's messages to an address, opened.
func (ti *testIDP) mails(to string) []mail.Body {
	ti.t.Helper()
	ti.p.WaitBackground()
	box, err := ti.st.Mailbox(context.Background(), 100)
	if err != nil {
		ti.t.Fatal(err)
	}
	var out []mail.Body
	for i := range box {
		if box[i].Recipient != to {
			continue
		}
		b, err := mail.Open(ti.p.sealer, &box[i])
		if err != nil {
			ti.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

var mailLink = regexp.MustCompile(`https?://\S+`)

func linkOf(t testing.TB, b mail.Body) string {
	t.Helper()
	l := mailLink.FindString(b.Text)
	if l == "" {
		t.Fatalf("no link in %q", b.Text)
	}
	return l
}

// An invitation link opens the set-password page (organization named,
// address read-only, policy shown); a password that breaks the policy or
// is not repeated is refused without spending the link; the right one sets
// the password and signs the user in, so the next login needs no password.
func TestInvitationSetsPasswordAndSignsIn(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	link := ti.invite("carol", "carol@a.example")
	b := ti.browser()
	resp, page := b.get(link)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Organization "+orgA) ||
		!strings.Contains(page, `value="carol@a.example" readonly`) || !strings.Contains(page, "At least 12 characters") {
		t.Fatalf("set-password page %d:\n%s", resp.StatusCode, page)
	}
	resp, again := b.submitForm(ti.issuer+PathInvitation, page, "password", newPass, "confirm", newPass+"x")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(again, "not the same") {
		t.Fatalf("mismatch: %d\n%s", resp.StatusCode, again)
	}
	resp, again = b.submitForm(ti.issuer+PathInvitation, again, "password", "short", "confirm", "short")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(again, "at least 12 characters") {
		t.Fatalf("short password: %d\n%s", resp.StatusCode, again)
	}
	resp, done := b.submitForm(ti.issuer+PathInvitation, again, "password", newPass, "confirm", newPass)
	if resp.StatusCode != http.StatusOK || !strings.Contains(done, "You are signed in") {
		t.Fatalf("set password: %d\n%s", resp.StatusCode, done)
	}
	u, _ := ti.st.User(context.Background(), "carol")
	if ok, _ := VerifyPassword(newPass, u.PasswordHash); !ok || !u.EmailVerified {
		t.Fatalf("password not set or address not verified: %+v", u)
	}
	// signed in: the browser's session answers the next authorization
	r := ti.rp()
	f := newFlow()
	resp, _ = b.get(r.authURL(f))
	if q := callback(t, resp); q.Get("code") == "" {
		t.Fatalf("no code from the session: %v", q)
	}
	// and the new password signs in from another browser
	if code := ti.login(ti.browser(), r, newFlow(), "carol@a.example", newPass); code == "" {
		t.Fatal("no code")
	}
}

// An invitation link works once: opening or submitting it again is refused
// with the styled page, and the password stays the one first set.
// attack: invitation-link-reuse
func TestAttackInvitationLinkReuse(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	link := ti.invite("carol", "carol@a.example")
	b := ti.browser()
	_, page := b.get(link)
	if resp, _ := b.submitForm(ti.issuer+PathInvitation, page, "password", newPass, "confirm", newPass); resp.StatusCode != http.StatusOK {
		t.Fatalf("first use: %d", resp.StatusCode)
	}
	other := ti.browser()
	resp, body := other.get(link)
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, msgLinkInvalid) || !strings.Contains(body, `class="card"`) {
		t.Fatalf("reopened link: %d\n%s", resp.StatusCode, body)
	}
	// the form kept from before the first submission is refused too
	resp, _ = b.submitForm(ti.issuer+PathInvitation, page, "password", "attacker chosen passphrase", "confirm", "attacker chosen passphrase")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("replayed form: %d", resp.StatusCode)
	}
	u, _ := ti.st.User(context.Background(), "carol")
	if ok, _ := VerifyPassword(newPass, u.PasswordHash); !ok {
		t.Fatal("the replay changed the password")
	}
}

// An invitation link expires after 7 days; a link of another kind, an
// unknown token and a resent (replaced) link are refused alike.
// attack: invitation-link-expiry
func TestAttackInvitationLinkExpired(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	link := ti.invite("carol", "carol@a.example")
	ti.clock.offset = mail.InvitationLifetime + time.Minute
	b := ti.browser()
	if resp, body := b.get(link); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, msgLinkInvalid) {
		t.Fatalf("expired link: %d", resp.StatusCode)
	}
	ti.clock.offset = 0
	// a reset link is not an invitation link
	reset := ti.link("carol", store.TokenReset, mail.PathPasswordReset, time.Hour)
	token := reset[strings.Index(reset, "token=")+len("token="):]
	if resp, _ := b.get(ti.issuer + PathInvitation + "?token=" + token); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("reset token on the invitation page: %d", resp.StatusCode)
	}
	if resp, _ := b.get(ti.issuer + PathInvitation + "?token=" + strings.Repeat("A", 43)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown token: %d", resp.StatusCode)
	}
	// resending replaces the link: the older one stops working
	newer := ti.link("carol", store.TokenInvitation, mail.PathInvitation, mail.InvitationLifetime)
	if err := ti.st.DeleteAccountTokens(context.Background(), "carol", store.TokenInvitation); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, newer} {
		if resp, _ := b.get(l); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("revoked link %s: %d", l, resp.StatusCode)
		}
	}
}

// A link sets the password of the user it was made for, whatever the form
// says: the address field is read-only and ignored, so another user's
// account cannot be taken over with one's own invitation.
// attack: invitation-link-other-user
func TestAttackInvitationLinkOtherUser(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	link := ti.invite("carol", "carol@a.example")
	b := ti.browser()
	_, page := b.get(link)
	resp, _ := b.submitForm(ti.issuer+PathInvitation, page, "email", alice, "userID", userAlice, "password", newPass, "confirm", newPass)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("submit: %d", resp.StatusCode)
	}
	a, _ := ti.st.User(context.Background(), userAlice)
	if ok, _ := VerifyPassword(goodPass, a.PasswordHash); !ok {
		t.Fatal("alice's password changed")
	}
	c, _ := ti.st.User(context.Background(), "carol")
	if ok, _ := VerifyPassword(newPass, c.PasswordHash); !ok {
		t.Fatal("carol's password not set")
	}
}

// Forgot password answers the same page for a known and an unknown
// address, and only the known one gets a message; past the limit per
// address no more messages are sent, with the same answer.
// attack: forgot-password-enumeration
func TestAttackForgotPasswordEnumeration(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ask := func(email string) (int, string) {
		b := ti.browser()
		_, page := b.get(ti.issuer + PathPasswordForgot)
		resp, body := b.submitForm(ti.issuer+PathPasswordForgot, page, "email", email)
		ti.p.WaitBackground()
		return resp.StatusCode, csrfValue.ReplaceAllString(body, "")
	}
	knownStatus, known := ask(alice)
	unknownStatus, unknown := ask("nobody@a.example")
	if knownStatus != http.StatusOK || knownStatus != unknownStatus || known != unknown {
		t.Fatalf("answers differ: %d vs %d\n%s\n---\n%s", knownStatus, unknownStatus, known, unknown)
	}
	if !strings.Contains(known, "If an account exists for this address") {
		t.Fatalf("answer: %s", known)
	}
	if n := len(ti.mails(alice)); n != 1 {
		t.Fatalf("%d messages to the known address", n)
	}
	if n := len(ti.mails("nobody@a.example")); n != 0 {
		t.Fatalf("%d messages to the unknown address", n)
	}
	// the limit per address: three an hour, then the same answer and no message
	for range 3 {
		if status, body := ask(alice); status != knownStatus || body != known {
			t.Fatalf("answer past the limit differs: %d", status)
		}
	}
	if n := len(ti.mails(alice)); n != forgotLimit {
		t.Fatalf("%d messages after 4 requests, want %d", n, forgotLimit)
	}
}

var csrfValue = regexp.MustCompile(`name="csrf" value="[^"]*"`)

// A reset link sets a new password once, ends every session and refresh
// token the user had, and is refused when used again.
// attack: reset-link-reuse
func TestAttackResetLinkReuseAndSessionsEnd(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp("openid", "email", "offline_access")
	tok, _ := ti.loginTokens(r, alice)
	if tok.RefreshToken == "" {
		t.Fatal("no refresh token")
	}
	signedIn := ti.browser()
	ti.login(signedIn, r, newFlow(), alice, goodPass)

	b := ti.browser()
	_, page := b.get(ti.issuer + PathPasswordForgot)
	b.submitForm(ti.issuer+PathPasswordForgot, page, "email", alice)
	msgs := ti.mails(alice)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Subject, "Reset your password for Organization "+orgA) {
		t.Fatalf("messages: %+v", msgs)
	}
	link := linkOf(t, msgs[0])
	_, form := b.get(link)
	resp, done := b.submitForm(ti.issuer+PathPasswordReset, form, "password", newPass, "confirm", newPass)
	if resp.StatusCode != http.StatusOK || !strings.Contains(done, "signed out everywhere") {
		t.Fatalf("reset: %d\n%s", resp.StatusCode, done)
	}
	// the refresh token and the browser session are gone
	if _, err := r.cfg.TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("the refresh token still works after the reset")
	}
	f := newFlow()
	resp, body := signedIn.get(r.authURL(f))
	if !strings.Contains(body, `type="password"`) {
		t.Fatalf("the old browser session still signs in: %d", resp.StatusCode)
	}
	// used once
	if resp, _ := b.submitForm(ti.issuer+PathPasswordReset, form, "password", "another long passphrase", "confirm",
		"another long passphrase"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("reused reset link: %d", resp.StatusCode)
	}
	ti.login(ti.browser(), r, newFlow(), alice, newPass)
}

// A reset link expires after an hour.
func TestResetLinkExpires(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	link := ti.link(userAlice, store.TokenReset, mail.PathPasswordReset, mail.ResetLifetime)
	ti.clock.offset = mail.ResetLifetime + time.Second
	if resp, _ := ti.browser().get(link); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("expired reset link: %d", resp.StatusCode)
	}
}

// Accounts without a password (an open or revoked invitation) and
// suspended accounts get no reset link.
func TestForgotPasswordSkipsInvitedAndSuspended(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.invite("carol", "carol@a.example")
	if err := ti.st.SetUserSuspended(context.Background(), userBob, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"carol@a.example", bob} {
		b := ti.browser()
		_, page := b.get(ti.issuer + PathPasswordForgot)
		b.submitForm(ti.issuer+PathPasswordForgot, page, "email", email)
		if n := len(ti.mails(email)); n != 0 {
			t.Fatalf("%s got %d messages", email, n)
		}
	}
}

// After the lockout's number of failures the page says that too many
// attempts were made and that instructions were sent if the address has an
// account, for a known and an unknown address alike; the holder of the
// locked account gets an unlock link, which sets a new password and lifts
// the lock. The whole path runs through a real SMTP server.
// attack: lockout-message-enumeration
func TestAttackLockoutMessageAndUnlockMail(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	smtp := mailtest.Start(t)
	worker := &mail.Worker{Store: ti.st, Sealer: ti.p.sealer, Sender: smtp.Sender(), From: "no-reply@platform.test", Now: ti.p.now}
	r := ti.rp()
	last := map[string]string{}
	for _, email := range []string{alice, "nobody@a.example"} {
		b := ti.browser()
		_, page := b.get(r.authURL(newFlow()))
		for i := range 6 {
			_, page = b.submitLogin(ti.issuer, page, email, "wrong guess")
			if i < 4 && !strings.Contains(page, msgLoginFailed) {
				t.Fatalf("%s attempt %d: %s", email, i+1, page)
			}
		}
		last[email] = page
	}
	for email, page := range last {
		if !strings.Contains(page, msgTooMany) {
			t.Fatalf("%s after six failures:\n%s", email, page)
		}
	}
	ti.p.WaitBackground()
	if _, err := worker.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := smtp.To(alice)
	if len(got) != 1 || !strings.Contains(got[0].Subject, "locked") || len(smtp.To("nobody@a.example")) != 0 {
		t.Fatalf("messages: %+v", smtp.Messages())
	}
	// locked: the right password is refused
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow()))
	if resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("locked account signed in: %d", resp.StatusCode)
	}
	_, form := b.get(got[0].Link())
	if resp, body := b.submitForm(ti.issuer+PathPasswordReset, form, "password", newPass, "confirm", newPass); resp.StatusCode != http.StatusOK {
		t.Fatalf("unlock: %d\n%s", resp.StatusCode, body)
	}
	u, _ := ti.st.User(context.Background(), userAlice)
	if !u.LockedUntil.IsZero() || u.FailedLogins != 0 {
		t.Fatalf("still locked: %+v", u)
	}
	ti.login(ti.browser(), r, newFlow(), alice, newPass)
}
