package idp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// putPolicy stores an organization's policy, changed by change from the
// default.
func (ti *testIDP) putPolicy(org string, change func(*platform.LoginPolicy)) {
	ti.t.Helper()
	p := platform.DefaultLoginPolicy(org)
	change(p)
	p.UpdatedAt = time.Now()
	if err := p.Validate(0); err != nil {
		ti.t.Fatal(err)
	}
	if err := ti.st.PutLoginPolicy(context.Background(), p); err != nil {
		ti.t.Fatal(err)
	}
}

func (ti *testIDP) refreshes(r *rp, refresh string) bool {
	_, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: refresh}).Token()
	return err == nil
}

// An organization whose MFA requirement only a passkey satisfies
// (D-org-policy): a user with an authenticator app is not offered it (403
// page, a failed second step recorded), a code posted to an open second
// step is refused, and a session and a refresh token made with password
// and code before the change satisfy nothing.
//
// spec: D-org-policy
func TestOrgPolicyMFAByPasskeyOnlyRefusesTOTP(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp("openid", "offline_access")
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	secret, _ := ti.enrolTOTP(b)

	f := newFlow()
	_, otpPage := ti.passwordStep(b, r, f, alice)
	resp, _ := b.submit(ti.issuer, otpPage, PathLoginOTP, url.Values{"code": {ti.code(secret)}})
	tok, err := r.exchange(f, callback(t, resp).Get("code"))
	if err != nil || tok.RefreshToken == "" {
		t.Fatalf("login with a code: %v", err)
	}
	ti.clock.offset += 31 * time.Second
	_, openStep := ti.passwordStep(ti.browser(), r, newFlow(), alice) // a second step open when the policy changes
	c := ti.browser()
	_, openStep = ti.passwordStep(c, r, newFlow(), alice)

	ti.putPolicy(orgA, func(p *platform.LoginPolicy) {
		p.MFAForced, p.PasskeyAllowed, p.MFAByTOTP, p.MFABySSO = true, true, false, false
	})
	resp, page := ti.passwordStep(ti.browser(), r, newFlow(), alice)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, "another kind of second step") ||
		strings.Contains(page, `autocomplete="one-time-code"`) {
		t.Fatalf("password step under passkey-only MFA: %d\n%.400s", resp.StatusCode, page)
	}
	resp, page = c.submit(ti.issuer, openStep, PathLoginOTP, url.Values{"code": {ti.code(secret)}})
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a code posted to the open second step: %d\n%.300s", resp.StatusCode, page)
	}
	resp, _ = b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
	if q := callback(t, resp); q.Get("error") != "login_required" {
		t.Fatalf("a password-and-code session answered prompt=none: %v", q)
	}
	if ti.refreshes(r, tok.RefreshToken) {
		t.Fatal("a refresh token of a password-and-code sign-in was refreshed")
	}
	var failed int
	if err := ti.st.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE kind = 'sign_in'
		AND reason = 'second_factor_not_accepted'`).Scan(&failed); err != nil || failed < 2 {
		t.Fatalf("refused second steps recorded: %d (%v)", failed, err)
	}
}

// A short absolute session lifetime ends the session (recorded as
// session.ended, policy_lifetime), also one that began before the policy
// said so, and stops its refresh tokens once it has passed; an idle lifetime counts from the last use, so
// a session used in time lives on and one left alone ends (D-org-policy).
//
// spec: D-org-policy
func TestOrgPolicySessionLifetimes(t *testing.T) {
	t.Parallel()
	t.Run("Absolute", func(t *testing.T) {
		t.Parallel()
		ti := mustIDP(t)
		r := ti.rp("openid", "offline_access")
		b := ti.browser()
		f := newFlow()
		tok, err := r.exchange(f, ti.login(b, r, f, bob, goodPass))
		if err != nil {
			t.Fatal(err)
		}
		// the policy shortens the lifetime of a session that began under the platform's
		ti.putPolicy(orgB, func(p *platform.LoginPolicy) { p.SessionMaxSeconds = 600 })
		ti.clock.offset += 5 * time.Minute
		resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
		if q := callback(t, resp); q.Get("code") == "" {
			t.Fatalf("within the lifetime: %v", q)
		}
		ti.clock.offset += 6 * time.Minute
		resp, _ = b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
		if q := callback(t, resp); q.Get("error") != "login_required" {
			t.Fatalf("past the lifetime: %v", q)
		}
		if ti.refreshes(r, tok.RefreshToken) {
			t.Fatal("a refresh token outlived the session lifetime")
		}
		var ended int
		if err := ti.st.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE kind = 'session.ended'
			AND reason = 'policy_lifetime'`).Scan(&ended); err != nil || ended != 1 {
			t.Fatalf("session.ended events: %d (%v)", ended, err)
		}
	})
	t.Run("Idle", func(t *testing.T) {
		t.Parallel()
		ti := mustIDP(t)
		ti.putPolicy(orgB, func(p *platform.LoginPolicy) { p.SessionIdleSeconds, p.SessionMaxSeconds = 300, 3600 })
		r := ti.rp()
		b := ti.browser()
		ti.login(b, r, newFlow(), bob, goodPass)
		for i := 0; i < 3; i++ { // used every four minutes: lives on past the idle lifetime
			ti.clock.offset += 4 * time.Minute
			resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
			if q := callback(t, resp); q.Get("code") == "" {
				t.Fatalf("use %d within the idle lifetime: %v", i+1, q)
			}
		}
		ti.clock.offset += 6 * time.Minute
		resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
		if q := callback(t, resp); q.Get("error") != "login_required" {
			t.Fatalf("idle past the lifetime: %v", q)
		}
	})
}

// The organization's minimum password length applies where a password is
// set: a password longer than the platform's minimum but shorter than the
// organization's is refused on the account page (D-org-policy).
//
// spec: D-org-policy
func TestOrgPolicyPasswordMinLength(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.putPolicy(orgA, func(p *platform.LoginPolicy) { p.PasswordMinLength = 24 })
	b := ti.signedIn()
	_, page := b.get(ti.issuer + PathAccount)
	const twenty = "quiet-orbit-lantern7" // 20 characters: enough for the platform, not for the organization
	resp, again := b.submitForm(ti.issuer+PathAccountPassword, page, "current", goodPass, "password", twenty, "confirm", twenty)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(again, "at least 24 characters") {
		t.Fatalf("a 20-character password under a 24-character minimum: %d", resp.StatusCode)
	}
	const long = "quiet-orbit-lantern-seventy7"
	if resp, _ := b.submitForm(ti.issuer+PathAccountPassword, again, "current", goodPass, "password", long, "confirm", long); resp.StatusCode != http.StatusOK {
		t.Fatalf("a long enough password: %d", resp.StatusCode)
	}
}
