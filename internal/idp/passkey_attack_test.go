package idp

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// A credential of another user signs no one in as this user: Bob's passkey
// answering with Alice's user handle, Bob's passkey as Alice's second
// factor, Alice renaming or removing Bob's passkey by its id.
//
// attack: passkey-other-user
func TestAttackPasskeyOtherUser(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	kb := newSoftKey(ti, userBob)
	bobBrowser := ti.browser()
	ti.login(bobBrowser, ti.rp(), newFlow(), bob, goodPass)
	if resp, _ := ti.enrol(bobBrowser, kb, "Bob's key"); resp.StatusCode != http.StatusOK {
		t.Fatalf("bob's enrolment: %d", resp.StatusCode)
	}
	ka := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), ka, "Alice's key")

	// Bob's key claiming to be Alice (user handle of Alice)
	forged := *kb
	forged.auth.Options.UserHandle = []byte(userAlice)
	resp, body := ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), &forged)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("bob's credential as alice: %d", resp.StatusCode)
	}
	// Bob's key as Alice's second factor
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	b := ti.browser()
	resp, page := ti.passwordStep(b, ti.rp(), newFlow(), alice)
	if !strings.Contains(page, "Use your passkey") {
		t.Fatalf("no passkey step: %d", resp.StatusCode)
	}
	form := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}, "step": {stepSecond}}
	_, optsJSON := b.options(ti.issuer+PathLoginPasskeyOptions, form)
	opts, err := virtualwebauthn.ParseAssertionOptions(optsJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.AllowCredentials) != 1 {
		t.Fatalf("allowed credentials = %v, want alice's one", opts.AllowCredentials)
	}
	opts.AllowCredentials = nil
	form.Set("credential", virtualwebauthn.CreateAssertionResponse(kb.rp, kb.auth, kb.cred, *opts))
	resp, body = b.post(ti.issuer+PathLoginPasskey, form)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("bob's credential as alice's second factor: %d", resp.StatusCode)
	}
	// Alice acting on Bob's passkey by its id
	bobKey := ti.passkeys(userBob)[0]
	ab := ti.browser()
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = false })
	ti.login(ab, ti.rp(), newFlow(), alice, goodPass)
	_, page = ab.get(ti.issuer + PathAccount)
	for _, path := range []string{PathAccountPasskeyRename, PathAccountPasskeyRemove} {
		resp, _ = ab.submit(ti.issuer, page, path, url.Values{"id": {bobKey.ID}, "name": {"mine"}})
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s of another user's passkey: %d", path, resp.StatusCode)
		}
		_, page = ab.get(ti.issuer + PathAccount)
	}
	if k := ti.passkeys(userBob); len(k) != 1 || k[0].Name != "Bob's key" {
		t.Fatalf("bob's passkey changed: %+v", k)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "sign_in(passkey,second_factor):failure") ||
		!slices.Contains(got, "passkey.removed(passkey):failure") {
		t.Fatalf("refusals not audited: %v", got)
	}
}

// A replayed assertion signs no one in: not in its own transaction again,
// not in another transaction (another challenge); an answer whose counter
// goes backwards stops the passkey as possibly cloned.
//
// attack: passkey-replay
func TestAttackPasskeyReplay(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), k, "Laptop")
	b := ti.browser()
	r, f := ti.rp(), newFlow()
	_, page := b.get(r.authURL(f))
	form, a := ti.assert(b, page, k, "")
	form.Set("credential", a)
	resp, _ := b.post(ti.issuer+PathLoginPasskey, form)
	callback(t, resp)

	// the same answer again: in a fresh transaction of the attacker's browser
	eve := ti.browser()
	_, page = eve.get(ti.rp().authURL(newFlow()))
	form2 := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}}
	if status, _ := eve.options(ti.issuer+PathLoginPasskeyOptions, form2); status != http.StatusOK {
		t.Fatalf("options = %d", status)
	}
	form2.Set("credential", a)
	resp, body := eve.post(ti.issuer+PathLoginPasskey, form2)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("replay in another transaction: %d", resp.StatusCode)
	}
	// two answers to one challenge: the first, though refused, spends it
	_, page = eve.get(ti.rp().authURL(newFlow()))
	form3 := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}}
	_, optsJSON := eve.options(ti.issuer+PathLoginPasskeyOptions, form3)
	opts, err := virtualwebauthn.ParseAssertionOptions(optsJSON)
	if err != nil {
		t.Fatal(err)
	}
	k.cred.Counter++
	good := virtualwebauthn.CreateAssertionResponse(k.rp, k.auth, k.cred, *opts)
	wrongOrigin := k.rp
	wrongOrigin.Origin = "http://localhost:1"
	form3.Set("credential", virtualwebauthn.CreateAssertionResponse(wrongOrigin, k.auth, k.cred, *opts))
	resp, page = eve.post(ti.issuer+PathLoginPasskey, form3)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("answer from another origin: %d", resp.StatusCode)
	}
	form3.Set("csrf", extractField(page, "csrf"))
	form3.Set("credential", good)
	resp, _ = eve.post(ti.issuer+PathLoginPasskey, form3)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("answer to a spent challenge: %d", resp.StatusCode)
	}

	// a counter that goes backwards: a copy of the key
	k.cred.Counter = 0 // the next answer carries 1, the stored counter is past it
	resp, _ = ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k)
	if resp.StatusCode != http.StatusUnauthorized || !ti.passkeys(userAlice)[0].CloneWarning {
		t.Fatalf("cloned key: %d, flagged %v", resp.StatusCode, ti.passkeys(userAlice)[0].CloneWarning)
	}
	k.cred.Counter = 100
	if resp, _ = ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a flagged passkey signed in: %d", resp.StatusCode)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "passkey.clone_detected(passkey):failure") {
		t.Fatalf("clone not audited: %v", got)
	}
}

// An answer made for another relying party (its rp id or origin) is
// refused, at sign-in and at enrolment; so is one without user
// verification, and the options of a login transaction asked by a browser
// that does not hold it.
//
// attack: passkey-wrong-rp
func TestAttackPasskeyWrongRPID(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	b := ti.signedIn()

	evil := *k
	evil.rp = virtualwebauthn.RelyingParty{ID: "evil.example", Name: "evil", Origin: "https://evil.example"}
	if resp, page := ti.enrol(b, &evil, "Phished"); resp.StatusCode != http.StatusBadRequest || len(ti.passkeys(userAlice)) != 0 {
		t.Fatalf("enrolment for another rp id: %d\n%.300s", resp.StatusCode, page)
	}
	ti.enrol(b, k, "Laptop")
	for name, rp := range map[string]virtualwebauthn.RelyingParty{
		"rp id":             {ID: "evil.example", Name: "evil", Origin: ti.issuer},
		"origin":            {ID: "localhost", Name: "evil", Origin: "https://localhost.evil.example"},
		"user verification": k.rp, // the right party, but the device did not verify its user
	} {
		wrong := *k
		wrong.rp = rp
		if name == "user verification" {
			wrong.auth.Options.UserNotVerified = true
		}
		resp, body := ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), &wrong)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
			t.Fatalf("answer for another %s: %d", name, resp.StatusCode)
		}
	}
	// the options of a transaction answer only its own browser
	_, page := ti.browser().get(ti.rp().authURL(newFlow()))
	other := ti.browser()
	other.get(ti.rp().authURL(newFlow())) // its own binding cookie and CSRF cookie
	status, _ := other.options(ti.issuer+PathLoginPasskeyOptions, url.Values{"authRequestID": {extractField(page, "authRequestID")},
		"csrf": {extractField(page, "csrf")}})
	if status != http.StatusForbidden {
		t.Fatalf("options for another browser's transaction = %d", status)
	}
}

// A victim's browser cannot complete an attacker's login transaction with
// a passkey: neither the options of the attacker's transaction nor an
// answer posted for it are accepted from another browser, and the attacker
// gets no code (D-login-binding covers the passkey steps).
//
// attack: passkey-login-hijack
func TestAttackPasskeyLoginHijack(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	victim := ti.signedIn()
	ti.enrol(victim, k, "Laptop")
	attacker := ti.browser()
	id := attacker.startLogin(ti.rp().authURL(newFlow()))

	_, own := victim.get(ti.rp().authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "login")))
	if status, _ := victim.options(ti.issuer+PathLoginPasskeyOptions, url.Values{"authRequestID": {id},
		"csrf": {extractField(own, "csrf")}}); status != http.StatusForbidden {
		t.Fatalf("options of the attacker's transaction in the victim's browser = %d", status)
	}
	form, answer := ti.assert(victim, own, k, "") // a real answer, to the victim's own challenge
	form.Set("authRequestID", id)
	form.Set("credential", answer)
	if resp, _ := victim.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("passkey posted for the attacker's login answered %d", resp.StatusCode)
	}
	ti.assertNotDone(t, id)
	ti.assertNoCode(t, attacker, id)
}
