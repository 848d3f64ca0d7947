package idp

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/store"
)

// Enrolment at sign-in: an organization whose MFA takes passkeys and no
// authenticator app would otherwise turn away a user who has no passkey
// yet. After the first factor the user adds one, bound to the login
// transaction (its browser, its CSRF token, its pending user), and the
// new passkey is the second factor of this sign-in (D-passkeys).
const (
	PathLoginPasskeyEnrol        = "/ui/login/passkey/enrol"
	PathLoginPasskeyEnrolOptions = "/ui/login/passkey/enrol/options"

	purposeEnrol = "enrol" // enrolment of the login transaction's pending user
)

// passkeyEnrolView asks the user who passed the first step to add a passkey.
type passkeyEnrolView struct {
	AuthRequestID, CSRF, Error string
	ForApplication             bool // the application asked for a passkey (acr), not the organization
	Brand                      brandView
}

// enrolAtSignIn reports whether login transaction a has a user without a
// passkey add one at sign-in under policy: the organization takes passkeys
// and either the application asks for phishing-resistant authentication
// (acr_values, D-step-up), which only a passkey gives, or MFA is forced,
// passkeys satisfy it and an authenticator app does not (that one is set
// up at sign-in instead).
func (p *passkeys) enrolAtSignIn(a *store.AuthRequest, policy loginRules) bool {
	if p.webauthn == nil || !policy.passkeys() {
		return false
	}
	return a.ACR == ACRPhishingResistant || (policy.mfaForced() && policy.passkeyIsMFA() && !policy.totpIsMFA())
}

// enrolUser is the user a transaction's enrolment is for: the one who
// passed its first step, while the policy still asks for the enrolment
// and the user still has no passkey (one who has must use it).
// errPasskeyFailed otherwise.
func (p *passkeys) enrolUser(ctx context.Context, a *store.AuthRequest) (*passkeyUser, error) {
	if a.Done {
		return nil, errPasskeyFailed
	}
	pu, err := p.pendingUser(ctx, a, func(policy loginRules) bool { return p.enrolAtSignIn(a, policy) })
	if err != nil {
		return nil, err
	}
	if len(pu.cred) > 0 {
		return nil, errPasskeyFailed
	}
	return pu, nil
}

// renderEnrol shows the enrolment page of login transaction a.
func (p *passkeys) renderEnrol(w http.ResponseWriter, r *http.Request, status int, a *store.AuthRequest, userOrgID, msg string) {
	p.renderPasskeyPage(w, r, status, "passkey_enrol.html", passkeyEnrolView{AuthRequestID: a.ID, CSRF: p.newCSRF(w),
		Error: msg, ForApplication: a.ACR == ACRPhishingResistant, Brand: p.brands().ofTransaction(r.Context(), a, userOrgID)})
}

// signInEnrolOptions begins the enrolment of a login transaction's
// pending user; the ceremony belongs to the transaction, which is bound
// to its browser.
func (p *passkeys) signInEnrolOptions(w http.ResponseWriter, r *http.Request) {
	if !p.beginOptions(w, r, "Reload the page and try again.") {
		return
	}
	a, err := p.login.boundRequest(r, r.PostForm.Get("authRequestID"))
	if err != nil {
		p.optionsError(w, r, http.StatusForbidden, "Go back to the application and start again.")
		return
	}
	pu, err := p.enrolUser(r.Context(), a)
	if err != nil {
		p.optionsError(w, r, http.StatusForbidden, "Go back to the application and start again.")
		return
	}
	opts, sess, err := p.webauthn.BeginRegistration(pu, registrationOptions(pu)...)
	p.sendOptions(r, w, ceremonyOwner(a), purposeEnrol, opts, sess, err)
}

// signInEnrol stores the passkey the browser created for the transaction's
// enrolment and finishes the sign-in with it as the second factor.
func (p *passkeys) signInEnrol(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.login.formRequest(w, r)
	if !ok {
		return
	}
	user, ok := p.login.pendingUser(w, r, a)
	if !ok {
		return
	}
	if _, err := p.enrolUser(ctx, a); errors.Is(err, errPasskeyFailed) {
		p.passkeyEvent(ctx, user, audit.PasskeyAdded, "", "enrolment_not_offered")
		p.renderError(w, r, http.StatusForbidden, "Second step not available", "Go back to the application and start again.")
		return
	} else if err != nil {
		p.internalError(w, r, err)
		return
	}
	raw := r.PostForm.Get("credential")
	if raw == "" {
		p.renderEnrol(w, r, http.StatusBadRequest, a, user.OrgID, "Adding a passkey needs a browser that supports passkeys, with JavaScript on.")
		return
	}
	err := p.enrol(r, user, ceremonyOwner(a), purposeEnrol, raw, "")
	if errors.Is(err, errPasskeyFailed) || errors.Is(err, errPasskeysFull) {
		p.passkeySignInFailed(ctx, user, a.ClientID, factorSecond, "passkey_not_added")
		p.renderEnrol(w, r, http.StatusBadRequest, a, user.OrgID, "The passkey could not be added. Try again.")
		return
	} else if err != nil {
		p.internalError(w, r, err)
		return
	}
	first := a.PendingAMR
	if len(first) == 0 {
		first = []string{"pwd"}
	}
	p.login.finishLogin(w, r, a, user.ID, append(slices.Clone(first), amrPasskey...))
}
