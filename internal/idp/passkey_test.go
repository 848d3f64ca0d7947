package idp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// passkeyIDP is a provider on http://localhost:<port> (a relying party needs
// a domain, not an IP address) whose organization A allows passkeys; adjust
// changes that policy further, opts the provider's configuration.
func passkeyIDP(t *testing.T, adjust func(*platform.LoginPolicy), opts ...func(*Config)) *testIDP {
	t.Helper()
	ti := mustIDP(t, append([]func(*Config){func(c *Config) { c.Issuer = strings.Replace(c.Issuer, "127.0.0.1", "localhost", 1) }}, opts...)...)
	ti.issuer = ti.p.cfg.Issuer
	for _, org := range []string{orgA, orgB} {
		ti.setPolicy(org, func(p *platform.LoginPolicy) {
			p.PasskeyAllowed = true
			if adjust != nil && org == orgA {
				adjust(p)
			}
		})
	}
	return ti
}

func (ti *testIDP) setPolicy(org string, change func(*platform.LoginPolicy)) {
	ti.t.Helper()
	p, err := ti.st.LoginPolicy(context.Background(), org)
	if err != nil {
		ti.t.Fatal(err)
	}
	change(p)
	if err := ti.st.PutLoginPolicy(context.Background(), p); err != nil {
		ti.t.Fatal(err)
	}
}

// softKey is an authenticator written in Go (descope/virtualwebauthn) holding
// one passkey of one user, answering as a browser would for rp.
type softKey struct {
	rp   virtualwebauthn.RelyingParty
	auth virtualwebauthn.Authenticator
	cred virtualwebauthn.Credential
}

func newSoftKey(ti *testIDP, userID string) *softKey {
	k := &softKey{rp: virtualwebauthn.RelyingParty{ID: "localhost", Name: "localhost", Origin: ti.issuer},
		auth: virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(userID)}),
		cred: virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, fullLengthP256Key(ti.t))}
	k.auth.AddCredential(k.cred)
	return k
}

// fullLengthP256Key is a new P-256 key (PKCS #8) whose coordinates both
// need all 32 bytes. The software authenticator writes them without their
// leading zero bytes (about one key in 128), and the relying party rightly
// refuses a COSE key of the wrong length; a real authenticator pads them.
func fullLengthP256Key(t testing.TB) []byte {
	for {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		pub, err := k.PublicKey.Bytes() // 0x04 ‖ x ‖ y
		if err != nil {
			t.Fatal(err)
		}
		if pub[1] == 0 || pub[33] == 0 {
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
}

// options posts a form's fields to an options endpoint and returns the JSON.
func (b *browser) options(u string, form url.Values) (int, string) {
	b.t.Helper()
	resp, body := b.post(u, form)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode == http.StatusOK && ct != "application/json" {
		b.t.Fatalf("options answered %q", ct)
	}
	return resp.StatusCode, body
}

// enrol adds k as a passkey of the signed-in browser b on the account page.
func (ti *testIDP) enrol(b *browser, k *softKey, name string) (*http.Response, string) {
	t := ti.t
	_, page := b.get(ti.issuer + PathAccount)
	csrf := extractField(page, "csrf")
	status, body := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {csrf}})
	if status != http.StatusOK {
		t.Fatalf("registration options = %d %s", status, body)
	}
	opts, err := virtualwebauthn.ParseAttestationOptions(body)
	if err != nil {
		t.Fatal(err)
	}
	if opts.RelyingPartyID != "localhost" {
		t.Fatalf("rp id = %q, want the issuer's host", opts.RelyingPartyID)
	}
	var raw struct {
		PublicKey struct {
			Attestation            string `json:"attestation"`
			AuthenticatorSelection struct {
				ResidentKey      string `json:"residentKey"`
				UserVerification string `json:"userVerification"`
			} `json:"authenticatorSelection"`
		} `json:"publicKey"`
	}
	_ = json.Unmarshal([]byte(body), &raw)
	if pk := raw.PublicKey; pk.Attestation != "none" || pk.AuthenticatorSelection.ResidentKey != "required" ||
		pk.AuthenticatorSelection.UserVerification != "required" {
		t.Fatalf("registration options: %+v", pk)
	}
	att := virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
	return b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {csrf}, "name": {name}, "credential": {att}})
}

// assert answers the options of a login page's passkey form with k. step
// is "" for the first factor, stepSecond after a password.
func (ti *testIDP) assert(b *browser, page string, k *softKey, step string) (form url.Values, assertion string) {
	t := ti.t
	form = url.Values{"authRequestID": {extractField(page, "authRequestID")}, "csrf": {extractField(page, "csrf")}}
	if step != "" {
		form.Set("step", step)
	}
	status, body := b.options(ti.issuer+PathLoginPasskeyOptions, form)
	if status != http.StatusOK {
		t.Fatalf("assertion options = %d %s", status, body)
	}
	opts, err := virtualwebauthn.ParseAssertionOptions(body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, `"userVerification":"required"`) {
		t.Fatalf("assertion options without user verification required: %s", body)
	}
	k.cred.Counter++
	return form, virtualwebauthn.CreateAssertionResponse(k.rp, k.auth, k.cred, *opts)
}

// passkeyLogin signs in with k from a fresh authorize and returns the
// response of the passkey step.
func (ti *testIDP) passkeyLogin(b *browser, r *rp, f flow, k *softKey) (*http.Response, string) {
	_, page := b.get(r.authURL(f))
	if !strings.Contains(page, `autocomplete="username webauthn"`) || !strings.Contains(page, `id="passkey-login"`) {
		ti.t.Fatalf("login page offers no passkey:\n%s", page)
	}
	form, a := ti.assert(b, page, k, "")
	form.Set("credential", a)
	return b.post(ti.issuer+PathLoginPasskey, form)
}

func (ti *testIDP) passkeys(userID string) []store.Passkey {
	ti.t.Helper()
	ks, err := ti.st.Passkeys(context.Background(), userID)
	if err != nil {
		ti.t.Fatal(err)
	}
	return ks
}

// auditActions lists the audit events userID made, oldest first, as
// kind(method,step):outcome: "passkey.added(passkey):success",
// "sign_in(passkey,second_factor):failure".
func (ti *testIDP) auditActions(userID string) []string {
	ti.t.Helper()
	evs, _, err := ti.st.AuditEvents(context.Background(), store.AuditQuery{ActorID: userID, Limit: 100, Scope: authz.Filter{All: true}})
	if err != nil {
		ti.t.Fatal(err)
	}
	var out []string
	for _, r := range evs {
		e := audit.FromRow(&r)
		k := e.Kind
		if m := strings.Trim(e.Details.Method+","+e.Details.Step, ","); m != "" {
			k += "(" + m + ")"
		}
		out = append(out, k+":"+e.Outcome)
	}
	slices.Reverse(out)
	return out
}

// A passkey enrolled on the account page signs in without a password
// (amr hwk mfa), is listed, renamed and removed; each step is audited.
func TestPasskeyEnrolSignInRenameRemove(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	k := newSoftKey(ti, userAlice)
	resp, page := ti.enrol(b, k, "  Work   laptop ")
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Your passkey was added") || !strings.Contains(page, "Work laptop") {
		t.Fatalf("enrolment: %d\n%s", resp.StatusCode, page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Fatalf("account page CSP %q", csp)
	}
	keys := ti.passkeys(userAlice)
	if len(keys) != 1 || keys[0].Name != "Work laptop" {
		t.Fatalf("stored passkeys: %+v", keys)
	}

	r, f := ti.rp(), newFlow()
	resp, body := ti.passkeyLogin(ti.browser(), r, f, k)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("amr = %v\n%s", got, body)
	}
	if keys = ti.passkeys(userAlice); keys[0].SignCount != 1 || keys[0].LastUsedAt == nil {
		t.Fatalf("after sign-in: %+v", keys[0])
	}

	_, page = b.get(ti.issuer + PathAccount)
	resp, page = b.submit(ti.issuer, page, PathAccountPasskeyRename, url.Values{"id": {keys[0].ID}, "name": {"Old laptop"}})
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "renamed") || !strings.Contains(page, "Old laptop") {
		t.Fatalf("rename: %d", resp.StatusCode)
	}
	resp, page = b.submit(ti.issuer, page, PathAccountPasskeyRename, url.Values{"id": {keys[0].ID}, "name": {" "}})
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("empty name: %d", resp.StatusCode)
	}
	// Remove asks first, naming the passkey; nothing is removed until the
	// confirmation is posted
	resp, page = b.submit(ti.issuer, page, PathAccountPasskeyRemove, url.Values{"id": {keys[0].ID}})
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `id="passkey-remove"`) || !strings.Contains(page, "Old laptop") ||
		len(ti.passkeys(userAlice)) != 1 {
		t.Fatalf("remove before its confirmation: %d\n%.600s", resp.StatusCode, page)
	}
	resp, page = b.submit(ti.issuer, page, PathAccountPasskeyRemove, url.Values{"id": {keys[0].ID}, "confirm": {"yes"}})
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "removed") || len(ti.passkeys(userAlice)) != 0 {
		t.Fatalf("remove: %d", resp.StatusCode)
	}
	// a removed passkey signs no one in
	resp, body = ti.passkeyLogin(ti.browser(), r, newFlow(), k)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgPasskeyFailed) {
		t.Fatalf("removed passkey: %d", resp.StatusCode)
	}
	want := []string{"sign_in(password):success", "passkey.added(passkey):success", "sign_in(passkey):success",
		"token.issued:success", "passkey.renamed(passkey):success", "passkey.removed(passkey):success"}
	if got := ti.auditActions(userAlice); !slices.Equal(got, want) {
		t.Fatalf("audit = %v, want %v", got, want)
	}
}

// Without JavaScript the password path is unchanged and enrolment says
// what it needs; an organization that does not allow passkeys shows none.
func TestPasskeyProgressiveAndPolicy(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	_, page := b.get(ti.issuer + PathAccount)
	resp, page := b.submit(ti.issuer, page, PathAccountPasskeys, url.Values{"name": {"x"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "JavaScript") {
		t.Fatalf("enrolment without a credential: %d", resp.StatusCode)
	}
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.PasskeyAllowed = false })
	_, page = b.get(ti.issuer + PathAccount)
	if strings.Contains(page, "passkey") {
		t.Fatal("account page offers passkeys the organization does not allow")
	}
	status, _ := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {extractField(page, "csrf")}})
	if status != http.StatusForbidden {
		t.Fatalf("registration options without the policy = %d", status)
	}
	r := ti.rp(ScopeOrgPrefix + orgA)
	_, page = ti.browser().get(r.authURL(newFlow()))
	if strings.Contains(page, "passkey") || !strings.Contains(page, `name="password"`) {
		t.Fatalf("login page of an organization without passkeys:\n%s", page)
	}
}

// Under forced MFA a passkey is the second factor after a password
// (amr pwd hwk mfa); a user with only passkeys is not sent to TOTP setup.
func TestPasskeySecondFactor(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	k := newSoftKey(ti, userAlice)
	ti.enrol(ti.signedIn(), k, "Phone")
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAForced = true })
	r, f := ti.rp(), newFlow()
	b := ti.browser()
	resp, page := ti.passwordStep(b, r, f, alice)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Use your passkey") || strings.Contains(page, `name="code"`) {
		t.Fatalf("second-factor page: %d\n%s", resp.StatusCode, page)
	}
	form, a := ti.assert(b, page, k, stepSecond)
	form.Set("credential", a)
	resp, _ = b.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("amr = %v", got)
	}
	// a passkey sign-in satisfies forced MFA by itself
	r2, f2 := ti.rp(), newFlow()
	resp, _ = ti.passkeyLogin(ti.browser(), r2, f2, k)
	if got := ti.amr(r2, f2, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("first-factor amr under forced MFA = %v", got)
	}
	// whether a passkey counts as MFA is the policy's passkey rule, not its
	// rule for external providers
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAByPasskey, p.MFABySSO = true, false })
	r3, f3 := ti.rp(), newFlow()
	resp, _ = ti.passkeyLogin(ti.browser(), r3, f3, k)
	if got := ti.amr(r3, f3, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("passkey sign-in where providers' MFA does not count: amr = %v", got)
	}
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.MFAByPasskey, p.MFABySSO, p.MFAByTOTP = false, true, true })
	resp, page = ti.passkeyLogin(ti.browser(), ti.rp(), newFlow(), k)
	if loc := resp.Header.Get("Location"); strings.Contains(loc, "code=") {
		t.Fatalf("a passkey alone signed in where passkeys are not MFA: %d %s", resp.StatusCode, loc)
	}
	if !strings.Contains(page, "authenticator") {
		t.Fatalf("no second step asked after a passkey where passkeys are not MFA: %d\n%.400s", resp.StatusCode, page)
	}
}

// An organization that requires passkeys refuses its users' passwords
// (also when right), offers the passkey only, and keeps the last passkey;
// a reset link lets the user add one.
func TestPasskeyRequiredByPolicy(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	k := newSoftKey(ti, userAlice)
	ti.enrol(b, k, "Laptop")
	ti.setPolicy(orgA, func(p *platform.LoginPolicy) { p.PasskeyRequired = true })

	b1 := ti.browser()
	_, page := b1.get(ti.rp().authURL(newFlow()))
	resp, body := b1.submitLogin(ti.issuer, page, alice, goodPass)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Your organization signs in with passkeys") {
		t.Fatalf("right password of a passkey-only organization: %d", resp.StatusCode)
	}
	_, page = ti.browser().get(ti.rp(ScopeOrgPrefix + orgA).authURL(newFlow()))
	if strings.Contains(page, `name="password"`) || !strings.Contains(page, "Sign in with a passkey") {
		t.Fatalf("org-scoped page still asks for a password:\n%s", page)
	}
	r, f := ti.rp(ScopeOrgPrefix+orgA), newFlow()
	b2 := ti.browser()
	_, page = b2.get(r.authURL(f))
	form, a := ti.assert(b2, page, k, "")
	form.Set("credential", a)
	resp, _ = b2.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("amr = %v", got)
	}
	// the old password session no longer satisfies a login of this organization
	_, page = b.get(ti.rp().authURL(newFlow()))
	if !strings.Contains(page, "Sign in with a passkey") {
		t.Fatal("a password session answered a passkey-only organization's login")
	}
	_, page = b.get(ti.issuer + PathAccount)
	resp, page = b.submit(ti.issuer, page, PathAccountPasskeyRemove, url.Values{"id": {ti.passkeys(userAlice)[0].ID}})
	if resp.StatusCode != http.StatusBadRequest || len(ti.passkeys(userAlice)) != 1 {
		t.Fatalf("last required passkey removed: %d", resp.StatusCode)
	}
}

// A user with an authenticator app and a passkey is offered both as second
// factor; a wrong code keeps the passkey offered, and the passkey then
// finishes the sign-in.
func TestPasskeyBesideTOTP(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	b := ti.signedIn()
	ti.enrolTOTP(b)
	k := newSoftKey(ti, userAlice)
	ti.enrol(b, k, "Phone")
	r, f := ti.rp(), newFlow()
	nb := ti.browser()
	_, page := ti.passwordStep(nb, r, f, alice)
	if !strings.Contains(page, "Use your passkey") || !strings.Contains(page, `name="code"`) {
		t.Fatalf("second-factor page without both factors:\n%s", page)
	}
	resp, page := nb.submit(ti.issuer, page, PathLoginOTP, url.Values{"code": {"000000"}})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(page, "Use your passkey") {
		t.Fatalf("after a wrong code: %d", resp.StatusCode)
	}
	form, a := ti.assert(nb, page, k, stepSecond)
	form.Set("credential", a)
	resp, _ = nb.post(ti.issuer+PathLoginPasskey, form)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"pwd", "hwk", "mfa"}) {
		t.Fatalf("amr = %v", got)
	}
}

// A user of an organization that requires passkeys and has none yet gets
// in through a password reset link: the link signs the browser in and
// offers the enrolment, and the passkey then signs in.
func TestPasskeyRequiredEnrolAfterReset(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, func(p *platform.LoginPolicy) { p.PasskeyRequired = true })
	b := ti.browser()
	_, form := b.get(ti.link(userAlice, store.TokenReset, mail.PathPasswordReset, mail.ResetLifetime))
	resp, done := b.submitForm(ti.issuer+PathPasswordReset, form, "password", newPass, "confirm", newPass)
	if resp.StatusCode != http.StatusOK || !strings.Contains(done, "Add a passkey") || !strings.Contains(done, PathAccount+"#passkeys") {
		t.Fatalf("reset of a passkey-only user: %d\n%s", resp.StatusCode, done)
	}
	k := newSoftKey(ti, userAlice)
	if resp, page := ti.enrol(b, k, "Laptop"); resp.StatusCode != http.StatusOK || !strings.Contains(page, "Your passkey was added") {
		t.Fatalf("enrolment after the reset: %d", resp.StatusCode)
	}
	r, f := ti.rp(), newFlow()
	resp, _ = ti.passkeyLogin(ti.browser(), r, f, k)
	if got := ti.amr(r, f, resp); !slices.Equal(got, []string{"hwk", "mfa"}) {
		t.Fatalf("amr = %v", got)
	}
}
