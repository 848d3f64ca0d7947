package idp

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
)

// A new address is used only once the link sent to it is confirmed: until
// then the old address signs in and the new one does not; the link works
// once; an address another account of the organization took meanwhile is
// refused and the link stays unspent.
func TestEmailChangeNeedsVerification(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ctx := context.Background()
	b := ti.signedIn()
	const next = "alice.new@a.example"
	_, page := b.get(ti.issuer + PathAccount)
	resp, again := b.submitForm(ti.issuer+PathAccountEmail, page, "email", next, "current", "wrong")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong password: %d", resp.StatusCode)
	}
	resp, done := b.submitForm(ti.issuer+PathAccountEmail, again, "email", next, "current", goodPass)
	if resp.StatusCode != 200 || !strings.Contains(done, "confirmation link") {
		t.Fatalf("change: %d\n%s", resp.StatusCode, done)
	}
	if u, _ := ti.st.User(ctx, userAlice); u.Email != alice {
		t.Fatalf("address changed before verification: %s", u.Email)
	}
	r := ti.rp()
	nb := ti.browser()
	_, login := nb.get(r.authURL(newFlow()))
	if resp, _ := nb.submitLogin(ti.issuer, login, next, goodPass); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unverified address signed in: %d", resp.StatusCode)
	}
	msgs := ti.mails(next)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Subject, "Confirm your e-mail address") {
		t.Fatalf("messages: %+v", msgs)
	}
	link := linkOf(t, msgs[0])
	// taken meanwhile: refused, link unspent
	now := time.Now()
	if err := ti.st.CreateUser(ctx, &platform.User{ID: "squatter", OrgID: orgA, Email: next, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	_, confirm := b.get(link)
	if resp, _ := b.submitForm(ti.issuer+PathVerifyEmail, confirm); resp.StatusCode != http.StatusConflict {
		t.Fatalf("taken address: %d", resp.StatusCode)
	}
	if err := ti.st.DeleteUser(ctx, "squatter"); err != nil {
		t.Fatal(err)
	}
	resp, confirm = b.get(link)
	if resp.StatusCode != 200 || !strings.Contains(confirm, next) {
		t.Fatalf("confirm page: %d\n%s", resp.StatusCode, confirm)
	}
	if resp, body := b.submitForm(ti.issuer+PathVerifyEmail, confirm); resp.StatusCode != 200 || !strings.Contains(body, "is confirmed") {
		t.Fatalf("confirm: %d\n%s", resp.StatusCode, body)
	}
	if u, _ := ti.st.User(ctx, userAlice); u.Email != next || !u.EmailVerified {
		t.Fatalf("after confirming: %+v", u)
	}
	if resp, _ := b.submitForm(ti.issuer+PathVerifyEmail, confirm); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("link used twice: %d", resp.StatusCode)
	}
	ti.login(ti.browser(), r, newFlow(), next, goodPass)
}

// A reset link mailed to the old address stops working once a new address
// is confirmed: whoever still reads the old mailbox cannot take the account
// back with it.
// attack: reset-link-after-email-change
func TestAttackResetLinkAfterEmailChange(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	b := ti.signedIn()
	fb := ti.browser()
	_, forgot := fb.get(ti.issuer + PathPasswordForgot)
	fb.submitForm(ti.issuer+PathPasswordForgot, forgot, "email", alice)
	resets := ti.mails(alice)
	if len(resets) != 1 {
		t.Fatalf("reset messages: %+v", resets)
	}
	resetLink := linkOf(t, resets[0])

	const next = "alice.moved@a.example"
	_, page := b.get(ti.issuer + PathAccount)
	b.submitForm(ti.issuer+PathAccountEmail, page, "email", next, "current", goodPass)
	confirms := ti.mails(next)
	if len(confirms) != 1 {
		t.Fatalf("confirmation messages: %+v", confirms)
	}
	_, confirm := b.get(linkOf(t, confirms[0]))
	if resp, _ := b.submitForm(ti.issuer+PathVerifyEmail, confirm); resp.StatusCode != http.StatusOK {
		t.Fatalf("confirm: %d", resp.StatusCode)
	}
	if resp, _ := ti.browser().get(resetLink); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a reset link to the old address after the change: %d, want 404", resp.StatusCode)
	}
}
