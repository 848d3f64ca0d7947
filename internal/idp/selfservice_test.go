package idp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// signedIn is a browser signed in as alice at the provider.
func (ti *testIDP) signedIn() *browser {
	ti.t.Helper()
	b := ti.browser()
	ti.login(b, ti.rp(), newFlow(), alice, goodPass)
	return b
}

// The account page lists where the user is signed in; changing the
// password needs the current one and the policy, then ends every other
// session while this browser stays signed in.
func TestAccountPageChangePassword(t *testing.T) {
	ti := mustIDP(t)
	b, other := ti.signedIn(), ti.signedIn()
	resp, page := b.get(ti.issuer + PathAccount)
	if resp.StatusCode != 200 || !strings.Contains(page, alice) || !strings.Contains(page, "Organization "+orgA) ||
		strings.Count(page, "<li>") < 3 || !strings.Contains(page, "This browser") || !strings.Contains(page, "Another browser") {
		t.Fatalf("account page %d:\n%s", resp.StatusCode, page)
	}
	resp, again := b.submitForm(ti.issuer+PathAccountPassword, page, "current", "wrong", "password", newPass, "confirm", newPass)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(again, msgCurrentPasswordBad) {
		t.Fatalf("wrong current password: %d", resp.StatusCode)
	}
	resp, again = b.submitForm(ti.issuer+PathAccountPassword, again, "current", goodPass, "password", "short", "confirm", "short")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(again, "at least 12 characters") {
		t.Fatalf("short password: %d\n%s", resp.StatusCode, again)
	}
	resp, done := b.submitForm(ti.issuer+PathAccountPassword, again, "current", goodPass, "password", newPass, "confirm", newPass)
	if resp.StatusCode != 200 || !strings.Contains(done, "Your password was changed") {
		t.Fatalf("change: %d\n%s", resp.StatusCode, done)
	}
	if strings.Contains(done, "Another browser") {
		t.Fatal("the other session survived the change")
	}
	if resp, body := other.get(ti.issuer + PathAccount); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Sign in first") {
		t.Fatalf("the other browser after the change: %d", resp.StatusCode)
	}
	ti.login(ti.browser(), ti.rp(), newFlow(), alice, newPass)
}

// "Sign out everywhere else" ends the other browsers' sessions only.
func TestAccountPageEndOtherSessions(t *testing.T) {
	ti := mustIDP(t)
	b, other := ti.signedIn(), ti.signedIn()
	_, page := b.get(ti.issuer + PathAccount)
	resp, done := b.submitForm(ti.issuer+PathAccountEndOthers, page)
	if resp.StatusCode != 200 || !strings.Contains(done, "signed out everywhere else") || strings.Contains(done, "Another browser") {
		t.Fatalf("end others: %d\n%s", resp.StatusCode, done)
	}
	if resp, _ := other.get(ti.issuer + PathAccount); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the other browser: %d", resp.StatusCode)
	}
	if resp, _ := b.get(ti.issuer + PathAccount); resp.StatusCode != 200 {
		t.Fatalf("this browser: %d", resp.StatusCode)
	}
}

// New recovery codes are shown once, with a copy box and a download link;
// the old ones stop working.
func TestAccountPageRecoveryCodes(t *testing.T) {
	ti := mustIDP(t)
	ctx := context.Background()
	b := ti.signedIn()
	_, old := ti.enrolTOTP(b)
	_, page := b.get(ti.issuer + PathAccount)
	resp, codes := b.submitForm(ti.issuer+PathAccountRecovery, page)
	if resp.StatusCode != 200 || !strings.Contains(codes, "Your new recovery codes") || !strings.Contains(codes, `download="recovery-codes.txt"`) ||
		!strings.Contains(codes, `href="data:text/plain;charset=utf-8,`) || !strings.Contains(codes, "<textarea") {
		t.Fatalf("codes page %d:\n%s", resp.StatusCode, codes)
	}
	if err := ti.p.factors.useRecoveryCode(ctx, userAlice, old[0]); err == nil {
		t.Fatal("an old recovery code still works")
	}
	// a new authenticator, within the sign-in's proof (D-reauth): the
	// enrolment page with a new key
	_, page = b.get(ti.issuer + PathAccount)
	resp, setup := b.submitForm(ti.issuer+PathAccountMFAReset, page)
	if resp.StatusCode != 200 || !secretField.MatchString(setup) {
		t.Fatalf("reset: %d\n%s", resp.StatusCode, setup)
	}
	if f, err := ti.st.TOTP(ctx, userAlice); err != nil || f.Confirmed {
		t.Fatalf("after reset: %+v %v", f, err)
	}
}

// Forms of the account page posted without the page's CSRF token (another
// site's form riding on the session cookie, or a token without its cookie)
// change nothing.
// attack: account-page-csrf
func TestAttackAccountPageCSRF(t *testing.T) {
	ti := mustIDP(t)
	victim, other := ti.signedIn(), ti.signedIn()
	_, page := victim.get(ti.issuer + PathAccount)
	token := csrfValue.FindString(page)
	token = strings.TrimSuffix(strings.TrimPrefix(token, `name="csrf" value="`), `"`)
	for _, tc := range []struct {
		name string
		form url.Values
		b    *browser
	}{
		{"no token", url.Values{"current": {goodPass}, "password": {newPass}, "confirm": {newPass}}, victim},
		{"wrong token", url.Values{"csrf": {"forged"}, "current": {goodPass}, "password": {newPass}, "confirm": {newPass}}, victim},
		{"token without its cookie", url.Values{"csrf": {token}, "current": {goodPass}, "password": {newPass}, "confirm": {newPass}}, other},
	} {
		for _, path := range []string{PathAccountPassword, PathAccountEndOthers, PathAccountRecovery, PathAccountMFAReset} {
			if resp, _ := tc.b.post(ti.issuer+path, tc.form); resp.StatusCode != http.StatusForbidden {
				t.Fatalf("%s to %s: %d", tc.name, path, resp.StatusCode)
			}
		}
	}
	u, _ := ti.st.User(context.Background(), userAlice)
	if ok, _ := VerifyPassword(goodPass, u.PasswordHash); !ok {
		t.Fatal("the password changed")
	}
	if sessions, _ := ti.st.UserSessions(context.Background(), userAlice, time.Now()); len(sessions) != 2 {
		t.Fatalf("%d sessions left, want 2", len(sessions))
	}
}
