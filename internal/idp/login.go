package idp

import (
	"context"
	"crypto/subtle"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The one message for every failed sign-in: wrong password, unknown address,
// locked account. It never tells which (no account enumeration).
const (
	msgLoginFailed = "The e-mail address or password is incorrect."
	msgCodeFailed  = "The code is incorrect or has already been used."
	msgExpired     = "This sign-in link has expired"
)

const csrfCookie = "idp_csrf"

type providerLink struct {
	Name string
	URL  string
}

type loginView struct {
	AuthRequestID   string
	Email           string
	Error           string
	CSRF            string
	PasswordAllowed bool
	Providers       []providerLink
}

type errorView struct {
	Title     string
	Message   string
	RequestID string
}

// loginOptions are the sign-in methods the organization of the org scope
// allows; without an org scope, password sign-in for any organization.
func (p *Provider) loginOptions(ctx context.Context, a *store.AuthRequest) (loginView, error) {
	v := loginView{AuthRequestID: a.ID, PasswordAllowed: true}
	org := orgScope(a.Scopes)
	if org == "" {
		return v, nil
	}
	policy, err := p.store.LoginPolicy(ctx, org)
	if err != nil {
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return v, nil // an unknown organization: the form answers like a wrong password
		}
		return v, err
	}
	v.PasswordAllowed = policy.PasswordAllowed
	if policy.SSOAllowed {
		idps, err := p.store.ExternalIDPs(ctx, org)
		if err != nil {
			return v, err
		}
		for _, x := range idps {
			v.Providers = append(v.Providers, providerLink{Name: x.Name,
				URL: PathSSOStart + "?" + url.Values{"authRequestID": {a.ID}, "idp": {x.ID}}.Encode()})
		}
	}
	return v, nil
}

// loginPage shows the sign-in choices, or goes on without them: to the
// external provider named by the idp scope (R5.4-skip), to the only provider of
// an SSO-only organization, or straight back when the browser session already
// satisfies the request.
func (p *Provider) loginPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, err := p.store.AuthRequest(ctx, r.URL.Query().Get("authRequestID"), p.now())
	if err != nil {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return
	}
	if a.Done {
		p.toCallback(w, r, a.ID)
		return
	}
	if s := sessionFromContext(ctx); s != nil && !slices.Contains(a.Prompt, oidc.PromptLogin) &&
		!slices.Contains(a.Prompt, oidc.PromptSelectAccount) && p.sessionSatisfies(ctx, s, a) {
		if err := p.store.CompleteAuthRequest(ctx, a.ID, s.UserID, s.AuthTime, s.AMR); err != nil {
			p.internalError(w, r, err)
			return
		}
		p.toCallback(w, r, a.ID)
		return
	}
	if idpID := idpScope(a.Scopes); idpID != "" {
		p.redirectToIDP(w, r, a, idpID)
		return
	}
	v, err := p.loginOptions(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if !v.PasswordAllowed && len(v.Providers) == 1 {
		http.Redirect(w, r, v.Providers[0].URL, http.StatusFound)
		return
	}
	v.Email = a.LoginHint
	p.renderLogin(w, http.StatusOK, v, "")
}

// loginSubmit checks the password form, then asks for a second factor when
// the user has one or the organization forces one.
func (p *Provider) loginSubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.formRequest(w, r)
	if !ok {
		return
	}
	v, err := p.loginOptions(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	email := platform.NormalizeEmail(r.PostForm.Get("email"))
	password := r.PostForm.Get("password")
	v.Email = email
	if !v.PasswordAllowed {
		p.renderLogin(w, http.StatusForbidden, v, "Sign in with your organization's identity provider.")
		return
	}
	if email == "" || password == "" || len(email) > 320 || len(password) > 1024 {
		p.renderLogin(w, http.StatusBadRequest, v, "Enter your e-mail address and password.")
		return
	}
	user, err := p.checkPassword(ctx, email, password, orgScope(a.Scopes))
	if err != nil {
		if !errors.Is(err, errLoginFailed) {
			p.internalError(w, r, err)
			return
		}
		slog.InfoContext(ctx, "login failed", "client_id", a.ClientID)
		p.renderLogin(w, http.StatusUnauthorized, v, msgLoginFailed)
		return
	}
	policy, err := p.store.LoginPolicy(ctx, user.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	factor, ferr := p.store.TOTP(ctx, user.ID)
	hasTOTP := ferr == nil && factor.Confirmed
	if !hasTOTP && !policy.MFAForced {
		p.finishLogin(w, r, a, user.ID, []string{"pwd"})
		return
	}
	if err := p.store.SetPendingUser(ctx, a.ID, user.ID); err != nil {
		p.internalError(w, r, err)
		return
	}
	if hasTOTP {
		p.renderOTP(w, http.StatusOK, a.ID, "")
		return
	}
	enrol, err := p.beginTOTP(ctx, user.ID, user.Email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.renderSetup(w, http.StatusOK, PathLoginMFASetup, a.ID, enrol, "")
}

// formRequest parses a login-UI form post, checks its CSRF token and loads
// its unfinished login transaction. It answers the error itself.
func (p *Provider) formRequest(w http.ResponseWriter, r *http.Request) (*store.AuthRequest, bool) {
	if err := r.ParseForm(); err != nil {
		p.renderError(w, r, http.StatusBadRequest, "Invalid request", "The form could not be read.")
		return nil, false
	}
	if !p.validCSRF(r) {
		p.renderError(w, r, http.StatusForbidden, "Invalid request", "Your session on this page has ended. Go back to the application and start again.")
		return nil, false
	}
	a, err := p.store.AuthRequest(r.Context(), r.PostForm.Get("authRequestID"), p.now())
	if err != nil || a.Done {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return nil, false
	}
	return a, true
}

func (p *Provider) validCSRF(r *http.Request) bool {
	c, err := r.Cookie(csrfCookie)
	return err == nil && c.Value != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostForm.Get("csrf"))) == 1
}

// otpSubmit checks the second factor: a TOTP code or a recovery code.
func (p *Provider) otpSubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.formRequest(w, r)
	if !ok {
		return
	}
	user, ok := p.pendingUser(w, r, a)
	if !ok {
		return
	}
	code := r.PostForm.Get("code")
	recovery := r.PostForm.Get("recovery") != ""
	if err := p.checkSecondFactor(ctx, user, code, recovery); err != nil {
		if !errors.Is(err, errBadCode) {
			p.internalError(w, r, err)
			return
		}
		p.renderOTP(w, http.StatusUnauthorized, a.ID, msgCodeFailed)
		return
	}
	p.finishLogin(w, r, a, user.ID, []string{"pwd", "otp", "mfa"})
}

// mfaSetupSubmit confirms an enrolment forced by policy during a login.
func (p *Provider) mfaSetupSubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.formRequest(w, r)
	if !ok {
		return
	}
	user, ok := p.pendingUser(w, r, a)
	if !ok {
		return
	}
	if err := p.checkSecondFactor(ctx, user, r.PostForm.Get("code"), false); err != nil {
		if !errors.Is(err, errBadCode) {
			p.internalError(w, r, err)
			return
		}
		enrol, err := p.currentEnrolment(ctx, user)
		if err != nil {
			p.internalError(w, r, err)
			return
		}
		p.renderSetup(w, http.StatusUnauthorized, PathLoginMFASetup, a.ID, enrol, msgCodeFailed)
		return
	}
	codes, err := p.newRecoveryCodes(ctx, user.ID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	amr := []string{"pwd", "otp", "mfa"}
	if _, err := p.startSession(w, r, user.ID, amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	if err := p.store.CompleteAuthRequest(ctx, a.ID, user.ID, p.now(), amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	p.render(w, http.StatusOK, "recovery.html", recoveryView{Codes: codes,
		ContinueURL: p.callbackURL(ctx, a.ID)})
}

type recoveryView struct {
	Codes       []string
	ContinueURL string
}

// pendingUser returns the user who passed the password step of a login.
func (p *Provider) pendingUser(w http.ResponseWriter, r *http.Request, a *store.AuthRequest) (*platform.User, bool) {
	id, err := p.store.PendingUser(r.Context(), a.ID)
	if err == nil && id != "" {
		if u, err := p.user(r.Context(), id); err == nil {
			return u, true
		}
	}
	p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
	return nil, false
}

// checkSecondFactor verifies a TOTP or recovery code, counting failures
// toward the same lockout as passwords (D-lockout).
func (p *Provider) checkSecondFactor(ctx context.Context, u *platform.User, code string, recovery bool) error {
	policy, err := p.store.LoginPolicy(ctx, u.OrgID)
	if err != nil {
		return err
	}
	fresh, err := p.store.User(ctx, u.ID) // the lock state now, not at the start of the request
	if err != nil {
		return err
	}
	if fresh.LockedUntil.After(p.now()) || len(code) > 64 {
		return errBadCode
	}
	if recovery {
		err = p.useRecoveryCode(ctx, u.ID, code)
	} else {
		err = p.checkTOTP(ctx, u.ID, code)
	}
	if errors.Is(err, errBadCode) {
		if _, ferr := p.store.RecordLoginFailure(ctx, u.ID, policy.LockoutMaxAttempts,
			p.now().Add(time.Duration(policy.LockoutSeconds)*time.Second)); ferr != nil {
			return ferr
		}
		return errBadCode
	}
	if err != nil {
		return err
	}
	return p.store.ResetLoginFailures(ctx, u.ID)
}

// finishLogin starts the browser session, completes the login transaction
// and hands back to the op library, which issues the code.
func (p *Provider) finishLogin(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, userID string, amr []string) {
	if _, err := p.startSession(w, r, userID, amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	if err := p.store.CompleteAuthRequest(r.Context(), a.ID, userID, p.now(), amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	slog.InfoContext(r.Context(), "login succeeded", "user_id", userID, "client_id", a.ClientID, "amr", strings.Join(amr, " "))
	p.toCallback(w, r, a.ID)
}

var errLoginFailed = errors.New("login failed")

// checkPassword finds the account for an address (within orgID when set) and
// verifies the password. Unknown addresses cost one hash like known ones; a
// locked account answers like a wrong password (D-lockout). Lockout limits
// come from the user's organization's policy.
func (p *Provider) checkPassword(ctx context.Context, email, password, orgID string) (*platform.User, error) {
	users, err := p.store.UsersByEmail(ctx, email, orgID)
	if err != nil {
		return nil, err
	}
	if len(users) == 0 {
		_, _ = VerifyPassword(password, p.dummyHash)
		return nil, errLoginFailed
	}
	now := p.now()
	for _, u := range users {
		hash := u.PasswordHash
		if hash == "" {
			hash = p.dummyHash
		}
		ok, err := VerifyPassword(password, hash)
		if err != nil {
			slog.ErrorContext(ctx, "stored password hash is malformed", "user_id", u.ID)
			ok = false
		}
		locked := u.LockedUntil.After(now)
		if ok && !locked && u.PasswordHash != "" {
			if suspended, err := p.store.UserSuspended(ctx, u.ID); err != nil {
				return nil, err
			} else if suspended { // answers like a wrong password, counts no failure
				continue
			}
			if err := p.store.ResetLoginFailures(ctx, u.ID); err != nil {
				return nil, err
			}
			return u, nil
		}
		if !locked {
			policy, err := p.store.LoginPolicy(ctx, u.OrgID)
			if err != nil {
				return nil, err
			}
			until := now.Add(time.Duration(policy.LockoutSeconds) * time.Second)
			n, err := p.store.RecordLoginFailure(ctx, u.ID, policy.LockoutMaxAttempts, until)
			if err != nil {
				return nil, err
			}
			if n == policy.LockoutMaxAttempts {
				slog.WarnContext(ctx, "account locked after failed logins", "user_id", u.ID, "until", until)
			}
		}
	}
	return nil, errLoginFailed
}

func (p *Provider) toCallback(w http.ResponseWriter, r *http.Request, id string) {
	http.Redirect(w, r, p.callbackURL(r.Context(), id), http.StatusFound)
}

// callbackURL is where the op library turns a finished login into a code.
func (p *Provider) callbackURL(ctx context.Context, authRequestID string) string {
	return op.AuthCallbackURL(p.op)(op.ContextWithIssuer(ctx, p.cfg.Issuer), authRequestID)
}

// newCSRF sets the CSRF cookie a page's forms must echo.
func (p *Provider) newCSRF(w http.ResponseWriter) string {
	csrf := randomToken()
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: csrf, Path: "/ui/", HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int((30 * time.Minute).Seconds())})
	return csrf
}

func (p *Provider) renderLogin(w http.ResponseWriter, status int, v loginView, msg string) {
	v.CSRF, v.Error = p.newCSRF(w), msg
	p.render(w, status, "login.html", v)
}

type otpView struct {
	AuthRequestID string
	CSRF          string
	Error         string
}

func (p *Provider) renderOTP(w http.ResponseWriter, status int, authRequestID, msg string) {
	p.render(w, status, "otp.html", otpView{AuthRequestID: authRequestID, CSRF: p.newCSRF(w), Error: msg})
}

type setupView struct {
	Action        string
	AuthRequestID string
	CSRF          string
	Error         string
	Secret        string
	QR            template.URL
}

func (p *Provider) renderSetup(w http.ResponseWriter, status int, action, authRequestID string, e *totpEnrolment, msg string) {
	p.render(w, status, "mfa_setup.html", setupView{Action: action, AuthRequestID: authRequestID, CSRF: p.newCSRF(w),
		Error: msg, Secret: e.Secret, QR: e.QR})
}

func (p *Provider) renderError(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	p.render(w, status, "error.html", errorView{Title: title, Message: msg, RequestID: httpapi.RequestID(r.Context())})
}

func (p *Provider) internalError(w http.ResponseWriter, r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "login UI", "err", err, "request_id", httpapi.RequestID(r.Context()))
	p.renderError(w, r, http.StatusInternalServerError, "Something went wrong", "Please try again in a moment.")
}

func (p *Provider) render(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := p.pages.ExecuteTemplate(w, name, data); err != nil {
		slog.Error("render page", "page", name, "err", err)
	}
}
