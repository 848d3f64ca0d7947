package idp

import (
	"net/http"

	"github.com/platform/platform/internal/platform"
)

type accountView struct {
	Email   string
	Enabled bool
}

// accountMFA lets a signed-in user turn on two-step verification. The
// enrolment (its key shown once) begins only with a recent proof
// (D-reauth).
func (p *accountPages) accountMFA(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u, ok := p.sessionUser(w, r)
	if !ok {
		return
	}
	if f, err := p.store.TOTP(ctx, u.ID); err == nil && f.Confirmed {
		p.render(w, r, http.StatusOK, "account.html", accountView{Email: u.Email, Enabled: true})
		return
	}
	if !p.requireProof(w, r, u, PathAccountMFA) {
		return
	}
	enrol, err := p.factors.beginTOTP(ctx, u.ID, u.Email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.renderSetup(w, r, http.StatusOK, PathAccountMFA, "", enrol, "", p.brands().ofOrg(ctx, u.OrgID))
}

// accountMFASubmit confirms the enrolment with a first code of its key
// (which only a proven session was shown) and shows the recovery codes
// once; the holder is mailed.
func (p *accountPages) accountMFASubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !p.postedForm(w, r, "Reload the page and try again.") {
		return
	}
	u, ok := p.sessionUser(w, r)
	if !ok {
		return
	}
	if f, err := p.store.TOTP(ctx, u.ID); err == nil && f.Confirmed { // nothing to confirm: no new codes this way
		p.render(w, r, http.StatusOK, "account.html", accountView{Email: u.Email, Enabled: true})
		return
	}
	if !p.factors.confirmEnrolment(w, r, u, PathAccountMFA, "") {
		return
	}
	p.showNewCodes(w, r, u, "Two-step verification with an authenticator app was turned on for your account.", true)
}

// sessionUser is the user of the browser session, when the session signed
// in a way the account's policy still allows (D-account-policy); otherwise
// it answers the "sign in first" page.
func (p *accountPages) sessionUser(w http.ResponseWriter, r *http.Request) (*platform.User, bool) {
	if s := sessionFromContext(r.Context()); s != nil {
		if u, err := p.user(r.Context(), s.UserID); err == nil {
			if ok, _ := p.sessionAllowed(r.Context(), s, u); ok {
				return u, true
			}
		}
	}
	p.renderError(w, r, http.StatusUnauthorized, "Sign in first", "Sign in to an application, then come back to this page.")
	return nil, false
}
