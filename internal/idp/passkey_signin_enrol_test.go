package idp

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/platform"
)

// passkeyOnlyMFA forces MFA that a passkey satisfies and an
// authenticator app does not.
func passkeyOnlyMFA(p *platform.LoginPolicy) {
	p.MFAForced, p.MFAByPasskey, p.MFAByTOTP = true, true, false
}

// enrolOptions posts the enrolment page's fields to the sign-in
// enrolment's options and returns its form and the status and body.
func (ti *testIDP) enrolOptions(b *browser, page string) (url.Values, int, string) {
	form := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}}
	status, body := b.options(ti.issuer+PathLoginPasskeyEnrolOptions, form)
	return form, status, body
}

// attest answers registration options body with k.
func (ti *testIDP) attest(k *softKey, body string) string {
	ti.t.Helper()
	opts, err := virtualwebauthn.ParseAttestationOptions(body)
	if err != nil {
		ti.t.Fatalf("%v: %s", err, body)
	}
	return virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
}

// A user of an organization whose MFA takes only passkeys, with no passkey
// yet, is asked after the password to add one, on a page that says why and,
// without JavaScript, what it needs; the new passkey finishes the sign-in
// as its second factor (amr pwd hwk mfa), is recorded and mailed to its
// holder, and then signs in alone.
//
// spec: D-passkeys
func TestPasskeyEnrolAtSignIn(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, passkeyOnlyMFA)
	smtp := mailtest.Start(t)
	r, f := ti.rp(), newFlow()
	b := ti.browser()
	resp, page := ti.passwordStep(b, r, f, alice)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Your organization requires a passkey") ||
		!strings.Contains(page, `data-options="`+PathLoginPasskeyEnrolOptions+`"`) || strings.Contains(page, `name="code"`) {
		t.Fatalf("after the password: %d\n%s", resp.StatusCode, page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Fatalf("enrolment page CSP %q", csp)
	}
	// without the script the page says what a passkey needs, and its button stays hidden
	if !strings.Contains(page, `id="passkey-needs-script" data-no-script>Adding a passkey needs a browser that supports passkeys, with JavaScript on.`) ||
		!strings.Contains(page, `data-script hidden>`) {
		t.Fatalf("enrolment page without its script:\n%s", page)
	}
	resp, body := b.submit(ti.issuer, page, PathLoginPasskeyEnrol, nil)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "JavaScript") || len(ti.passkeys(userAlice)) != 0 {
		t.Fatalf("enrolment posted without a passkey: %d", resp.StatusCode)
	}

	k := newSoftKey(ti, userAlice)
	form, status, opts := ti.enrolOptions(b, body)
	if status != http.StatusOK || !strings.Contains(opts, `"residentKey":"required"`) || !strings.Contains(opts, `"userVerification":"required"`) {
		t.Fatalf("enrolment options: %d %s", status, opts)
	}
	form.Set("credential", ti.attest(k, opts))
	resp, body = b.post(ti.issuer+PathLoginPasskeyEnrol, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("amr = %v\n%s", got, body)
	}
	keys := ti.passkeys(userAlice)
	if len(keys) != 1 || keys[0].Name != "Passkey" {
		t.Fatalf("stored passkeys: %+v", keys)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "passkey.added(passkey):success") ||
		!slices.Contains(got, "sign_in(password):success") {
		t.Fatalf("audit = %v", got)
	}
	worker := &mail.Worker{Store: ti.st, Sealer: ti.p.sealer, Sender: smtp.Sender(), From: "no-reply@platform.test", Now: ti.p.now}
	if _, err := worker.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := smtp.To(alice); len(got) != 1 || !strings.Contains(got[0].Subject, "passkey was added") {
		t.Fatalf("notice: %+v", smtp.Messages())
	}

	r2, f2 := ti.rp(), newFlow()
	resp, _ = ti.passkeyLogin(ti.browser(), r2, f2, k)
	if got := ti.amr(r2, f2, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("the enrolled passkey alone: amr = %v", got)
	}
}

// An application that asks for phishing-resistant authentication
// (acr_values) has a user without a passkey, in an organization that takes
// passkeys but does not force MFA, add one after the password instead of
// turning the sign-in away; the new passkey finishes it at that class
// (amr pwd hwk mfa, acr phishing-resistant). Without the request the
// same user signs in with the password alone.
//
// spec: D-step-up
func TestPasskeyEnrolForPhishingResistantRequest(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	r := ti.rp()
	if code := ti.login(ti.browser(), r, newFlow(), alice, goodPass); code == "" {
		t.Fatal("a plain request asked more than the password")
	}
	f, b := newFlow(), ti.browser()
	_, page := b.get(r.authURL(f, oauth2.SetAuthURLParam("acr_values", ACRPhishingResistant), oauth2.SetAuthURLParam("prompt", "login")))
	resp, page := b.submitLogin(ti.issuer, page, alice, goodPass)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "This application asks for a passkey") {
		t.Fatalf("after the password, for a passkey request: %d\n%.600s", resp.StatusCode, page)
	}
	k := newSoftKey(ti, userAlice)
	form, status, opts := ti.enrolOptions(b, page)
	if status != http.StatusOK {
		t.Fatalf("enrolment options: %d %s", status, opts)
	}
	form.Set("credential", ti.attest(k, opts))
	resp, body := b.post(ti.issuer+PathLoginPasskeyEnrol, form)
	tok, err := r.exchange(f, callback(t, resp).Get("code"))
	if err != nil {
		t.Fatalf("%v\n%.300s", err, body)
	}
	claims := decodeClaims(t, tok.Extra("id_token").(string))
	if claims["acr"] != ACRPhishingResistant || !slices.Equal(anyStrings(claims["amr"]), []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("id_token acr %v amr %v", claims["acr"], claims["amr"])
	}
	if len(ti.passkeys(userAlice)) != 1 {
		t.Fatal("the passkey was not stored")
	}
}

// anyStrings is a JSON array of strings as decoded into any.
func anyStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

// The enrolment of one login transaction is its own: another browser can
// neither begin nor answer it, and the answer to one transaction's
// challenge does not enrol in another transaction; nothing is stored.
//
// attack: passkey-signin-enrolment-other-transaction
func TestAttackPasskeyEnrolOtherTransaction(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, passkeyOnlyMFA)
	r := ti.rp()
	b := ti.browser()
	_, page := ti.passwordStep(b, r, newFlow(), alice)
	k := newSoftKey(ti, userAlice)

	// another browser, with a CSRF token of its own, posting the transaction's id
	c := ti.browser()
	_, own := c.get(r.authURL(newFlow()))
	theirs := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(own, "csrf")}}
	if status, body := c.options(ti.issuer+PathLoginPasskeyEnrolOptions, theirs); status != http.StatusForbidden {
		t.Fatalf("options from another browser: %d %s", status, body)
	}
	form, status, opts := ti.enrolOptions(b, page)
	if status != http.StatusOK {
		t.Fatalf("options: %d %s", status, opts)
	}
	theirs.Set("credential", ti.attest(k, opts))
	if resp, _ := c.post(ti.issuer+PathLoginPasskeyEnrol, theirs); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("answer from another browser: %d", resp.StatusCode)
	}

	// the same browser's second transaction, with a challenge of its own
	_, page2 := ti.passwordStep(b, r, newFlow(), alice)
	form2, status, _ := ti.enrolOptions(b, page2)
	if status != http.StatusOK {
		t.Fatalf("options of the second transaction: %d", status)
	}
	form2.Set("credential", theirs.Get("credential")) // answers the first transaction's challenge
	resp, body := b.post(ti.issuer+PathLoginPasskeyEnrol, form2)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "The passkey could not be added") {
		t.Fatalf("another transaction's answer: %d\n%.400s", resp.StatusCode, body)
	}
	// the first transaction's challenge is still its own: the second
	// transaction's post did not spend it, and its answer enrols there
	form.Set("csrf", extractField(body, "csrf"))
	form.Set("credential", theirs.Get("credential"))
	if resp, _ := b.post(ti.issuer+PathLoginPasskeyEnrol, form); resp.StatusCode != http.StatusFound && resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the first transaction's own answer: %d", resp.StatusCode)
	}
	if keys := ti.passkeys(userAlice); len(keys) != 1 {
		t.Fatalf("stored passkeys: %d", len(keys))
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "passkey.added(passkey):failure") {
		t.Fatalf("the refused answer was not recorded: %v", got)
	}
}

// An enrolment needs the transaction's first step: a login page that has
// not passed the password neither begins one nor stores a passkey.
//
// attack: passkey-signin-enrolment-without-password
func TestAttackPasskeyEnrolWithoutPassword(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, passkeyOnlyMFA)
	b := ti.browser()
	_, page := b.get(ti.rp().authURL(newFlow()))
	form, status, body := ti.enrolOptions(b, page)
	if status != http.StatusForbidden || strings.Contains(body, "challenge") {
		t.Fatalf("options before the password: %d %s", status, body)
	}
	// an answer made for another page's options
	k := newSoftKey(ti, userAlice)
	form.Set("credential", virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, virtualwebauthn.AttestationOptions{
		Challenge: []byte("0123456789abcdef0123456789abcdef"), RelyingPartyID: "localhost", UserID: userAlice}))
	resp, _ := b.post(ti.issuer+PathLoginPasskeyEnrol, form)
	if resp.StatusCode != http.StatusBadRequest || len(ti.passkeys(userAlice)) != 0 {
		t.Fatalf("enrolment before the password: %d", resp.StatusCode)
	}
}

// A user who has a passkey must use it: the second step asks for it, and
// the sign-in enrolment is refused at its options and at its answer.
//
// attack: passkey-signin-enrolment-beside-a-passkey
func TestAttackPasskeyEnrolWhenOneExists(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), k, "Phone")
	ti.setPolicy(orgA, passkeyOnlyMFA)
	b := ti.browser()
	resp, page := ti.passwordStep(b, ti.rp(), newFlow(), alice)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Use your passkey") || strings.Contains(page, PathLoginPasskeyEnrol) {
		t.Fatalf("second step of a user with a passkey: %d\n%s", resp.StatusCode, page)
	}
	form, status, body := ti.enrolOptions(b, page)
	if status != http.StatusForbidden {
		t.Fatalf("enrolment options beside a passkey: %d %s", status, body)
	}
	form.Set("credential", `{"id":"x"}`)
	resp, _ = b.post(ti.issuer+PathLoginPasskeyEnrol, form)
	if resp.StatusCode != http.StatusForbidden || len(ti.passkeys(userAlice)) != 1 {
		t.Fatalf("enrolment beside a passkey: %d", resp.StatusCode)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "passkey.added(passkey):failure") {
		t.Fatalf("the refused enrolment was not recorded: %v", got)
	}
}
