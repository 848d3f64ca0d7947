package idp

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// accountPages are the signed-in user's own pages (/ui/account and its
// confirmation step, e-mail verification) and the invitation and reset
// links.
type accountPages struct {
	*core
	factors  *factors
	passkeys *passkeys
}

// The self-service account page and its forms (server-rendered, every
// form with the CSRF cookie).
const (
	PathAccount            = mail.PathAccount
	PathAccountPassword    = "/ui/account/password"
	PathAccountEndOthers   = "/ui/account/sessions/end-others"
	PathAccountEndSession  = "/ui/account/sessions/end"
	PathAccountRevokeGrant = "/ui/account/grants/revoke"
	PathAccountRecovery    = "/ui/account/recovery-codes"
	PathAccountMFAReset    = "/ui/account/mfa/reset"
	msgCurrentPasswordBad  = "The current password is incorrect."
	msgNoPasswords         = "Your organization signs in through its identity provider: there is no password here to change."
	msgAccountFormExpired  = "Your session on this page has ended. Reload the page and try again."
)

type sessionRow struct {
	Current      bool
	Since, Until time.Time
	Method       string // an English key of the catalog
	// SID names the session in its sign-out form; Browser and System are
	// read from its User-Agent, Network is its last address's /24 or /48
	// and LastUsed when that was (D-your-sessions).
	SID, Browser, System, Network string
	LastUsed                      time.Time
}

// grantRow is one application the user is signed in to (D-your-sessions).
type grantRow struct {
	ID, App           string
	Granted, LastUsed time.Time
	Current           bool // granted through this browser's session
}

type accountHomeView struct {
	Org, Email, CSRF, Notice, Error  string
	MinLength                        int
	CheckCommon, MFA, Others         bool
	Sessions                         []sessionRow
	PasskeysAllowed, PasskeyRequired bool
	Passkeys                         []passkeyRow
	// Confirmed: the session has a recent proof (D-reauth), for
	// ProofMinutes; PasswordAllowed: the organization signs in with
	// passwords; HasPassword: this account has one to give.
	Confirmed, PasswordAllowed, HasPassword bool
	ProofMinutes                            int
	Grants                                  []grantRow // the applications the user is signed in to
	Brand                                   brandView  // the brand of the user's organization (D-branding)
	// Locale is the user's saved language ("" for the browser's),
	// Languages the ones to choose from.
	Locale    string
	Languages []languageOption
	// Frame leads back to the console the user came from (D-account-frame).
	Frame accountFrame
}

// Heading and Download complete the recovery-codes page for a login's
// enrolment (login.go's recoveryView).
func (v recoveryView) Heading() string        { return "Two-step verification is on" }
func (v recoveryView) Download() template.URL { return codesDownload(v.Codes) }

// newCodesView is the recovery-codes page after regenerating them.
type newCodesView struct {
	Codes       []string
	ContinueURL string
	Brand       brandView
}

func (v newCodesView) Heading() string        { return "Your new recovery codes" }
func (v newCodesView) Download() template.URL { return codesDownload(v.Codes) }

// codesDownload is a data: URL of the codes as a text file, for the
// download link (no script needed).
func codesDownload(codes []string) template.URL {
	// a data: URL built here from codes of [a-z0-9-] only; not user input
	return template.URL("data:text/plain;charset=utf-8," + url.PathEscape(strings.Join(codes, "\n")+"\n"))
}

// routes serves the account pages, e-mail verification, and the
// invitation, reset and forgot-password pages.
func (p *accountPages) routes(r chi.Router) {
	r.Get(PathInvitation, p.setPasswordPage(invitationPage))
	r.Post(PathInvitation, p.setPasswordSubmit(invitationPage))
	r.Get(PathPasswordReset, p.setPasswordPage(resetPage))
	r.Post(PathPasswordReset, p.setPasswordSubmit(resetPage))
	r.Get(PathPasswordForgot, p.forgotPage)
	r.Post(PathPasswordForgot, p.forgotSubmit)
	r.Get(PathAccount, p.accountHome)
	r.Post(PathAccountPassword, p.accountPassword)
	r.Post(PathAccountEndOthers, p.accountEndOthers)
	r.Post(PathAccountEndSession, p.accountEndSession)
	r.Post(PathAccountRevokeGrant, p.accountRevokeGrant)
	r.Post(PathAccountLanguage, p.accountLanguage)
	r.Post(PathAccountRecovery, p.accountRecoveryCodes)
	r.Post(PathAccountMFAReset, p.accountMFAReset)
	r.Post(PathAccountEmail, p.accountEmail)
	r.Get(PathAccountConfirm, p.accountConfirmPage)
	r.Post(PathAccountConfirm, p.accountConfirmSubmit)
	r.Get(PathVerifyEmail, p.verifyPage)
	r.Post(PathVerifyEmail, p.verifySubmit)
	r.Get(PathAccountMFA, p.accountMFA)
	r.Post(PathAccountMFA, p.accountMFASubmit)
}

// accountHome shows the account page of the signed-in user.
func (p *accountPages) accountHome(w http.ResponseWriter, r *http.Request) {
	u, ok := p.sessionUser(w, r)
	if !ok {
		return
	}
	p.renderAccount(w, r, http.StatusOK, u, r.URL.Query().Get("done"), "")
}

var accountNotices = map[string]string{
	"password": "Your password was changed. You were signed out everywhere else.",
	"sessions": "You were signed out everywhere else.",
	"session":  "That browser was signed out. Its next visit asks it to sign in again.",
	"grant":    "The application's access was revoked. It asks you to sign in again.",
	"email":    "We sent a confirmation link to the new address. Your address changes once you open it.",

	"confirmed": "Confirmed: for the next 5 minutes you can change how you sign in.",

	"passkey-added":   "Your passkey was added. You can sign in with it now.",
	"passkey-renamed": "Your passkey was renamed.",
	"passkey-removed": "Your passkey was removed.",

	"language": "Your language was saved.",
}

func (p *accountPages) renderAccount(w http.ResponseWriter, r *http.Request, status int, u *platform.User, notice, msg string) {
	ctx := r.Context()
	v := accountHomeView{Email: u.Email, CSRF: p.newCSRF(w), Notice: accountNotices[notice], Error: msg,
		Locale: u.Locale, Languages: languageOptions, Frame: p.frame(w, r)}
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		v.Org = o.Name
	}
	v.Brand = p.brands().ofOrg(ctx, u.OrgID)
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	v.MinLength, v.CheckCommon = policy.PasswordMinLength, policy.PasswordCheckCommon
	v.PasswordAllowed, v.HasPassword = policy.passwords(), policy.passwords() && u.PasswordHash != ""
	v.Confirmed, v.ProofMinutes = p.recentProof(sessionFromContext(ctx)), int(ProofWindow/time.Minute)
	if f, err := p.store.TOTP(ctx, u.ID); err == nil && f.Confirmed {
		v.MFA = true
	}
	if policy.passkeys() {
		keys, err := p.store.Passkeys(ctx, u.ID)
		if err != nil {
			p.internalError(w, r, err)
			return
		}
		v.PasskeysAllowed, v.PasskeyRequired, v.Passkeys = true, policy.passkeysRequired(), passkeyRows(keys)
	}
	sessions, err := p.store.UserSessions(ctx, u.ID, p.now())
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	current := sessionFromContext(ctx)
	for _, s := range sessions {
		row := sessionRow{Current: current != nil && s.IDHash == current.IDHash, Since: s.AuthTime,
			Until: s.ExpiresAt, Method: "password", SID: s.SID, Network: networkOf(s.Address), LastUsed: s.AuthTime}
		row.Browser, row.System = describeAgent(s.UserAgent)
		if last := s.LastSeenAt; !last.IsZero() {
			row.LastUsed = last
		}
		if containsAll(s.AMR, "hwk") && containsAll(s.AMR, "pwd") {
			row.Method = "password and passkey"
		} else if containsAll(s.AMR, "hwk") {
			row.Method = "passkey"
		} else if containsAll(s.AMR, "mfa") {
			row.Method = "password and code"
		} else if containsAll(s.AMR, "fed") {
			row.Method = "single sign-on"
		}
		v.Others = v.Others || !row.Current
		v.Sessions = append(v.Sessions, row)
	}
	grants, err := p.store.UserGrants(ctx, u.ID, p.now(), maxAccountGrants)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	for _, g := range grants {
		app := g.AppName
		if app == "" {
			app = g.ClientID
		}
		v.Grants = append(v.Grants, grantRow{ID: g.ID, App: app, Granted: g.CreatedAt,
			LastUsed: g.LastUsedAt, Current: current != nil && g.SessionSID != "" && g.SessionSID == current.SID})
	}
	if v.PasskeysAllowed {
		p.renderPasskeyPage(w, r, status, "account_home.html", v)
		return
	}
	p.render(w, r, status, "account_home.html", v)
}

func containsAll(list []string, want string) bool {
	for _, s := range list {
		if s == want {
			return true
		}
	}
	return false
}

// accountForm checks a form post of the account page: its CSRF token, the
// signed-in user, the sign-in rate limit. It answers the error itself.
func (p *accountPages) accountForm(w http.ResponseWriter, r *http.Request) (*platform.User, bool) {
	if !p.postedForm(w, r, msgAccountFormExpired) {
		return nil, false
	}
	u, ok := p.sessionUser(w, r)
	if !ok || !p.allowAttempt(w, r) {
		return nil, false
	}
	return u, true
}

// currentPassword verifies the user's own password, counted toward the
// lockout like a sign-in (one argon2id, attempt reserved first). Where the
// account's organization allows no password sign-in, no password is right
// (D-account-policy).
func (p *accountPages) currentPassword(r *http.Request, u *platform.User, password string) (bool, error) {
	ctx := r.Context()
	if password == "" || len(password) > 1024 || u.PasswordHash == "" {
		return false, nil
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil || !policy.passwords() {
		return false, err
	}
	a, err := p.factors.counted(ctx, u, policy, func() (bool, error) {
		ok, err := p.factors.verifyPassword(ctx, password, u.PasswordHash)
		if errors.Is(err, errHashBusy) {
			return false, err
		}
		return ok && err == nil, nil
	})
	if errors.Is(err, errHashBusy) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if a.lockedAt {
		p.lockedOut(ctx, u, a.until)
	}
	return a.ok, nil
}

// orgAllows reads the rules of the user's organization and reports whether
// they allow what the page is asked for (allowed); when they do not, the
// account page answers 403 with refusal.
func (p *accountPages) orgAllows(w http.ResponseWriter, r *http.Request, u *platform.User, allowed func(loginRules) bool, refusal string) (loginRules, bool) {
	rules, err := p.loginRules(r.Context(), u.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return rules, false
	}
	if !allowed(rules) {
		p.renderAccount(w, r, http.StatusForbidden, u, "", refusal)
		return rules, false
	}
	return rules, true
}

// accountPassword changes the password: the current one is required, the
// new one must meet the policy, and the session needs a recent proof
// (D-reauth; the current password is that proof where it alone signs the
// account in). Everything the user was signed in with ends (D-reset); this
// browser gets a new session; the holder is mailed.
func (p *accountPages) accountPassword(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	policy, ok := p.orgAllows(w, r, u, loginRules.passwords, msgNoPasswords)
	if !ok {
		return
	}
	if !p.proofOrPassword(w, r, u) {
		return
	}
	password := r.PostForm.Get("password")
	if password != r.PostForm.Get("confirm") {
		p.renderAccount(w, r, http.StatusBadRequest, u, "", "The two new passwords are not the same.")
		return
	}
	if err := CheckPassword(policy.LoginPolicy, password, u.Email); err != nil {
		p.renderAccount(w, r, http.StatusBadRequest, u, "", strings.Join(passwordProblems(p.printer(r), err, policy.PasswordMinLength), " "))
		return
	}
	hash, err := HashPassword(password, p.cfg.Password)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	notice := p.signInNotice(ctx, u, "Your password was changed on your account page, and you were signed out everywhere else.")
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.SetPassword(ctx, u.ID, hash); err != nil { // ends every session and token
			return err
		}
		if err := tx.DeleteAccountTokens(ctx, u.ID, store.TokenReset); err != nil {
			return err
		}
		if err := p.record(ctx, tx, about(audit.PasswordChanged, u)); err != nil {
			return err
		}
		return p.queueNotice(ctx, tx, notice)
	})
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	amr := []string{"pwd"}
	if s := sessionFromContext(ctx); s != nil {
		amr = s.AMR
	}
	if _, err := p.startSession(w, r, u.ID, amr, nil); err != nil {
		p.internalError(w, r, err)
		return
	}
	slog.InfoContext(ctx, "password changed on the account page", "user_id", u.ID)
	http.Redirect(w, r, PathAccount+"?done=password", http.StatusSeeOther)
}

// proofOrPassword checks the form's current password (required) and that
// the session has a recent proof; where the password alone proves the
// account (proofMethods), the right current password is that proof and
// starts the window. It answers the refusal itself: 401 for a wrong
// password, the confirmation page when a second factor must confirm first
// (checked before the password, so no attempt is spent on it).
func (p *accountPages) proofOrPassword(w http.ResponseWriter, r *http.Request, u *platform.User) bool {
	ctx := r.Context()
	recent := p.recentProof(sessionFromContext(ctx))
	if !recent {
		m, err := p.proofMethods(ctx, u)
		if err != nil {
			p.internalError(w, r, err)
			return false
		}
		if !m.Password {
			return p.requireProof(w, r, u, PathAccount)
		}
	}
	ok, err := p.currentPassword(r, u, r.PostForm.Get("current"))
	if err != nil {
		p.internalError(w, r, err)
		return false
	} else if !ok {
		p.reauthFailed(ctx, u, methodPassword, reasonInvalidCredentials)
		p.renderAccount(w, r, http.StatusUnauthorized, u, "", msgCurrentPasswordBad)
		return false
	}
	if !recent {
		if err := p.recordProof(ctx); err != nil {
			p.internalError(w, r, err)
			return false
		}
	}
	return true
}

// accountEndOthers signs the user out of every other browser.
func (p *accountPages) accountEndOthers(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	var n int64
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		var err error
		if n, err = tx.DeleteOtherSessions(ctx, u.ID, sessionFromContext(ctx).IDHash, p.now()); err != nil || n == 0 {
			return err
		}
		return p.record(ctx, tx, sessionsEnded(u.ID, endedSignOutOther, int(n)))
	})
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.wakeLogouts()
	slog.InfoContext(r.Context(), "other sessions ended", "user_id", u.ID, "sessions", n)
	http.Redirect(w, r, PathAccount+"?done=sessions", http.StatusSeeOther)
}

// accountEndSession signs the user out of one other browser, named by its
// session's sid, as signing out there would (its applications told by
// back-channel logout, its grants ended). A sid that is not one of the
// user's sessions (another user's, one that ended) changes nothing and is
// answered like one that just ended, so nothing is learnt of it; the
// current session is ended by signing out.
func (p *accountPages) accountEndSession(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	sid := r.PostForm.Get("sid")
	if cur := sessionFromContext(ctx); sid == "" || len(sid) > 200 || (cur != nil && sid == cur.SID) {
		http.Redirect(w, r, PathAccount, http.StatusSeeOther)
		return
	}
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.EndUserSession(ctx, u.ID, sid, p.now()); err != nil {
			return err
		}
		return p.record(ctx, tx, sessionsEnded(u.ID, endedSignOutOne, 1))
	})
	p.ended(w, r, err, u.ID, "session ended from the account page", "session")
}

// ended answers an account page's sign-out of a session or revocation of a
// grant whose transaction ended with err: the applications it ended are
// told by back-channel logout, and what was not the user's (ENOTFOUND) is
// answered as if it were, so the page tells nothing about others' ids.
func (p *accountPages) ended(w http.ResponseWriter, r *http.Request, err error, userID, event, done string) {
	if err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
		p.internalError(w, r, err)
		return
	}
	if err == nil {
		p.wakeLogouts()
		slog.InfoContext(r.Context(), event, "user_id", userID)
	}
	http.Redirect(w, r, PathAccount+"?done="+done, http.StatusSeeOther)
}

// maxAccountGrants bounds the applications the account page lists.
const maxAccountGrants = 50

// accountRevokeGrant revokes one of the user's grants: the application's
// access and refresh tokens stop working, and it is told by back-channel
// logout when it receives them. A grant that is not the user's (another
// user's, one that ended) changes nothing and is answered alike.
func (p *accountPages) accountRevokeGrant(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	id := r.PostForm.Get("grant")
	if id == "" || len(id) > 200 {
		http.Redirect(w, r, PathAccount, http.StatusSeeOther)
		return
	}
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		g, err := tx.TokenGrant(ctx, id)
		if err != nil || g.UserID != u.ID {
			return platform.Errorf(platform.ENOTFOUND, "grant not found")
		}
		if err := tx.EndUserGrant(ctx, u.ID, id, p.now()); err != nil {
			return err
		}
		return p.record(ctx, tx, grantRevoked(u.ID, g.ClientID, id))
	})
	p.ended(w, r, err, u.ID, "grant revoked from the account page", "grant")
}

// accountRecoveryCodes replaces the recovery codes and shows the new ones
// once, with a copy box and a download link. It needs a recent proof
// (D-reauth): new codes sign in without the authenticator app; the holder
// is mailed.
func (p *accountPages) accountRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok || !p.requireProof(w, r, u, PathAccount) {
		return
	}
	ctx := r.Context()
	if f, err := p.store.TOTP(ctx, u.ID); err != nil || !f.Confirmed {
		p.renderAccount(w, r, http.StatusBadRequest, u, "", "Turn on two-step verification first.")
		return
	}
	p.showNewCodes(w, r, u, "New recovery codes were made for your account; the ones before no longer work.", false)
}

// showNewCodes makes the user's recovery codes, mails the holder notice
// in the same transaction, and shows the codes once; enrolled: they come
// with an authenticator just turned on.
func (p *accountPages) showNewCodes(w http.ResponseWriter, r *http.Request, u *platform.User, notice string, enrolled bool) {
	kind := audit.RecoveryCodesRegenerated
	if enrolled {
		kind = audit.MFAEnrolled
	}
	codes, err := p.factors.noticedRecoveryCodes(r.Context(), u, notice, kind)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	brand := p.brands().ofOrg(r.Context(), u.OrgID)
	var v any = newCodesView{Codes: codes, ContinueURL: PathAccount, Brand: brand}
	if enrolled {
		v = recoveryView{Codes: codes, ContinueURL: PathAccount, Brand: brand}
	}
	p.render(w, r, http.StatusOK, "recovery.html", v)
}

// accountMFAReset starts enrolling a new authenticator, with a recent
// proof (D-reauth: with an authenticator app, its code or a passkey, not
// the password): the old authenticator and its recovery codes are removed
// at once, the holder is mailed, and the new one counts once it is
// confirmed with a first code.
func (p *accountPages) accountMFAReset(w http.ResponseWriter, r *http.Request) {
	u, ok := p.accountForm(w, r)
	if !ok || !p.requireProof(w, r, u, PathAccount) {
		return
	}
	ctx := r.Context()
	notice := p.signInNotice(ctx, u, "The authenticator app of your account's two-step verification was removed, with its recovery codes. A new one counts once it is confirmed with a code.")
	f, ferr := p.store.TOTP(ctx, u.ID)
	had := ferr == nil && f.Confirmed
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.DeleteTOTP(ctx, u.ID); err != nil {
			return err
		}
		if !had {
			return p.queueNotice(ctx, tx, notice)
		}
		e := about(audit.MFARemoved, u)
		e.Reason, e.Details.Method = "replaced_by_user", methodTOTP
		if err := p.record(ctx, tx, e); err != nil {
			return err
		}
		return p.queueNotice(ctx, tx, notice)
	})
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	enrol, err := p.factors.beginTOTP(r.Context(), u.ID, u.Email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	slog.InfoContext(r.Context(), "authenticator reset on the account page", "user_id", u.ID)
	p.renderSetup(w, r, http.StatusOK, PathAccountMFA, "", enrol, "", p.brands().ofOrg(r.Context(), u.OrgID))
}
