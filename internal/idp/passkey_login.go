package idp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"
	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Paths of the passkey steps. The options endpoints answer JSON to the
// provider's own script; every other step is a form post answered with a
// page, like the password form.
const (
	PathLoginPasskey           = "/ui/login/passkey"
	PathLoginPasskeyOptions    = "/ui/login/passkey/options"
	PathAccountPasskeys        = "/ui/account/passkeys"
	PathAccountPasskeysOptions = "/ui/account/passkeys/options"
	PathAccountPasskeyRename   = "/ui/account/passkeys/rename"
	PathAccountPasskeyRemove   = "/ui/account/passkeys/remove"
	PathPasskeyScript          = "/ui/static/passkey.js"

	msgPasskeyFailed       = "This passkey could not sign you in."
	msgPasskeyTooMany      = "Too many passkey requests came from your network. Wait a minute, then try again."
	msgSecondFactorRefused = "Your organization accepts another kind of second step (a passkey, or its identity provider's), and you have none here. Ask your organization's administrator for help."
	msgPasskeyRequired     = "Your organization signs in with passkeys. Use your passkey; if you have none yet, choose “Forgot your password?” for a link that lets you add one."

	stepSecond = "second" // the passkey is the second factor after a password
)

// routes serves the passkey ceremonies of sign-in and of the account page.
func (p *passkeys) routes(r chi.Router) {
	r.Post(PathLoginPasskeyOptions, p.loginPasskeyOptions)
	r.Post(PathLoginPasskey, p.loginPasskey)
	r.Post(PathAccountPasskeysOptions, p.accountPasskeyOptions)
	r.Post(PathAccountPasskeys, p.accountPasskeyAdd)
	r.Post(PathAccountPasskeyRename, p.accountPasskeyRename)
	r.Post(PathAccountPasskeyRemove, p.accountPasskeyRemove)
	r.Post(PathAccountConfirmOptions, p.accountConfirmOptions)
	r.Post(PathLoginPasskeyEnrolOptions, p.signInEnrolOptions)
	r.Post(PathLoginPasskeyEnrol, p.signInEnrol)
}

// ceremonyOwner names the login transaction a ceremony belongs to; the
// transaction is bound to its browser, so the ceremony is too.
func ceremonyOwner(a *store.AuthRequest) string { return "ar:" + a.ID }

// writeOptions answers the options of a ceremony to the passkey script.
func writeOptions(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// optionsError answers a ceremony's options request with msg in the
// page's language.
func (p *core) optionsError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	writeOptions(w, status, map[string]string{"error": p.tr(r, msg)})
}

// beginOptions checks a ceremony's beginning: the form and its CSRF token
// (403 with expired otherwise), then the client address's limit
// (LoginRateLimit per minute, a counter of its own so that autofill on
// every page view does not spend the sign-in attempts; 429 when it is
// spent): each beginning writes a challenge.
func (p *passkeys) beginOptions(w http.ResponseWriter, r *http.Request, expired string) bool {
	if err := r.ParseForm(); err != nil || !p.validCSRF(r) {
		p.optionsError(w, r, http.StatusForbidden, expired)
		return false
	}
	if p.allow(w, r, "passkey-options") {
		return true
	}
	p.optionsError(w, r, http.StatusTooManyRequests, msgPasskeyTooMany)
	return false
}

// accountOptions begins a ceremony of the signed-in account: beginOptions,
// then the browser's session and its user (401 without one).
func (p *passkeys) accountOptions(w http.ResponseWriter, r *http.Request) (*store.Session, *platform.User, bool) {
	if !p.beginOptions(w, r, msgAccountFormExpired) {
		return nil, nil, false
	}
	s, u, ok := p.account.accountSession(r.Context())
	if !ok {
		p.optionsError(w, r, http.StatusUnauthorized, "Sign in first.")
	}
	return s, u, ok
}

// loginPasskeyOptions begins a passkey sign-in of a login transaction:
// discoverable (any passkey of this provider, no address typed) for the
// first factor, the pending user's passkeys for the second.
func (p *passkeys) loginPasskeyOptions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !p.beginOptions(w, r, "Reload the page and try again.") {
		return
	}
	a, err := p.login.boundRequest(r, r.PostForm.Get("authRequestID"))
	if err != nil || a.Done {
		p.optionsError(w, r, http.StatusForbidden, "Go back to the application and start again.")
		return
	}
	uv := webauthn.WithUserVerification(protocol.VerificationRequired)
	var opts *protocol.CredentialAssertion
	var sess *webauthn.SessionData
	purpose := purposeLogin
	if r.PostForm.Get("step") == stepSecond {
		purpose = purposeMFA
		pu, perr := p.pendingPasskeyUser(ctx, a)
		if perr != nil || len(pu.cred) == 0 {
			p.optionsError(w, r, http.StatusForbidden, "Go back to the application and start again.")
			return
		}
		opts, sess, err = p.webauthn.BeginLogin(pu, uv)
	} else {
		v, verr := p.login.loginOptions(ctx, a)
		if verr != nil || !v.Passkey {
			p.optionsError(w, r, http.StatusForbidden, "Passkeys are not offered here.")
			return
		}
		opts, sess, err = p.webauthn.BeginDiscoverableLogin(uv)
	}
	p.sendOptions(r, w, ceremonyOwner(a), purpose, opts, sess, err)
}

// pendingPasskeyUser is the user who passed the password step, with their
// passkeys.
func (p *passkeys) pendingPasskeyUser(ctx context.Context, a *store.AuthRequest) (*passkeyUser, error) {
	return p.pendingUser(ctx, a, loginRules.passkeys)
}

// pendingUser is the passkey user of whoever passed transaction a's first
// step, while its organization's login rules satisfy allowed;
// errPasskeyFailed without passkeys, without such a user, or when the rules
// refuse.
func (p *passkeys) pendingUser(ctx context.Context, a *store.AuthRequest, allowed func(loginRules) bool) (*passkeyUser, error) {
	if a.PendingUserID == "" || p.webauthn == nil {
		return nil, errPasskeyFailed
	}
	u, err := p.user(ctx, a.PendingUserID)
	if err != nil {
		return nil, err
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return nil, err
	}
	if !allowed(policy) {
		return nil, errPasskeyFailed
	}
	return p.loadPasskeyUser(ctx, u)
}

// loginPasskey checks the passkey's answer of a login transaction.
func (p *passkeys) loginPasskey(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.login.formRequest(w, r)
	if !ok {
		return
	}
	if r.PostForm.Get("step") == stepSecond {
		p.secondFactorPasskey(w, r, a)
		return
	}
	v, err := p.login.loginOptions(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if !v.Passkey {
		p.login.renderLogin(w, r, http.StatusForbidden, v, msgPasskeyFailed)
		return
	}
	u, err := p.checkPasskey(ctx, a, r.PostForm.Get("credential"))
	if p.stepFailed(w, r, err, func(string) {
		v.PasskeyFailed = true
		p.login.renderLogin(w, r, http.StatusUnauthorized, v, msgPasskeyFailed)
	}, "") {
		return
	}
	p.login.afterFirstFactor(w, r, a, u, amrPasskey, loginRules.passkeyIsMFA)
}

// checkPasskey verifies a discoverable assertion against the transaction's
// challenge (taken once): the credential must be registered to the user
// its user handle names, that user's organization must allow passkeys and
// be the org scope's, and the counter must advance. Every outcome is
// audited. errPasskeyFailed for any refusal.
func (p *passkeys) checkPasskey(ctx context.Context, a *store.AuthRequest, raw string) (*platform.User, error) {
	sess, err := p.takeCeremony(ctx, ceremonyOwner(a), purposeLogin)
	if err != nil {
		if errors.Is(err, errPasskeyFailed) {
			p.passkeySignInFailed(ctx, nil, a.ClientID, factorFirst, "no_open_challenge")
		}
		return nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes([]byte(raw))
	if err != nil {
		p.passkeySignInFailed(ctx, nil, a.ClientID, factorFirst, "malformed_answer")
		return nil, errPasskeyFailed
	}
	var pu *passkeyUser
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		row, err := p.store.PasskeyByCredentialID(ctx, rawID)
		if err != nil {
			return nil, err
		}
		if row.UserID != string(userHandle) {
			return nil, errors.New("the credential is registered to another user")
		}
		u, err := p.user(ctx, row.UserID)
		if err != nil {
			return nil, err
		}
		if pu, err = p.loadPasskeyUser(ctx, u); err != nil {
			return nil, err
		}
		return pu, nil
	}
	_, cred, err := p.webauthn.ValidatePasskeyLogin(handler, *sess, parsed)
	if err != nil {
		var who *platform.User
		if pu != nil {
			who = pu.u
		}
		p.passkeySignInFailed(ctx, who, a.ClientID, factorFirst, passkeyReason(ctx, err))
		return nil, errPasskeyFailed
	}
	policy, err := p.loginRules(ctx, pu.u.OrgID)
	if err != nil {
		return nil, err
	}
	if !policy.passkeys() {
		p.passkeySignInFailed(ctx, pu.u, a.ClientID, factorFirst, "passkeys_not_allowed")
		return nil, errPasskeyFailed
	}
	if org := orgScope(a.Scopes); org != "" && org != pu.u.OrgID {
		p.passkeySignInFailed(ctx, pu.u, a.ClientID, factorFirst, "other_organization")
		return nil, errPasskeyFailed
	}
	if _, err := p.recordUse(ctx, pu, cred); err != nil {
		return nil, err
	}
	return pu.u, nil // the sign-in is recorded when its session starts
}

// secondFactorPasskey checks a passkey of the user who passed the password
// step: one of that user's own passkeys, against the transaction's
// challenge.
func (p *passkeys) secondFactorPasskey(w http.ResponseWriter, r *http.Request, a *store.AuthRequest) {
	ctx := r.Context()
	user, ok := p.login.pendingUser(w, r, a)
	if !ok {
		return
	}
	hasTOTP := false
	if f, err := p.store.TOTP(ctx, user.ID); err == nil && f.Confirmed {
		hasTOTP = true
	}
	fail := func(reason string) {
		p.passkeySignInFailed(ctx, user, a.ClientID, factorSecond, reason)
		p.renderSecondFactor(w, r, http.StatusUnauthorized, a.ID, p.brands().ofOrg(r.Context(), orgScope(a.Scopes)), hasTOTP, true, msgPasskeyFailed)
	}
	pu, err := p.pendingPasskeyUser(ctx, a)
	if p.stepFailed(w, r, err, fail, "passkeys_not_allowed") {
		return
	}
	sess, err := p.takeCeremony(ctx, ceremonyOwner(a), purposeMFA)
	if p.stepFailed(w, r, err, fail, "no_open_challenge") {
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes([]byte(r.PostForm.Get("credential")))
	if err != nil {
		fail("malformed_answer")
		return
	}
	cred, err := p.webauthn.ValidateLogin(pu, *sess, parsed)
	if err != nil {
		fail(passkeyReason(ctx, err))
		return
	}
	_, err = p.recordUse(ctx, pu, cred)
	if p.stepFailed(w, r, err, func(string) {
		p.renderSecondFactor(w, r, http.StatusUnauthorized, a.ID, p.brands().ofOrg(r.Context(), orgScope(a.Scopes)), hasTOTP, true, msgPasskeyFailed)
	}, "") {
		return
	}
	first := a.PendingAMR
	if len(first) == 0 {
		first = []string{"pwd"}
	}
	p.login.finishLogin(w, r, a, user.ID, append(slices.Clone(first), "hwk", "mfa"))
}

// passkeyReason is the audit log's reason for an answer the library
// refused, assertion_refused; the library's own words go to the log.
func passkeyReason(ctx context.Context, err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		slog.InfoContext(ctx, "passkey answer refused", "details", pe.Details)
	}
	return "assertion_refused"
}

// hasPasskey reports whether a user can use a passkey as second factor.
func (p *passkeys) hasPasskey(ctx context.Context, policy loginRules, u *platform.User) (bool, error) {
	if !policy.passkeys() {
		return false, nil
	}
	pu, err := p.loadPasskeyUser(ctx, u)
	if err != nil {
		return false, err
	}
	return len(pu.cred) > 0, nil
}

// renderSecondFactor asks for the second factor the user has: a code from
// the authenticator app, a passkey, or either.
func (p *passkeys) renderSecondFactor(w http.ResponseWriter, r *http.Request, status int, authRequestID string, brand brandView, hasTOTP, hasPasskey bool, msg string) {
	v := otpView{AuthRequestID: authRequestID, CSRF: p.newCSRF(w), Error: msg, NoTOTP: !hasTOTP, Passkey: hasPasskey, Brand: brand}
	if hasPasskey {
		p.renderPasskeyPage(w, r, status, "otp.html", v)
		return
	}
	p.render(w, r, status, "otp.html", v)
}
