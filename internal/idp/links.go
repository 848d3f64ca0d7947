package idp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Pages of the links sent by e-mail (D-reset): an invitation's set-password
// page, the forgot-password form, the reset page a reset or unlock link
// opens.
const (
	PathInvitation     = mail.PathInvitation
	PathPasswordReset  = mail.PathPasswordReset
	PathPasswordForgot = "/ui/password/forgot"
)

const (
	msgLinkInvalid = "The link has expired, has already been used, or was replaced by a newer one."
	msgTooMany     = "Too many sign-in attempts were made. If this address has an account, we have sent it instructions to unlock it."
)

// forgotLimit is how many reset links one address, and one account, may
// ask for per hour.
const forgotLimit = 3

// linkPage describes one kind of set-password link.
type linkPage struct {
	kind, action, title, intro, button string
}

var (
	invitationPage = linkPage{kind: store.TokenInvitation, action: PathInvitation, title: "Welcome: choose your password",
		intro: "You were invited. Choose a password to finish setting up your account.", button: "Set password and sign in"}
	resetPage = linkPage{kind: store.TokenReset, action: PathPasswordReset, title: "Choose a new password",
		intro: "Choosing a new password signs you out everywhere else and unlocks your account.", button: "Set new password"}
)

type setPasswordView struct {
	Title, Intro, Button, Action string
	Org, Email                   string
	Token, CSRF                  string
	MinLength                    int
	CheckCommon                  bool
	Errors                       []string
	Brand                        brandView // the user's organization's (D-branding)
}

type doneLink struct {
	Name, URL string
	Secondary bool
}

type doneView struct {
	Org, Title, Message string
	Links               []doneLink
	Brand               brandView // the user's organization's (D-branding)
}

// linkUser loads the user, organization and policy of a valid link, or
// answers the styled error page.
func (p *accountPages) linkUser(w http.ResponseWriter, r *http.Request, pg linkPage, token string) (*platform.User, string, loginRules, bool) {
	ctx := r.Context()
	if token == "" || len(token) > 128 {
		p.renderError(w, r, http.StatusNotFound, "This link is not valid", msgLinkInvalid)
		return nil, "", loginRules{}, false
	}
	tok, err := p.store.AccountToken(ctx, mail.TokenHash(token), pg.kind, p.now())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		p.renderError(w, r, http.StatusNotFound, "This link is not valid", msgLinkInvalid)
		return nil, "", loginRules{}, false
	} else if err != nil {
		p.internalError(w, r, err)
		return nil, "", loginRules{}, false
	}
	u, err := p.user(ctx, tok.UserID)
	if err != nil {
		p.internalError(w, r, err)
		return nil, "", loginRules{}, false
	}
	org := ""
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		org = o.Name
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return nil, "", loginRules{}, false
	}
	return u, org, policy, true
}

func (p *accountPages) renderSetPassword(w http.ResponseWriter, r *http.Request, status int, pg linkPage, u *platform.User, org string,
	policy loginRules, token string, errs []string) {
	p.render(w, r, status, "set_password.html", setPasswordView{Title: pg.title, Intro: pg.intro, Button: pg.button,
		Action: pg.action, Org: org, Email: u.Email, Token: token, CSRF: p.newCSRF(w), MinLength: policy.PasswordMinLength,
		CheckCommon: policy.PasswordCheckCommon, Errors: errs, Brand: p.brands().ofOrg(r.Context(), u.OrgID)})
}

// setPasswordPage shows the form of a valid link; opening it spends nothing
// (mail scanners open links too).
func (p *accountPages) setPasswordPage(pg linkPage) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token := r.URL.Query().Get("token")
		u, org, policy, ok := p.linkUser(w, r, pg, token)
		if !ok {
			return
		}
		if !policy.passwords() {
			p.renderSSOOnly(w, r, http.StatusOK, pg, u, org)
			return
		}
		p.renderSetPassword(w, r, http.StatusOK, pg, u, org, policy, token, nil)
	}
}

// renderSSOOnly answers a link of an organization that allows no password
// sign-in (D-account-policy): there is no password to set; the user signs
// in through the organization's identity provider, from the sign-in page.
// The link stays unspent.
func (p *accountPages) renderSSOOnly(w http.ResponseWriter, r *http.Request, status int, pg linkPage, u *platform.User, org string) {
	name := org
	if name == "" {
		name = p.tr(r, "Your organization")
	}
	v := doneView{Org: org, Brand: p.brands().ofOrg(r.Context(), u.OrgID), Title: "Sign in with your organization's account",
		Message: p.trf(r, "%s signs in through its own identity provider, not with a password: there is no password to set here. Sign in with your organization's account.", name)}
	if pg.kind == store.TokenInvitation {
		v.Message = p.tr(r, "You were invited.") + " " + v.Message
	}
	if p.cfg.ConsoleURL != "" {
		v.Links = append(v.Links, doneLink{Name: "Sign in", URL: p.cfg.ConsoleURL + "/"})
	}
	p.render(w, r, status, "done.html", v)
}

// setPasswordSubmit checks the new password against the organization's
// policy, then spends the link and sets it (SetPasswordByLink). An
// invitation signs the user in; a reset ends every session and token of
// the user and asks to sign in again.
func (p *accountPages) setPasswordSubmit(pg linkPage) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if !p.postedAttempt(w, r, "Your session on this page has ended. Open the link from the e-mail again.") {
			return
		}
		token := r.PostForm.Get("token")
		u, org, policy, ok := p.linkUser(w, r, pg, token)
		if !ok {
			return
		}
		if !policy.passwords() { // nothing is set or spent
			p.renderSSOOnly(w, r, http.StatusForbidden, pg, u, org)
			return
		}
		password := r.PostForm.Get("password")
		if password != r.PostForm.Get("confirm") {
			p.renderSetPassword(w, r, http.StatusBadRequest, pg, u, org, policy, token, []string{"The two passwords are not the same."})
			return
		}
		if err := CheckPassword(policy.LoginPolicy, password, u.Email); err != nil {
			p.renderSetPassword(w, r, http.StatusBadRequest, pg, u, org, policy, token, passwordProblems(p.printer(r), err, policy.PasswordMinLength))
			return
		}
		hash, err := HashPassword(password, p.cfg.Password)
		if err != nil {
			p.internalError(w, r, err)
			return
		}
		err = p.store.InTx(ctx, func(tx *store.Store) error {
			if _, err := tx.SetPasswordByLink(ctx, mail.TokenHash(token), pg.kind, hash, p.now()); err != nil {
				return err
			}
			return p.recordLinkUsed(ctx, tx, pg, u)
		})
		if p.failed(w, r, err, http.StatusNotFound, "This link is not valid", msgLinkInvalid) {
			return
		}
		slog.InfoContext(ctx, "password set through a link", "user_id", u.ID, "kind", pg.kind)
		v := doneView{Org: org, Brand: p.brands().ofOrg(ctx, u.OrgID)}
		signIn := signInEvent(u, "", "")
		signIn.Details = audit.Details{Method: "link", AMR: "pwd"}
		if pg.kind == store.TokenInvitation {
			if _, err := p.startSession(w, r, u.ID, []string{"pwd"}, &signIn); err != nil {
				p.internalError(w, r, err)
				return
			}
			v.Title, v.Message = "You are signed in", p.trf(r, "Your password is set and you are signed in as %s.", u.Email)
		} else if policy.passkeysRequired() {
			// the link proved the mailbox: this browser may add the passkey the organization requires
			if _, err := p.startSession(w, r, u.ID, []string{"pwd"}, &signIn); err != nil {
				p.internalError(w, r, err)
				return
			}
			v.Title, v.Message = "Add a passkey", "Your password was changed and you were signed out everywhere. Your organization signs in with passkeys: add one now on your account page."
			v.Links = append(v.Links, doneLink{Name: "Add a passkey", URL: PathAccount + "#passkeys"})
		} else {
			v.Title, v.Message = "Your password was changed", "You were signed out everywhere. Sign in again with your new password."
		}
		if p.cfg.ConsoleURL != "" {
			v.Links = append(v.Links, doneLink{Name: "Continue to the console", URL: p.cfg.ConsoleURL + "/"})
		}
		if pg.kind == store.TokenInvitation {
			v.Links = append(v.Links, doneLink{Name: "Your account", URL: PathAccount, Secondary: true})
		}
		p.render(w, r, http.StatusOK, "done.html", v)
	}
}

// recordLinkUsed records, through tx, what a link that set u's password
// did: an invitation accepted, or a password reset, which also lifts a
// lock in force (account.unlocked, password_reset).
func (p *accountPages) recordLinkUsed(ctx context.Context, tx *store.Store, pg linkPage, u *platform.User) error {
	if pg.kind == store.TokenInvitation {
		return p.record(ctx, tx, about(audit.InvitationAccepted, u))
	}
	if err := p.record(ctx, tx, about(audit.PasswordReset, u)); err != nil {
		return err
	}
	if u.LockedUntil.After(p.now()) {
		e := about(audit.AccountUnlocked, u)
		e.Reason = "password_reset"
		return p.record(ctx, tx, e)
	}
	return nil
}

type forgotView struct {
	CSRF, Email, Error, AuthRequestID string
	Sent                              bool
	Brand                             brandView // the login transaction's (brands.ofPage)
}

// forgotPage shows the forgot-password form.
func (p *accountPages) forgotPage(w http.ResponseWriter, r *http.Request) {
	p.render(w, r, http.StatusOK, "forgot.html", forgotView{CSRF: p.newCSRF(w), AuthRequestID: authRequestParam(r.URL.Query().Get("authRequestID")),
		Brand: p.brands().ofPage(r)})
}

// forgotSubmit answers the same page whatever the address (no account
// enumeration): the accounts of the address are looked up and mailed after
// the answer is written, off the request (later), so neither the answer
// nor its timing tells whether one exists. Requests are limited per client
// address (the sign-in limit), per address and per account (forgotLimit an
// hour).
func (p *accountPages) forgotSubmit(w http.ResponseWriter, r *http.Request) {
	if !p.postedAttempt(w, r, "Your session on this page has ended. Reload the page and try again.") {
		return
	}
	email := platform.NormalizeEmail(r.PostForm.Get("email"))
	v := forgotView{CSRF: p.newCSRF(w), Email: email, AuthRequestID: authRequestParam(r.PostForm.Get("authRequestID")),
		Brand: p.brands().ofPage(r)}
	if !platform.ValidEmail(email) {
		v.Error = "Enter the e-mail address you sign in with."
		p.render(w, r, http.StatusBadRequest, "forgot.html", v)
		return
	}
	v.Sent = true
	p.later(r.Context(), func(ctx context.Context) error { return p.factors.sendResetLinks(ctx, email, store.TokenReset) })
	p.render(w, r, http.StatusOK, "forgot.html", v)
}

// authRequestParam keeps a login transaction id for a "back to sign-in"
// link, when it looks like one.
func authRequestParam(id string) string {
	if len(id) > 64 {
		return ""
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return ""
		}
	}
	return id
}

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:16])
}
