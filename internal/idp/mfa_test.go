package idp

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/platform"
)

var (
	secretField   = regexp.MustCompile(`id="totp-secret">([A-Z2-7]+)<`)
	recoveryCodes = regexp.MustCompile(`<li><code>([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})</code></li>`)
)

// submit posts a form of page (its hidden fields plus extra) to path.
func (b *browser) submit(issuer, page, path string, extra url.Values) (*http.Response, string) {
	b.t.Helper()
	form := url.Values{}
	for _, m := range hiddenField.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], m[2])
	}
	for k, v := range extra {
		form[k] = v
	}
	return b.post(issuer+path, form)
}

func (ti *testIDP) code(secret string) string {
	c, err := totp.GenerateCode(secret, ti.clock.now())
	if err != nil {
		ti.t.Fatal(err)
	}
	return c
}

// enrolTOTP turns on TOTP for a signed-in browser through the account page
// and returns the secret and the recovery codes.
func (ti *testIDP) enrolTOTP(b *browser) (string, []string) {
	t := ti.t
	resp, page := b.get(ti.issuer + PathAccountMFA)
	m := secretField.FindStringSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(page, `src="data:image/png;base64,`) {
		t.Fatalf("enrolment page %d without a QR code and key:\n%s", resp.StatusCode, page)
	}
	secret := m[1]
	resp, wrong := b.submit(ti.issuer, page, PathAccountMFA, url.Values{"code": {"000000"}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(wrong, msgCodeFailed) || !strings.Contains(wrong, secret) {
		t.Fatalf("wrong first code: %d", resp.StatusCode)
	}
	resp, done := b.submit(ti.issuer, wrong, PathAccountMFA, url.Values{"code": {ti.code(secret)}})
	codes := recoveryCodes.FindAllStringSubmatch(done, -1)
	if resp.StatusCode != http.StatusOK || len(codes) != recoveryCodeCount {
		t.Fatalf("confirmation: %d with %d recovery codes", resp.StatusCode, len(codes))
	}
	var out []string
	for _, c := range codes {
		out = append(out, c[1])
	}
	ti.clock.offset += 31 * time.Second // the confirming code's step is spent
	return secret, out
}

// passwordStep runs authorize and the password form, returning the page that
// follows (the second-factor page when one is needed).
func (ti *testIDP) passwordStep(b *browser, r *rp, f flow, email string) (*http.Response, string) {
	_, page := b.get(r.authURL(f, oauth2.SetAuthURLParam("prompt", "login")))
	return b.submitLogin(ti.issuer, page, email, goodPass)
}

func (ti *testIDP) amr(r *rp, f flow, resp *http.Response) []string {
	ti.t.Helper()
	tok, err := r.exchange(f, callback(ti.t, resp).Get("code"))
	if err != nil {
		ti.t.Fatal(err)
	}
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		ti.t.Fatal(err)
	}
	var c idClaims
	_ = idt.Claims(&c)
	return c.AMR
}

// TOTP: enrolment with a QR code and key, confirmation by a first code, a
// login with a code (amr pwd otp mfa), a code that works once, a recovery code
// that works once.
func TestTOTP(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	secret, recovery := ti.enrolTOTP(b)

	f := newFlow()
	resp, otpPage := ti.passwordStep(b, r, f, alice)
	if resp.StatusCode != http.StatusOK || !strings.Contains(otpPage, `autocomplete="one-time-code"`) {
		t.Fatalf("password step did not ask for a code: %d", resp.StatusCode)
	}
	resp, wrong := b.submit(ti.issuer, otpPage, PathLoginOTP, url.Values{"code": {"123456"}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(wrong, msgCodeFailed) {
		t.Fatalf("wrong code: %d", resp.StatusCode)
	}
	good := ti.code(secret)
	resp, _ = b.submit(ti.issuer, wrong, PathLoginOTP, url.Values{"code": {good}})
	if amr := strings.Join(ti.amr(r, f, resp), " "); amr != "pwd otp mfa" {
		t.Fatalf("amr = %q, want pwd otp mfa", amr)
	}

	t.Run("CodeWorksOnce", func(t *testing.T) {
		f := newFlow()
		_, page := ti.passwordStep(ti.browser(), r, f, alice)
		b2 := ti.browser()
		_, page = ti.passwordStep(b2, r, f, alice)
		resp, body := b2.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {good}})
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgCodeFailed) {
			t.Fatalf("a spent code was accepted again: %d", resp.StatusCode)
		}
	})
	t.Run("RecoveryCodeWorksOnce", func(t *testing.T) {
		for i, want := range []int{http.StatusFound, http.StatusUnauthorized} {
			b := ti.browser()
			_, page := ti.passwordStep(b, r, newFlow(), alice)
			resp, _ := b.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {strings.ToUpper(recovery[0])}, "recovery": {"1"}})
			if resp.StatusCode != want {
				t.Fatalf("recovery code use %d answered %d, want %d", i+1, resp.StatusCode, want)
			}
		}
	})
}

// An organization that forces MFA: a password alone never finishes the
// login; the user enrols on the spot and then gets in.
func TestForcedMFA(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	policy := platform.DefaultLoginPolicy(orgB)
	policy.MFAForced, policy.UpdatedAt = true, time.Now()
	if err := ti.st.PutLoginPolicy(context.Background(), policy); err != nil {
		t.Fatal(err)
	}
	r := ti.rp()
	b := ti.browser()
	f := newFlow()
	resp, setup := ti.passwordStep(b, r, f, bob)
	m := secretField.FindStringSubmatch(setup)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("password-only login was not sent to enrolment: %d", resp.StatusCode)
	}
	// the transaction is not done: the op callback refuses it
	resp, _ = b.get(ti.issuer + PathAuthorize + "/callback?id=" + url.QueryEscape(extractField(setup, "authRequestID")))
	if q := callback(t, resp); q.Get("code") != "" || q.Get("error") == "" {
		t.Fatalf("the callback answered %v before the second factor", q)
	}
	resp, done := b.submit(ti.issuer, setup, PathLoginMFASetup, url.Values{"code": {ti.code(m[1])}})
	link := regexp.MustCompile(`href="([^"]+)">Continue`).FindStringSubmatch(done)
	if resp.StatusCode != http.StatusOK || link == nil || len(recoveryCodes.FindAllString(done, -1)) != recoveryCodeCount {
		t.Fatalf("enrolment: %d", resp.StatusCode)
	}
	resp, _ = b.get(strings.ReplaceAll(link[1], "&amp;", "&"))
	if !strings.HasPrefix(link[1], ti.issuer) {
		t.Fatalf("continue link %q is not absolute", link[1])
	}
	if amr := strings.Join(ti.amr(r, f, resp), " "); amr != "pwd otp mfa" {
		t.Fatalf("amr = %q", amr)
	}
	t.Run("SessionWithoutMFADoesNotSatisfy", func(t *testing.T) {
		// a session made by a password alone (before the policy) does not answer prompt=none
		policy.MFAForced = false
		_ = ti.st.PutLoginPolicy(context.Background(), policy)
		b := ti.browser()
		ti.login(b, r, newFlow(), alice, goodPass) // org A: no MFA
		policyA := platform.DefaultLoginPolicy(orgA)
		policyA.MFAForced, policyA.UpdatedAt = true, time.Now()
		_ = ti.st.PutLoginPolicy(context.Background(), policyA)
		resp, _ := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "none")))
		if q := callback(t, resp); q.Get("error") != "login_required" {
			t.Fatalf("password-only session answered under a forced-MFA policy: %v", q)
		}
	})
}

// Failed codes count toward the lockout: after five, even a right code
// fails, and the account's holder gets the unlock-by-reset link (whoever
// guessed codes knew the password), once, over a real SMTP server.
// spec: D-lockout
// attack: code-guessing
func TestTOTPLockout(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	smtp := mailtest.Start(t)
	worker := &mail.Worker{Store: ti.st, Sealer: ti.p.sealer, Sender: smtp.Sender(), From: "no-reply@platform.test", Now: ti.p.now}
	r := ti.rp()
	b := ti.browser()
	ti.login(b, r, newFlow(), alice, goodPass)
	secret, _ := ti.enrolTOTP(b)
	_, page := ti.passwordStep(b, r, newFlow(), alice)
	for i := 0; i < 5; i++ {
		_, page = b.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {"00000" + string(rune('0'+i))}})
	}
	resp, body := b.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {ti.code(secret)}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgCodeFailed) {
		t.Fatalf("right code after lockout answered %d", resp.StatusCode)
	}
	ti.p.WaitBackground()
	if _, err := worker.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	unlock := 0
	for _, m := range smtp.To(alice) { // beside the notice that two-step verification was turned on
		if strings.Contains(m.Subject, "locked") {
			unlock++
		}
	}
	if unlock != 1 {
		t.Fatalf("unlock messages to the holder: %+v", smtp.Messages())
	}
}

func extractField(page, name string) string {
	for _, m := range hiddenField.FindAllStringSubmatch(page, -1) {
		if m[1] == name {
			return m[2]
		}
	}
	return ""
}
