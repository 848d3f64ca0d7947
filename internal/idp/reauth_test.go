package idp

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"github.com/platform/platform/internal/platform"
)

// accountForms posts the account page's forms in b with the page's
// current CSRF token, taking the next token from every page answered.
type accountForms struct {
	ti  *testIDP
	b   *browser
	tok string
}

func (ti *testIDP) accountForms(b *browser) *accountForms {
	ti.t.Helper()
	_, page := b.get(ti.issuer + PathAccount)
	return &accountForms{ti: ti, b: b, tok: extractField(page, "csrf")}
}

func (f *accountForms) post(path string, form url.Values) (*http.Response, string) {
	f.b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf", f.tok)
	resp, body := f.b.post(f.ti.issuer+path, form)
	if c := extractField(body, "csrf"); c != "" {
		f.tok = c
	}
	return resp, body
}

// staleProof moves the clock past the proof window of every session.
func (ti *testIDP) staleProof() { ti.clock.offset += ProofWindow + time.Minute }

// subjects lists the sign-in-changed notices mailed to an address.
func (ti *testIDP) notices(to string) []string {
	ti.t.Helper()
	var out []string
	for _, m := range ti.mails(to) {
		if strings.Contains(m.Subject, "How you sign in") {
			out = append(out, m.Text)
		}
	}
	return out
}

// With a stolen session cookie and the page's CSRF token (a bare
// session: its sign-in long past, nothing confirmed since), none of the
// account page's changes to how one signs in goes through: new recovery
// codes, removing the authenticator app, a passkey's options, its answer
// or its removal, a new password or e-mail address (even with the right
// current password, which alone does not prove an account with an
// authenticator app), enrolling an authenticator app. Each answers the
// confirmation page (403, JSON for the passkey options), nothing changes
// and nothing is mailed.
//
// attack: account-change-from-bare-session
func TestAttackAccountChangesNeedRecentProof(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	ctx := context.Background()
	b := ti.signedIn()
	_, codes := ti.enrolTOTP(b)
	if resp, page := ti.enrol(b, newSoftKey(ti, userAlice), "Phone"); resp.StatusCode != http.StatusOK {
		t.Fatalf("enrolment within the sign-in's proof: %d\n%s", resp.StatusCode, page)
	}
	pk := ti.passkeys(userAlice)[0]
	bobs := ti.browser()
	ti.login(bobs, ti.rp(), newFlow(), bob, goodPass)
	mailed := len(ti.mails(alice))

	ti.staleProof()
	f := ti.accountForms(b)
	for _, tc := range []struct {
		name, path string
		form       url.Values
	}{
		{"RecoveryCodes", PathAccountRecovery, nil},
		{"RemoveAuthenticator", PathAccountMFAReset, nil},
		{"RemovePasskey", PathAccountPasskeyRemove, url.Values{"id": {pk.ID}}},
		{"AddPasskey", PathAccountPasskeys, url.Values{"name": {"Stolen"}, "credential": {`{"id":"x","type":"public-key"}`}}},
		{"Password", PathAccountPassword, url.Values{"current": {goodPass}, "password": {newPass}, "confirm": {newPass}}},
		{"Email", PathAccountEmail, url.Values{"email": {"thief@a.example"}, "current": {goodPass}}},
		{"PasswordConfirms", PathAccountConfirm, url.Values{"password": {goodPass}}},
		{"RecoveryCodesAfterPassword", PathAccountRecovery, nil},
	} {
		resp, body := f.post(tc.path, tc.form)
		want, text := http.StatusForbidden, msgConfirmFirst
		if tc.path == PathAccountConfirm {
			want, text = http.StatusUnauthorized, msgConfirmFailed
		}
		if resp.StatusCode != want || !strings.Contains(body, text) || !strings.Contains(body, "Confirm it is you") {
			t.Errorf("%s from a bare session: %d, want %d and the confirmation page", tc.name, resp.StatusCode, want)
		}
	}
	if status, body := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {f.tok}}); status != http.StatusForbidden ||
		!strings.Contains(body, "recent confirmation") {
		t.Errorf("passkey options from a bare session: %d %s", status, body)
	}
	resp, body := bobs.get(ti.issuer + PathAccountMFA)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Confirm it is you") || secretField.MatchString(body) {
		t.Errorf("authenticator enrolment from a bare session: %d", resp.StatusCode)
	}

	if _, err := ti.st.TOTP(ctx, userBob); err == nil {
		t.Error("an enrolment began for Bob")
	}
	if f, err := ti.st.TOTP(ctx, userAlice); err != nil || !f.Confirmed {
		t.Error("Alice's authenticator app was removed")
	}
	if n := len(ti.passkeys(userAlice)); n != 1 {
		t.Errorf("Alice holds %d passkeys, want 1", n)
	}
	if u, _ := ti.st.User(ctx, userAlice); u.Email != alice {
		t.Errorf("address changed to %s", u.Email)
	} else if ok, _ := VerifyPassword(goodPass, u.PasswordHash); !ok {
		t.Error("the password changed")
	}
	if err := ti.p.factors.useRecoveryCode(ctx, userAlice, codes[0]); err != nil {
		t.Error("the recovery codes were replaced")
	}
	if n := len(ti.mails(alice)); n != mailed || len(ti.mails("thief@a.example")) != 0 {
		t.Errorf("%d messages to Alice after the refusals, want %d; to the thief %d", n, mailed, len(ti.mails("thief@a.example")))
	}
}

// After a confirmation with the authenticator app's code, the account's
// changes go through for the window, each mailed to the holder by what it
// changed; past the window they need a confirmation again.
func TestAccountConfirmThenChange(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	ctx := context.Background()
	b := ti.signedIn()
	secret, _ := ti.enrolTOTP(b)
	ti.enrol(b, newSoftKey(ti, userAlice), "Phone")
	pk := ti.passkeys(userAlice)[0]

	ti.staleProof()
	f := ti.accountForms(b)
	if resp, _ := f.post(PathAccountConfirm, url.Values{"code": {"000000"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong code confirmed: %d", resp.StatusCode)
	}
	resp, page := f.post(PathAccountConfirm, url.Values{"code": {ti.code(secret)}})
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != PathAccount || !strings.Contains(page, accountNotices["confirmed"]) ||
		strings.Contains(page, `id="confirm-needed"`) {
		t.Fatalf("confirmation with the app's code: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	if s, _ := ti.st.UserSessions(ctx, userAlice, ti.p.now()); len(s) != 1 {
		t.Fatalf("%d sessions", len(s))
	}

	steps := []struct {
		name, path string
		form       url.Values
		shows      string
	}{
		{"RecoveryCodes", PathAccountRecovery, nil, "Your new recovery codes"},
		{"RemovePasskey", PathAccountPasskeyRemove, url.Values{"id": {pk.ID}, "confirm": {"yes"}}, accountNotices["passkey-removed"]},
		{"Email", PathAccountEmail, url.Values{"email": {"alice.new@a.example"}, "current": {goodPass}}, accountNotices["email"]},
		{"RemoveAuthenticator", PathAccountMFAReset, nil, `id="totp-secret"`},
		{"Password", PathAccountPassword, url.Values{"current": {goodPass}, "password": {newPass}, "confirm": {newPass}}, accountNotices["password"]},
	}
	for _, s := range steps {
		if resp, body := f.post(s.path, s.form); resp.StatusCode != http.StatusOK || !strings.Contains(body, s.shows) {
			t.Fatalf("%s after the confirmation: %d\n%.600s", s.name, resp.StatusCode, body)
		}
	}
	got := strings.Join(ti.notices(alice), "\n---\n")
	for _, want := range []string{"authenticator app was turned on", "New recovery codes were made", "passkey “Phone” was removed",
		"e-mail address to alice.new@a.example", "authenticator app of your account's two-step verification was removed",
		"password was changed"} {
		if !strings.Contains(got, want) {
			t.Errorf("no notice saying %q; notices:\n%s", want, got)
		}
	}
	added := 0
	for _, m := range ti.mails(alice) {
		if strings.Contains(m.Subject, "passkey was added") {
			added++
		}
	}
	if added != 1 {
		t.Errorf("%d passkey-added notices, want 1", added)
	}

	// the password change signed this browser in again; past its window the
	// next change asks again
	ti.staleProof()
	f = ti.accountForms(b)
	if resp, _ := f.post(PathAccountRecovery, nil); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a change past the window: %d", resp.StatusCode)
	}
}

// confirmWithPasskey answers the confirmation page's passkey ceremony
// with k.
func (ti *testIDP) confirmWithPasskey(f *accountForms, k *softKey) (*http.Response, string) {
	t := ti.t
	status, body := f.b.options(ti.issuer+PathAccountConfirmOptions, url.Values{"csrf": {f.tok}})
	if status != http.StatusOK {
		t.Fatalf("confirmation options = %d %s", status, body)
	}
	opts, err := virtualwebauthn.ParseAssertionOptions(body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, `"userVerification":"required"`) || len(opts.AllowCredentials) != 1 {
		t.Fatalf("confirmation options: %s", body)
	}
	k.cred.Counter++
	return f.post(PathAccountConfirm, url.Values{"credential": {virtualwebauthn.CreateAssertionResponse(k.rp, k.auth, k.cred, *opts)}})
}

// A passkey confirms its holder (its answer counts once), after which a
// passkey may be added; a recovery code confirms an account with an
// authenticator app (spent); an account with only a password confirms
// with it and lands on the enrolment it asked for.
func TestAccountConfirmWithPasskeyRecoveryCodeOrPassword(t *testing.T) {
	t.Parallel()
	t.Run("Passkey", func(t *testing.T) {
		ti := passkeyIDP(t, nil)
		b := ti.signedIn()
		k := newSoftKey(ti, userAlice)
		ti.enrol(b, k, "Phone")
		// with MFA forced the passkey is the second factor: the password alone proves nothing
		ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
		ti.staleProof()
		f := ti.accountForms(b)
		if resp, _ := f.post(PathAccountConfirm, url.Values{"password": {goodPass}}); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the password confirmed an account whose passkey is its second factor: %d", resp.StatusCode)
		}
		resp, page := ti.confirmWithPasskey(f, k)
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, accountNotices["confirmed"]) {
			t.Fatalf("passkey confirmation: %d\n%.600s", resp.StatusCode, page)
		}
		if resp, page := ti.enrol(b, newSoftKey(ti, userAlice), "Laptop"); resp.StatusCode != http.StatusOK ||
			!strings.Contains(page, accountNotices["passkey-added"]) {
			t.Fatalf("passkey after the confirmation: %d", resp.StatusCode)
		}
		if acts := ti.auditActions(userAlice); !slices.Contains(acts, "reauthentication(passkey):success") ||
			!slices.Contains(acts, "reauthentication(password):failure") {
			t.Fatalf("audit: %v", acts)
		}
	})

	t.Run("RecoveryCode", func(t *testing.T) {
		ti := mustIDP(t)
		b := ti.signedIn()
		_, codes := ti.enrolTOTP(b)
		ti.staleProof()
		f := ti.accountForms(b)
		resp, _ := f.post(PathAccountConfirm, url.Values{"code": {codes[0]}, "recovery": {"1"}})
		if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != PathAccount {
			t.Fatalf("recovery code confirmation: %d", resp.StatusCode)
		}
		if err := ti.p.factors.useRecoveryCode(context.Background(), userAlice, codes[0]); err == nil {
			t.Fatal("the recovery code was not spent")
		}
		if resp, _ := f.post(PathAccountRecovery, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("new codes after the confirmation: %d", resp.StatusCode)
		}
	})

	t.Run("PasswordToEnrolment", func(t *testing.T) {
		ti := mustIDP(t)
		b := ti.signedIn()
		ti.staleProof()
		resp, page := b.get(ti.issuer + PathAccountMFA)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, `name="password"`) || strings.Contains(page, `name="code"`) {
			t.Fatalf("enrolment from a stale session: %d\n%s", resp.StatusCode, page)
		}
		resp, page = b.submit(ti.issuer, page, PathAccountConfirm, url.Values{"password": {goodPass}, "next": {PathAccountMFA}})
		if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != PathAccountMFA || !secretField.MatchString(page) {
			t.Fatalf("after the confirmation: %d at %s", resp.StatusCode, resp.Request.URL)
		}
	})
}
