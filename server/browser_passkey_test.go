package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// mustRunPasskeyMain starts the all-in-one with the provider at
// http://localhost:<port>: a WebAuthn relying party needs a domain, and
// Chromium refuses an IP address as its id.
func mustRunPasskeyMain(t *testing.T) *Main {
	return mustRunMainWith(t, func(m *Main) {
		m.Config.IssuerURL = strings.Replace(m.Config.IssuerURL, "127.0.0.1", "localhost", 1)
	})
}

// virtualAuthenticator gives the browser a platform authenticator (DevTools'
// WebAuthn domain) that keeps discoverable credentials and verifies its user.
func virtualAuthenticator(id *webauthn.AuthenticatorID) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := webauthn.Enable().WithEnableUI(false).Do(ctx); err != nil {
			return err
		}
		var err error
		*id, err = webauthn.AddVirtualAuthenticator(&webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21,
			Transport: webauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true,
			IsUserVerified: true, AutomaticPresenceSimulation: true}).Do(ctx)
		return err
	})
}

// signedOut forgets the browser's cookies, so the next sign-in asks again.
func signedOut() chromedp.Action {
	return chromedp.Tasks{network.ClearBrowserCookies(), chromedp.Navigate("about:blank")}
}

// A person enrols a passkey on the account page and signs in with it by
// the e-mail field's autofill (conditional UI).
func TestBrowserPasskeys(t *testing.T) {
	t.Parallel()
	m := mustRunPasskeyMain(t)
	ctx := mustBrowser(t)
	axe := axeSource(t)
	base := m.Config.ConsoleURL + "/"
	var auth webauthn.AuthenticatorID
	var notice, list string
	run(t, ctx, virtualAuthenticator(&auth),
		gatewayEmail(base, "alice@acme.example"), providerPassword(DemoPassword),
		waitShows(`[data-testid="role"]`, "owner"),
		chromedp.Navigate(m.Config.IssuerURL+"/ui/account"),
		chromedp.WaitVisible(`#passkey-name`, chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("passkey-name").value = ""`, nil),
		chromedp.SendKeys(`#passkey-name`, "Work laptop", chromedp.ByID),
		chromedp.Click(`#passkey-add button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#account-notice`, chromedp.ByID),
		textOf(`#account-notice`, &notice),
		textOf(`#passkey-list`, &list),
		shot(t, ctx, "passkey-enrolled"),
	)
	if !strings.Contains(notice, "Your passkey was added") || !strings.Contains(list, "Work laptop") {
		t.Fatalf("enrolment: %q %q", notice, list)
	}
	axeCheck(t, ctx, axe, "account page with a passkey")

	// spec: R1-idp
	t.Run("Autofill", func(t *testing.T) {
		var method string
		run(t, ctx, signedOut(),
			gatewayEmail(base, "alice@acme.example"),
			// the provider's page offers the passkey on its address field
			// (autocomplete webauthn); the virtual authenticator picks it
			landedWithSession(m, &method),
		)
		if !strings.Contains(method, "(passkey)") {
			t.Fatalf("this browser's session: %q, want a passkey sign-in", method)
		}
	})

	t.Run("ButtonWhenRequired", func(t *testing.T) {
		setAcmePolicy(t, m, func(p *platform.LoginPolicy) { p.PasskeyRequired = true })
		defer setAcmePolicy(t, m, func(p *platform.LoginPolicy) { p.PasskeyRequired = false })
		var passwordFields int
		run(t, ctx, signedOut(),
			gatewayEmail(base, "alice@acme.example"),
			waitShows(`#passkey-button`, "Sign in with a passkey"),
			chromedp.WaitVisible(`#passkey-button`, chromedp.ByID),
			chromedp.Evaluate(`document.querySelectorAll("input[type=password]").length`, &passwordFields),
			shot(t, ctx, "passkey-required"),
		)
		axeCheck(t, ctx, axe, "passkey-only sign-in page")
		run(t, ctx,
			chromedp.Click(`#passkey-button`, chromedp.ByID),
			waitShows(`[data-testid="role"]`, "owner"),
		)
		if passwordFields != 0 {
			t.Fatalf("a passkey-only organization's page asks for a password (%d fields)", passwordFields)
		}
	})

	t.Run("SecondFactor", func(t *testing.T) {
		setAcmePolicy(t, m, func(p *platform.LoginPolicy) { p.MFAForced = true })
		defer setAcmePolicy(t, m, func(p *platform.LoginPolicy) { p.MFAForced = false })
		var method string
		run(t, ctx, signedOut(),
			// the person does not pick the passkey from the address field: the password is typed
			webauthn.SetAutomaticPresenceSimulation(auth, false),
			gatewayEmail(base, "alice@acme.example"), providerPassword(DemoPassword),
			// the second-factor page's button, not the sign-in page's ("Sign
			// in with a passkey"), which stays visible until the password's
			// answer replaces the page
			waitShows(`#passkey-button`, "Use your passkey"),
			chromedp.WaitVisible(`#passkey-button`, chromedp.ByID),
			shot(t, ctx, "passkey-second-factor"),
		)
		axeCheck(t, ctx, axe, "second-factor page")
		run(t, ctx,
			webauthn.SetAutomaticPresenceSimulation(auth, true),
			chromedp.Click(`#passkey-button`, chromedp.ByID),
			landedWithSession(m, &method),
		)
		if !strings.Contains(method, "(password and passkey)") {
			t.Fatalf("this browser's session: %q", method)
		}
	})

	// D-reauth: past the proof window the account page asks to confirm
	// before removing a passkey; the passkey confirms, and the removal then
	// goes through
	t.Run("ConfirmBeforeRemoving", func(t *testing.T) {
		if _, err := m.Store.Conn().Exec(context.Background(), `UPDATE idp_sessions SET auth_time = $1, proved_at = NULL`,
			time.Now().Add(-idp.ProofWindow-time.Minute).UTC()); err != nil {
			t.Fatal(err)
		}
		var notice string
		run(t, ctx,
			chromedp.Navigate(m.Config.IssuerURL+"/ui/account"),
			chromedp.WaitVisible(`#confirm-needed`, chromedp.ByID),
			chromedp.Click(`.passkey-row form[action$="remove"] button`, chromedp.ByQuery),
			waitShows(`#confirm-notice`, "recent confirmation"),
			chromedp.WaitVisible(`#passkey-button`, chromedp.ByID),
			shot(t, ctx, "confirm-it-is-you"),
		)
		axeCheck(t, ctx, axe, "confirmation page")
		run(t, ctx,
			chromedp.Click(`#passkey-button`, chromedp.ByID),
			waitShows(`#account-notice`, "Confirmed"),
			textOf(`#account-notice`, &notice),
		)
		if !strings.Contains(notice, "5 minutes") {
			t.Fatalf("after the confirmation: %q", notice)
		}
	})

	t.Run("RenameAndRemove", func(t *testing.T) {
		var renamed, removed string
		run(t, ctx,
			chromedp.Navigate(m.Config.IssuerURL+"/ui/account"),
			chromedp.WaitVisible(`.passkey-row input[name=name]`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector(".passkey-row input[name=name]").value = ""`, nil),
			chromedp.SendKeys(`.passkey-row input[name=name]`, "Old laptop", chromedp.ByQuery),
			chromedp.Submit(`.passkey-row input[name=name]`, chromedp.ByQuery),
			waitShows(`#account-notice`, "renamed"),
			textOf(`#passkey-list`, &renamed),
			chromedp.Click(`.passkey-row form[action$="remove"] button`, chromedp.ByQuery),
			// the removal asks first, naming the passkey (D-passkey-names)
			waitShows(`#passkey-remove-name`, "Old laptop"),
			chromedp.Click(`#passkey-remove button`, chromedp.ByQuery),
			waitShows(`#account-notice`, "removed"),
			textOf(`#passkey-list`, &removed),
		)
		if !strings.Contains(renamed, "Old laptop") || !strings.Contains(removed, "No passkeys yet") {
			t.Fatalf("renamed %q, removed %q", renamed, removed)
		}
		// the removed passkey no longer signs in: the provider's page stays
		var errText string
		run(t, ctx, signedOut(),
			gatewayEmail(base, "alice@acme.example"),
			chromedp.WaitVisible(`#login-error`, chromedp.ByID),
			textOf(`#login-error`, &errText),
		)
		if !strings.Contains(errText, "could not sign you in") {
			t.Fatalf("removed passkey: %q", errText)
		}
	})

	// the passkeys' events in the audit log: the passkey's own, and the
	// sign-ins and the confirmation that used one (its amr names hwk)
	var actions []string
	rows, _, err := m.Store.AuditEvents(context.Background(), store.AuditQuery{Scope: authz.Filter{All: true}, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(rows) - 1; i >= 0; i-- {
		e := audit.FromRow(&rows[i])
		if e.Details.Method == "passkey" || strings.Contains(e.Details.AMR, "hwk") {
			actions = append(actions, e.Kind+"("+e.Details.Method+"):"+e.Outcome)
		}
	}
	want := []string{"passkey.added(passkey):success", "sign_in(passkey):success", "sign_in(passkey):success",
		"sign_in(password):success", "reauthentication(passkey):success", "passkey.renamed(passkey):success",
		"passkey.removed(passkey):success", "sign_in(passkey):failure"}
	if !slices.Equal(actions, want) {
		t.Fatalf("audit log: %v, want %v", actions, want)
	}
}

// landedWithSession waits for the console's portal, then reads on the
// provider's account page how this browser signed in.
func landedWithSession(m *Main, method *string) chromedp.Tasks {
	return chromedp.Tasks{
		waitShows(`[data-testid="role"]`, "owner"),
		chromedp.Navigate(m.Config.IssuerURL + "/ui/account"),
		chromedp.WaitVisible(`#sessions`, chromedp.ByID),
		textOf(`#sessions`, method),
	}
}

// setAcmePolicy changes the demo Acme organization's login policy.
func setAcmePolicy(t *testing.T, m *Main, change func(*platform.LoginPolicy)) {
	t.Helper()
	p, err := m.Store.LoginPolicy(context.Background(), DemoAcmeOrgID)
	if err != nil {
		t.Fatal(err)
	}
	change(p)
	if err := m.Store.PutLoginPolicy(context.Background(), p); err != nil {
		t.Fatal(err)
	}
}

// A person of an organization whose MFA takes only passkeys, who has none
// yet, adds one at sign-in after the password; the page says why, its
// no-script note gives way to the button, and the new passkey finishes the
// sign-in as the second factor. Its own provider: the policy is changed.
//
// spec: R1-idp
func TestBrowserPasskeyEnrolAtSignIn(t *testing.T) {
	t.Parallel()
	m := mustRunPasskeyMain(t)
	setAcmePolicy(t, m, func(p *platform.LoginPolicy) {
		p.PasskeyAllowed, p.MFAForced, p.MFAByPasskey, p.MFAByTOTP = true, true, true, false
	})
	ctx := mustBrowser(t)
	axe := axeSource(t)
	var auth webauthn.AuthenticatorID
	var why, method string
	var noteHidden bool
	run(t, ctx, virtualAuthenticator(&auth),
		gatewayEmail(m.Config.ConsoleURL+"/", "alice@acme.example"), providerPassword(DemoPassword),
		waitShows(`#passkey-enrol-button`, "Add a passkey"),
		chromedp.WaitVisible(`#passkey-enrol-button`, chromedp.ByID),
		textOf(`main.card`, &why),
		chromedp.Evaluate(`document.getElementById("passkey-needs-script").hidden`, &noteHidden),
		shot(t, ctx, "passkey-enrol-at-sign-in"),
	)
	if !strings.Contains(why, "Your organization requires a passkey") || !noteHidden {
		t.Fatalf("enrolment page: %q (no-script note hidden: %v)", why, noteHidden)
	}
	axeCheck(t, ctx, axe, "passkey enrolment at sign-in")
	run(t, ctx,
		chromedp.Click(`#passkey-enrol-button`, chromedp.ByID),
		landedWithSession(m, &method),
	)
	if !strings.Contains(method, "(password and passkey)") {
		t.Fatalf("this browser's session: %q", method)
	}
	keys, err := m.Store.Passkeys(context.Background(), demoAliceID)
	if err != nil || len(keys) != 1 {
		t.Fatalf("alice's passkeys after the sign-in: %d (%v)", len(keys), err)
	}
}
