package idp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Re-authentication on the account page (D-reauth). Every change to how
// the account signs in (password, e-mail address, the authenticator app
// and recovery codes, passkeys) needs a recent proof in this browser
// session: its sign-in, or a confirmation on PathAccountConfirm, within
// ProofWindow. A stolen session cookie alone changes nothing after that.
const (
	PathAccountConfirm        = "/ui/account/confirm"
	PathAccountConfirmOptions = "/ui/account/confirm/passkey-options"

	// ProofWindow is how long a sign-in or a confirmation lets the session
	// change how the account signs in.
	ProofWindow = 5 * time.Minute

	purposeReauth = "reauth" // a passkey confirming the account page's session

	msgConfirmFirst  = "Changing how you sign in needs a recent confirmation that it is you. Confirm it, then make the change again."
	msgConfirmFailed = "That did not confirm it is you. Try again."
)

// proofMethods are the ways an account confirms itself: what signs it in.
// The password only where it alone signs the account in: not beside an
// authenticator app, and not where a passkey is the account's second
// factor (forced MFA) or its only way in (passkeys required); a
// password then proves nothing a thief of the session and the password
// could not give.
type proofMethods struct {
	Password, Code, Passkey bool
}

func (m proofMethods) any() bool { return m.Password || m.Code || m.Passkey }

// proofMethods reads how u confirms itself now.
func (p *accountPages) proofMethods(ctx context.Context, u *platform.User) (proofMethods, error) {
	var m proofMethods
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		return m, err
	}
	if f, err := p.store.TOTP(ctx, u.ID); err == nil && f.Confirmed {
		m.Code = true
	}
	if policy.passkeys() {
		pu, err := p.passkeys.loadPasskeyUser(ctx, u)
		if err != nil {
			return m, err
		}
		m.Passkey = len(pu.cred) > 0
	}
	m.Password = policy.passwords() && u.PasswordHash != "" && !m.Code &&
		!(m.Passkey && !policy.passwordEnough())
	return m, nil
}

// recentProof reports whether the browser session signed in, or was
// confirmed, within ProofWindow.
func (p *accountPages) recentProof(s *store.Session) bool {
	if s == nil {
		return false
	}
	last := s.AuthTime
	if s.ProvedAt.After(last) {
		last = s.ProvedAt
	}
	return p.now().Sub(last) <= ProofWindow
}

// requireProof lets a change to how u signs in go on when this session
// has a recent proof; otherwise it answers the confirmation page (403,
// nothing changed) and reports false. next is where the confirmation
// returns to.
func (p *accountPages) requireProof(w http.ResponseWriter, r *http.Request, u *platform.User, next string) bool {
	if s := sessionFromContext(r.Context()); s != nil && p.recentProof(s) {
		return true
	}
	slog.InfoContext(r.Context(), "account change without a recent proof", "user_id", u.ID, "path", r.URL.Path)
	p.renderConfirm(w, r, http.StatusForbidden, u, next, msgConfirmFirst, "")
	return false
}

// recordProof starts the window again for this browser session.
func (p *accountPages) recordProof(ctx context.Context) error {
	s := sessionFromContext(ctx)
	if s == nil {
		return errors.New("no browser session to record a proof in")
	}
	now := p.now()
	if err := p.store.ProveSession(ctx, s.IDHash, now); err != nil {
		return err
	}
	s.ProvedAt = now
	return nil
}

// confirmNext is where a confirmation returns to: the account page, or
// the authenticator app's enrolment.
func confirmNext(next string) string {
	if next == PathAccountMFA {
		return next
	}
	return PathAccount
}

type confirmView struct {
	Org, Email, CSRF, Notice, Error, Next string
	Password, Code, Passkey, Recovery     bool
	Minutes                               int
}

func (p *accountPages) renderConfirm(w http.ResponseWriter, r *http.Request, status int, u *platform.User, next, notice, msg string) {
	ctx := r.Context()
	m, err := p.proofMethods(ctx, u)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	v := confirmView{Email: u.Email, CSRF: p.newCSRF(w), Notice: notice, Error: msg, Next: confirmNext(next),
		Password: m.Password, Code: m.Code, Passkey: m.Passkey && p.passkeysOn, Minutes: int(ProofWindow / time.Minute),
		Recovery: msg != "" && r.PostForm.Get("recovery") != ""}
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		v.Org = o.Name
	}
	if v.Passkey {
		p.renderPasskeyPage(w, r, status, "confirm.html", v)
		return
	}
	p.render(w, r, status, "confirm.html", v)
}

// accountConfirmPage asks the signed-in user to confirm it is them, with
// what signs the account in.
func (p *accountPages) accountConfirmPage(w http.ResponseWriter, r *http.Request) {
	u, ok := p.sessionUser(w, r)
	if !ok {
		return
	}
	p.renderConfirm(w, r, http.StatusOK, u, r.URL.Query().Get("next"), "", "")
}

// accountConfirmSubmit checks a confirmation: the password, a one-time or
// recovery code, or a passkey's answer, each only where it proves the
// account (proofMethods). Passwords and codes count toward the lockout
// like sign-in attempts, and the form shares the sign-in limit per client
// address.
func (p *accountPages) accountConfirmSubmit(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	next := confirmNext(r.PostForm.Get("next"))
	m, err := p.proofMethods(ctx, u)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	proved, how := false, ""
	switch {
	case m.Passkey && r.PostForm.Get("credential") != "":
		proved, err = p.passkeys.provePasskey(ctx, u, r.PostForm.Get("credential"))
		how = "passkey"
	case m.Code && r.PostForm.Get("code") != "":
		err = p.factors.checkSecondFactor(ctx, u, r.PostForm.Get("code"), r.PostForm.Get("recovery") != "")
		proved, how = err == nil, "code"
		if errors.Is(err, errBadCode) {
			err = nil
		}
	case m.Password && r.PostForm.Get("password") != "":
		proved, err = p.currentPassword(r, u, r.PostForm.Get("password"))
		how = "password"
	}
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	// the method the confirmation used (a passkey's records itself, in provePasskey)
	method, reason := how, reasonInvalidCredentials
	switch {
	case how == "code" || (how == "" && r.PostForm.Get("code") != ""):
		method, reason = codeMethod(r.PostForm.Get("recovery") != ""), reasonInvalidCode
	case how == "" && r.PostForm.Get("password") != "": // a password where it proves nothing
		method = methodPassword
	}
	if !proved {
		if how != "passkey" {
			p.reauthFailed(ctx, u, method, reason)
		}
		p.renderConfirm(w, r, http.StatusUnauthorized, u, next, "", msgConfirmFailed)
		return
	}
	if err := p.recordProof(ctx); err != nil {
		p.internalError(w, r, err)
		return
	}
	if how != "passkey" {
		e := about(audit.Reauthentication, u)
		e.Details.Method = method
		p.recordAfter(ctx, e)
	}
	slog.InfoContext(ctx, "account confirmed", "user_id", u.ID, "with", how)
	if next == PathAccount {
		next += "?done=confirmed"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// accountSession is the browser session and its user, when the session
// signed in a way the account's policy allows (sessionUser without a page).
func (p *accountPages) accountSession(ctx context.Context) (*store.Session, *platform.User, bool) {
	s := sessionFromContext(ctx)
	if s == nil {
		return nil, nil, false
	}
	u, err := p.user(ctx, s.UserID)
	if err != nil {
		return nil, nil, false
	}
	ok, _ := p.sessionAllowed(ctx, s, u)
	return s, u, ok
}

// quoted is a name the user gave, in quotes, for a notice.
func quoted(s string) string { return "“" + strings.TrimSpace(s) + "”" }
