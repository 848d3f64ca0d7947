package idp

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// registrationOptions begins an enrolment on b's account page and returns
// the page's CSRF token and the options.
func (ti *testIDP) registrationOptions(b *browser) (string, *virtualwebauthn.AttestationOptions) {
	ti.t.Helper()
	_, page := b.get(ti.issuer + PathAccount)
	csrf := extractField(page, "csrf")
	status, body := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {csrf}})
	if status != http.StatusOK {
		ti.t.Fatalf("registration options = %d %s", status, body)
	}
	opts, err := virtualwebauthn.ParseAttestationOptions(body)
	if err != nil {
		ti.t.Fatal(err)
	}
	return csrf, opts
}

func (k *softKey) attest(opts *virtualwebauthn.AttestationOptions) string {
	return virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
}

// ownCSRF opens a login page of b's own and returns its CSRF token (b then
// holds the matching cookie and a binding cookie of its own).
func (ti *testIDP) ownCSRF(b *browser) string {
	ti.t.Helper()
	_, page := b.get(ti.rp().authURL(newFlow()))
	return extractField(page, "csrf")
}

// A ceremony answers only where it began: an enrolment begun by one browser
// session of Alice is refused from her other session, from Bob's and from a
// browser without a session; a sign-in's challenge (first or second factor)
// answered from another browser is refused (403). None of these refusals
// spends the ceremony: its own browser then finishes it.
//
// attack: passkey-ceremony-other-browser
func TestAttackPasskeyCeremonyOtherBrowser(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	a, other := ti.signedIn(), ti.signedIn()
	bobB := ti.browser()
	ti.login(bobB, ti.rp(), newFlow(), bob, goodPass)
	anon := ti.browser()

	_, opts := ti.registrationOptions(a)
	answer := k.attest(opts)
	for name, b := range map[string]*browser{"alice's other session": other, "bob": bobB} {
		_, page := b.get(ti.issuer + PathAccount)
		resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {extractField(page, "csrf")}, "name": {"Stolen"}, "credential": {answer}})
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("enrolment answered from %s: %d", name, resp.StatusCode)
		}
	}
	resp, _ := anon.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {ti.ownCSRF(anon)}, "name": {"Stolen"}, "credential": {answer}})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("enrolment answered without a session: %d", resp.StatusCode)
	}
	if n, nb := len(ti.passkeys(userAlice)), len(ti.passkeys(userBob)); n != 0 || nb != 0 {
		t.Fatalf("passkeys stored from another browser: alice %d, bob %d", n, nb)
	}
	_, page := a.get(ti.issuer + PathAccount)
	if resp, _ := a.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {extractField(page, "csrf")}, "name": {"Laptop"},
		"credential": {answer}}); resp.StatusCode != http.StatusOK || len(ti.passkeys(userAlice)) != 1 {
		t.Fatalf("enrolment in its own session after the refusals: %d", resp.StatusCode)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "passkey.added(passkey):failure") {
		t.Fatalf("refused enrolment not audited: %v", got)
	}

	// first factor: the challenge of a's transaction answered from another browser
	r, f := ti.rp(), newFlow()
	signer := ti.browser()
	_, page = signer.get(r.authURL(f))
	form, assertion := ti.assert(signer, page, k, "")
	id := form.Get("authRequestID")
	eve := ti.browser()
	stolen := url.Values{"authRequestID": {id}, "csrf": {ti.ownCSRF(eve)}, "credential": {assertion}}
	if resp, _ := eve.post(ti.issuer+PathLoginPasskey, stolen); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("sign-in answered from another browser: %d", resp.StatusCode)
	}
	ti.assertNotDone(t, id)
	ti.assertNoCode(t, eve, id)
	form.Set("credential", assertion)
	resp, _ = signer.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("sign-in in its own browser after the refusal: amr %v", got)
	}

	// second factor: the same, after the password
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	r, f = ti.rp(), newFlow()
	signer = ti.browser()
	_, page = ti.passwordStep(signer, r, f, alice)
	form, assertion = ti.assert(signer, page, k, stepSecond)
	stolen = url.Values{"authRequestID": {form.Get("authRequestID")}, "csrf": {ti.ownCSRF(eve)}, "step": {stepSecond}, "credential": {assertion}}
	if resp, _ := eve.post(ti.issuer+PathLoginPasskey, stolen); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("second factor answered from another browser: %d", resp.StatusCode)
	}
	ti.assertNoCode(t, eve, form.Get("authRequestID"))
	form.Set("credential", assertion)
	resp, _ = signer.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("second factor in its own browser after the refusal: amr %v", got)
	}
}

// A challenge is answered once: an enrolment's challenge after a refused
// answer or after a passkey was added with it, a second factor's challenge
// after a refused answer, a sign-in's transaction after it succeeded, and a
// challenge past its five minutes are all refused.
//
// attack: passkey-challenge-reuse
func TestAttackPasskeyChallengeReuse(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	k1, k2 := newSoftKey(ti, userAlice), newSoftKey(ti, userAlice)

	// enrolment: a refused (malformed) answer spends the challenge
	csrf, opts := ti.registrationOptions(b)
	if resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {csrf}, "name": {"x"}, "credential": {`{"id":"x"}`}}); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("malformed enrolment answer: %d", resp.StatusCode)
	}
	_, page := b.get(ti.issuer + PathAccount)
	if resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {extractField(page, "csrf")}, "name": {"Late"},
		"credential": {k1.attest(opts)}}); resp.StatusCode != http.StatusBadRequest || len(ti.passkeys(userAlice)) != 0 {
		t.Fatalf("answer to a challenge a refused answer spent: %d", resp.StatusCode)
	}
	// enrolment: a challenge that added a passkey adds no second one
	csrf, opts = ti.registrationOptions(b)
	if resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {csrf}, "name": {"One"}, "credential": {k1.attest(opts)}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("enrolment: %d", resp.StatusCode)
	}
	_, page = b.get(ti.issuer + PathAccount)
	if resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {extractField(page, "csrf")}, "name": {"Two"},
		"credential": {k2.attest(opts)}}); resp.StatusCode != http.StatusBadRequest || len(ti.passkeys(userAlice)) != 1 {
		t.Fatalf("a second passkey with a spent challenge: %d, %d passkeys", resp.StatusCode, len(ti.passkeys(userAlice)))
	}

	// second factor: a refused answer spends the challenge
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	r, f := ti.rp(), newFlow()
	nb := ti.browser()
	_, page = ti.passwordStep(nb, r, f, alice)
	form := url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}, "step": {stepSecond}}
	_, body := nb.options(ti.issuer+PathLoginPasskeyOptions, form)
	aopts, err := virtualwebauthn.ParseAssertionOptions(body)
	if err != nil {
		t.Fatal(err)
	}
	k1.cred.Counter++
	good := virtualwebauthn.CreateAssertionResponse(k1.rp, k1.auth, k1.cred, *aopts)
	wrong := k1.rp
	wrong.Origin = "http://localhost:1"
	form.Set("credential", virtualwebauthn.CreateAssertionResponse(wrong, k1.auth, k1.cred, *aopts))
	resp, page := nb.post(ti.issuer+PathLoginPasskey, form)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("second factor from another origin: %d", resp.StatusCode)
	}
	form.Set("csrf", extractField(page, "csrf"))
	form.Set("credential", good)
	if resp, page = nb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("second factor to a spent challenge: %d", resp.StatusCode)
	}
	// a fresh challenge finishes it; the finished transaction takes no other answer
	form, a := ti.assert(nb, page, k1, stepSecond)
	form.Set("credential", a)
	resp, _ = nb.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("amr = %v", got)
	}
	k1.cred.Counter++
	form.Set("credential", virtualwebauthn.CreateAssertionResponse(k1.rp, k1.auth, k1.cred, *aopts))
	if resp, _ = nb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("answer to a finished transaction: %d", resp.StatusCode)
	}

	// a challenge past its lifetime
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = false })
	lb := ti.browser()
	_, page = lb.get(ti.rp().authURL(newFlow()))
	form, a = ti.assert(lb, page, k1, "")
	ti.clock.offset = ceremonyLifetime + time.Minute
	form.Set("credential", a)
	if resp, body = lb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("answer to an expired challenge: %d", resp.StatusCode)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "sign_in(passkey,second_factor):failure") {
		t.Fatalf("refusals not audited: %v", got)
	}
}

// The account page's passkey forms (enrolment options and answer, rename,
// remove) posted without the page's CSRF token, with a wrong one, or with a
// token but not its cookie: 403, nothing changes, and an enrolment begun
// by the user is not spent by the forged post.
//
// attack: passkey-account-csrf
func TestAttackPasskeyAccountCSRF(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	victim, other := ti.signedIn(), ti.signedIn()
	k := newSoftKey(ti, userAlice)
	ti.enrol(victim, k, "Laptop")
	key := ti.passkeys(userAlice)[0]
	csrf, opts := ti.registrationOptions(victim) // the victim's own enrolment, open
	attacker := newSoftKey(ti, userAlice)
	forged := attacker.attest(opts)
	for _, tc := range []struct {
		name string
		b    *browser
		csrf []string
	}{
		{"no token", victim, nil},
		{"wrong token", victim, []string{"forged"}},
		{"token without its cookie", other, []string{csrf}},
	} {
		for _, path := range []string{PathAccountPasskeysOptions, PathAccountPasskeys, PathAccountPasskeyRename, PathAccountPasskeyRemove} {
			form := url.Values{"id": {key.ID}, "name": {"Attacker's"}, "credential": {forged}}
			if tc.csrf != nil {
				form["csrf"] = tc.csrf
			}
			if resp, _ := tc.b.post(ti.issuer+path, form); resp.StatusCode != http.StatusForbidden {
				t.Fatalf("%s to %s: %d", tc.name, path, resp.StatusCode)
			}
		}
	}
	if ks := ti.passkeys(userAlice); len(ks) != 1 || ks[0].Name != "Laptop" {
		t.Fatalf("passkeys changed: %+v", ks)
	}
	k2 := newSoftKey(ti, userAlice)
	if resp, _ := victim.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {csrf}, "name": {"Phone"},
		"credential": {k2.attest(opts)}}); resp.StatusCode != http.StatusOK || len(ti.passkeys(userAlice)) != 2 {
		t.Fatalf("the victim's own enrolment after the forged posts: %d", resp.StatusCode)
	}
}

// A passkey signs no one in whose account or organization no longer
// allows it: a suspended user (first factor, and second factor when the
// suspension comes between password and passkey), a deleted user, a user
// whose organization stopped allowing passkeys, an org-scoped login of
// another organization. Reactivated, the same passkey signs in again.
//
// attack: passkey-stopped-user
func TestAttackPasskeyStoppedUser(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	ctx := context.Background()
	k := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), k, "Laptop")
	refused := func(what string, resp *http.Response, body string) {
		t.Helper()
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
			t.Fatalf("%s: %d", what, resp.StatusCode)
		}
	}

	if err := ti.st.SetUserSuspended(ctx, userAlice, time.Now()); err != nil {
		t.Fatal(err)
	}
	resp, body := ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k)
	refused("suspended user", resp, body)
	if err := ti.st.SetUserSuspended(ctx, userAlice, time.Time{}); err != nil {
		t.Fatal(err)
	}
	r, f := ti.rp(), newFlow()
	resp, _ = ti.passkeyLogin(ti.browser(), r, f, k)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("reactivated user: amr %v", got)
	}

	// suspended between the password and the passkey
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	nb := ti.browser()
	_, page := ti.passwordStep(nb, ti.rp(), newFlow(), alice)
	form, a := ti.assert(nb, page, k, stepSecond)
	if err := ti.st.SetUserSuspended(ctx, userAlice, time.Now()); err != nil {
		t.Fatal(err)
	}
	form.Set("credential", a)
	if resp, _ = nb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode < 400 {
		t.Fatalf("second factor of a user suspended after the password: %d", resp.StatusCode)
	}
	if resp, _ = nb.get(ti.issuer + PathAuthorize + "/callback?id=" + url.QueryEscape(form.Get("authRequestID"))); strings.Contains(resp.Header.Get("Location"), "code=") {
		t.Fatal("a suspended user's second factor gave a code")
	}
	if err := ti.st.SetUserSuspended(ctx, userAlice, time.Time{}); err != nil {
		t.Fatal(err)
	}
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = false })

	// another organization's login (it allows passkeys too)
	resp, body = ti.passkeyLogin(ti.browser(), ti.rp(ScopeOrgPrefix+orgB), newFlow(), k)
	refused("login scoped to another organization", resp, body)

	// the organization stops allowing passkeys: first factor and second factor
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.PasskeyAllowed = false })
	resp, body = ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k)
	refused("organization without passkeys", resp, body)
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	nb = ti.browser()
	_, page = ti.passwordStep(nb, ti.rp(), newFlow(), alice)
	if strings.Contains(page, "Use your passkey") {
		t.Fatal("second-factor page offers a passkey the organization does not allow")
	}
	form = url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}, "step": {stepSecond}}
	if status, _ := nb.options(ti.issuer+PathLoginPasskeyOptions, form); status != http.StatusForbidden {
		t.Fatalf("second-factor options of an organization without passkeys: %d", status)
	}
	form.Set("credential", a)
	if resp, _ = nb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("second factor of an organization without passkeys: %d", resp.StatusCode)
	}
	if got := ti.auditActions(userAlice); !slices.Contains(got, "sign_in(passkey,first_factor):failure") ||
		!slices.Contains(got, "sign_in(passkey,second_factor):failure") {
		t.Fatalf("refusals not audited: %v", got)
	}

	// a deleted user: the passkey goes with the account
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.PasskeyAllowed, p.MFAForced = true, false })
	if err := ti.st.DeleteUser(ctx, userAlice); err != nil {
		t.Fatal(err)
	}
	if n := len(ti.passkeys(userAlice)); n != 0 {
		t.Fatalf("%d passkeys of a deleted user", n)
	}
	resp, body = ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k)
	refused("deleted user", resp, body)
}

// Passkey answers count against the client address's sign-in limit with
// the password form's: past it, even a right answer is refused (429) and
// the transaction stays open.
//
// attack: passkey-rate-limit
func TestAttackPasskeyAttemptsLimited(t *testing.T) {
	t.Parallel()
	const limit = 6
	ti := passkeyIDP(t, nil, func(c *Config) { c.LoginRateLimit = limit })
	k := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), k, "Laptop") // the password sign-in and the enrolment count too
	b := ti.browser()
	_, page := b.get(ti.rp().authURL(newFlow()))
	id := extractField(page, "authRequestID")
	limited := false
	for i := 0; i < limit && !limited; i++ {
		resp, body := b.post(ti.issuer+PathLoginPasskey, url.Values{"authRequestID": {id}, "csrf": {extractField(page, "csrf")},
			"credential": {`{"id":"guess"}`}})
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			page = body
		case http.StatusTooManyRequests:
			limited = true
		default:
			t.Fatalf("attempt %d: %d", i, resp.StatusCode)
		}
	}
	if !limited {
		t.Fatalf("%d passkey answers from one address were not limited", limit)
	}
	form, a := ti.assert(b, page, k, "")
	form.Set("credential", a)
	if resp, _ := b.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a right answer past the limit: %d", resp.StatusCode)
	}
	if resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the password form past the passkeys' limit: %d", resp.StatusCode)
	}
	ti.assertNotDone(t, id)
}

// A script that keeps asking for passkey challenges (each one a write)
// from one address is stopped at the address's limit, on the login page and
// on the account page alike (429, Retry-After, the script's JSON message);
// the counter is its own, so the password form of the same address still
// signs in.
//
// attack: passkey-options-flood
func TestAttackPasskeyOptionsFlood(t *testing.T) {
	t.Parallel()
	const limit = 5
	ti := passkeyIDP(t, nil, func(c *Config) { c.LoginRateLimit = limit })
	acct := ti.signedIn() // one password sign-in of the address's limit
	_, page := acct.get(ti.issuer + PathAccount)
	accountForm := url.Values{"csrf": {extractField(page, "csrf")}}
	b := ti.browser()
	_, login := b.get(ti.rp().authURL(newFlow()))
	loginForm := url.Values{"authRequestID": {extractField(login, "authRequestID")}, "csrf": {extractField(login, "csrf")}}
	for i := 0; i < limit; i++ {
		who, u, form := b, ti.issuer+PathLoginPasskeyOptions, loginForm
		if i%2 == 1 {
			who, u, form = acct, ti.issuer+PathAccountPasskeysOptions, accountForm
		}
		if status, body := who.options(u, form); status != http.StatusOK {
			t.Fatalf("options %d within the limit = %d %s", i, status, body)
		}
	}
	for _, c := range []struct {
		who  *browser
		path string
		form url.Values
	}{{b, PathLoginPasskeyOptions, loginForm}, {acct, PathAccountPasskeysOptions, accountForm}} {
		resp, body := c.who.post(ti.issuer+c.path, c.form)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
			!strings.Contains(body, `"error":"Too many passkey requests`) {
			t.Fatalf("%s past the limit = %d %q %s", c.path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	resp, _ := b.submitLogin(ti.issuer, login, alice, goodPass)
	if resp.StatusCode == http.StatusTooManyRequests {
		t.Fatal("the challenges spent the password form's attempts")
	}
	a, err := ti.st.AuthRequest(context.Background(), extractField(login, "authRequestID"), ti.clock.now())
	if err != nil || a.UserID == "" {
		t.Fatalf("the password sign-in after the flood did not finish: %v %+v", err, a)
	}
}

// Bodies past the provider's 64 KiB: sent with their length or chunked, to
// every passkey endpoint, they are refused before anything is read or
// stored; an answer just under the limit is refused as malformed and
// audited, and the user's own enrolment still finishes.
//
// attack: passkey-large-body
func TestAttackPasskeyLargeBody(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	k := newSoftKey(ti, userAlice)
	ti.enrol(b, k, "Laptop")
	key := ti.passkeys(userAlice)[0]
	csrf, opts := ti.registrationOptions(b)
	big := strings.Repeat("[", 1<<20)
	for _, path := range []string{PathLoginPasskeyOptions, PathLoginPasskey, PathAccountPasskeysOptions, PathAccountPasskeys,
		PathAccountPasskeyRename, PathAccountPasskeyRemove, PathLoginPasskeyEnrolOptions, PathLoginPasskeyEnrol} {
		body := url.Values{"csrf": {csrf}, "id": {key.ID}, "name": {"Big"}, "credential": {big}}.Encode()
		for _, chunked := range []bool{false, true} {
			var rd io.Reader = strings.NewReader(body)
			if chunked {
				rd = io.MultiReader(strings.NewReader(body)) // no length: sent chunked
			}
			req, err := http.NewRequest(http.MethodPost, ti.issuer+path, rd)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := b.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if want := http.StatusRequestEntityTooLarge; !chunked && resp.StatusCode != want || resp.StatusCode < 400 || resp.StatusCode >= 500 {
				t.Fatalf("%s, chunked %v: %d", path, chunked, resp.StatusCode)
			}
		}
	}
	if ks := ti.passkeys(userAlice); len(ks) != 1 || ks[0].Name != "Laptop" {
		t.Fatalf("passkeys changed: %+v", ks)
	}
	// an answer just under the limit
	lb := ti.browser()
	_, page := lb.get(ti.rp().authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "login")))
	form, _ := ti.assert(lb, page, k, "")
	form.Set("credential", strings.Repeat("a", 60<<10))
	if resp, body := lb.post(ti.issuer+PathLoginPasskey, form); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("answer just under the limit: %d", resp.StatusCode)
	}
	// the enrolment begun before the large bodies is still open
	_, page = b.get(ti.issuer + PathAccount)
	k2 := newSoftKey(ti, userAlice)
	if resp, _ := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {extractField(page, "csrf")}, "name": {"Phone"},
		"credential": {k2.attest(opts)}}); resp.StatusCode != http.StatusOK || len(ti.passkeys(userAlice)) != 2 {
		t.Fatalf("enrolment after the large bodies: %d", resp.StatusCode)
	}
}
