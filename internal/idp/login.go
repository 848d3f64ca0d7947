package idp

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// loginPages are the sign-in pages of a login transaction: the form, the
// second factor, the transaction's binding to the browser, the device
// flow's pages and the end of a session.
type loginPages struct {
	*core
	op       *op.Provider
	factors  *factors
	passkeys *passkeys
	sso      *ssoLogin
}

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
	EmailLocked     bool   // the address is fixed (an account proving itself for a link)
	Notice          string // why the form is shown, when it is not the first step (a catalog key)
	NoticeArg       string // the name Notice is formatted with, when it has one
	Error           string
	CSRF            string
	PasswordAllowed bool
	Passkey         bool // passkeys are offered: autofill on the address, a button (passkey_login.go)
	PasskeyFailed   bool // a passkey just failed: the button stays, autofill does not offer it again at once
	Providers       []providerLink
	App, Org        string    // the card names the application and the organization (logincard.go)
	OtherURL        string    // "Not you?" when the address came from the gateway
	Brand           brandView // the organization's brand, once the org scope names it (brand.go)
}

type errorView struct {
	Title     string
	Message   string
	RequestID string
	Back      string    // a way back (errorpage.go: backURL)
	Brand     brandView // the request's organization, when it is known (brands.ofPage)
}

// routes serves the sign-in pages, the step that issues the code, and the
// device and end-session pages.
func (p *loginPages) routes(r chi.Router) {
	r.Get(PathLogin, p.loginPage)
	r.Post(PathLogin, p.loginSubmit)
	r.Post(PathLoginOTP, p.otpSubmit)
	r.Post(PathLoginMFASetup, p.mfaSetupSubmit)
	// The step that issues the code answers only the browser that holds
	// the transaction, whatever the method (D-login-binding).
	r.With(p.errorPages).HandleFunc(PathAuthorize+"/callback", p.authorizeCallback)
	r.Get(PathDevice, p.devicePage)
	r.Post(PathDevice, p.deviceSubmit)
	r.Post(PathDeviceDecide, p.deviceDecide)
	r.Get(PathEndSession, p.endSessionPage)
	r.Post(PathEndSession, p.endSessionSubmit)
}

// loginOptions are the sign-in methods the organization of the org scope
// allows; without an org scope, password sign-in for any organization.
func (p *loginPages) loginOptions(ctx context.Context, a *store.AuthRequest) (loginView, error) {
	v := loginView{AuthRequestID: a.ID, PasswordAllowed: true}
	p.nameCard(ctx, a, &v)
	if a.LinkIDPID != "" { // an account proving itself for a link: its own password, nothing else
		x, err := p.store.ExternalIDP(ctx, a.LinkIDPID)
		if err != nil {
			return v, err
		}
		v.EmailLocked = true
		v.Notice = "An account with this e-mail address already exists. Sign in to it once with its password to link it to %[1]s; after that, %[1]s signs you in."
		v.NoticeArg = x.Name
	}
	org := orgScope(a.Scopes)
	// Without an org scope passkeys are offered; the user's own
	// organization decides once the passkey names them.
	v.Passkey = p.passkeysOn && a.LinkIDPID == ""
	if org == "" {
		return v, nil
	}
	policy, err := p.loginRules(ctx, org)
	if err != nil {
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return v, nil // an unknown organization: the form answers like a wrong password
		}
		return v, err
	}
	v.PasswordAllowed = policy.passwordForm()
	v.Passkey = v.Passkey && policy.passkeys()
	if policy.sso() && a.LinkIDPID == "" {
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
func (p *loginPages) loginPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, ok := p.transaction(w, r, r.URL.Query().Get("authRequestID"), true)
	if !ok {
		return
	}
	if a.Done {
		p.toCallback(w, r, a.ID)
		return
	}
	if s := sessionFromContext(ctx); s != nil && !slices.Contains(a.Prompt, oidc.PromptLogin) &&
		!slices.Contains(a.Prompt, oidc.PromptSelectAccount) && p.sessionSatisfies(ctx, s, a) {
		if err := p.store.CompleteAuthRequest(ctx, a.ID, s.UserID, s.AuthTime, s.AMR, s.SID); err != nil {
			p.internalError(w, r, err)
			return
		}
		p.toCallback(w, r, a.ID)
		return
	}
	if idpID := idpScope(a.Scopes); idpID != "" {
		p.sso.redirectToIDP(w, r, a, idpID)
		return
	}
	v, err := p.loginOptions(ctx, a)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if !v.PasswordAllowed && !v.Passkey && len(v.Providers) == 1 {
		http.Redirect(w, r, v.Providers[0].URL, http.StatusFound)
		return
	}
	v.Email = a.LoginHint
	if v.Email == "" && a.HintUserID != "" { // id_token_hint of another user: the form for that user
		if u, err := p.user(ctx, a.HintUserID); err == nil {
			v.Email = u.Email
		}
	}
	fixHint(r, a, &v)
	p.renderLogin(w, r, http.StatusOK, v, "")
}

// loginSubmit checks the password form, then asks for a second factor when
// the user has one or the organization forces one.
func (p *loginPages) loginSubmit(w http.ResponseWriter, r *http.Request) {
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
		msg := "Sign in with your organization's identity provider."
		if v.Passkey {
			msg = msgPasskeyRequired
		}
		p.renderLogin(w, r, http.StatusForbidden, v, msg)
		return
	}
	if email == "" || password == "" || len(email) > 320 || len(password) > 1024 {
		p.renderLogin(w, r, http.StatusBadRequest, v, "Enter your e-mail address and password.")
		return
	}
	user, err := p.factors.checkPassword(ctx, email, password, orgScope(a.Scopes), a.ClientID)
	if err != nil {
		if errors.Is(err, errHashBusy) {
			p.factors.hashBusy(w, r)
			return
		}
		if !errors.Is(err, errLoginFailed) {
			p.internalError(w, r, err)
			return
		}
		slog.InfoContext(ctx, "login failed", "client_id", a.ClientID)
		p.renderLogin(w, r, http.StatusUnauthorized, v, p.factors.failedLoginMessage(ctx, email))
		return
	}
	if required, err := p.passkeyRequired(ctx, user); err != nil {
		p.internalError(w, r, err)
		return
	} else if required { // the password was right, but this organization signs in with passkeys
		p.signInFailed(ctx, user, email, a.ClientID, reasonPasskeyRequired, methodPassword, factorFirst)
		p.renderLogin(w, r, http.StatusForbidden, v, msgPasskeyRequired)
		return
	}
	p.afterFirstFactor(w, r, a, user, []string{"pwd"}, nil)
}

// afterFirstFactor finishes a login whose first factor (amr) passed, or
// asks for the second one: when the user has one, or the organization forces
// MFA, unless the first factor already satisfied MFA where the policy accepts
// it as such: mfaBy is the policy's rule for this factor (a passkey's,
// passkeyIsMFA; a federated login from a provider that enforces MFA,
// ssoIsMFA, D-federated-mfa), nil for a factor that is never MFA by itself.
func (p *loginPages) afterFirstFactor(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, user *platform.User, amr []string, mfaBy func(loginRules) bool) {
	ctx := r.Context()
	policy, err := p.loginRules(ctx, user.OrgID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	factor, ferr := p.store.TOTP(ctx, user.ID)
	hasTOTP := ferr == nil && factor.Confirmed
	mfaDone := mfaBy != nil && mfaBy(policy) // the factor's MFA counts only where the policy accepts it (D-org-policy)
	if (mfaDone && acrMet(a.ACR, amr)) || (!hasTOTP && !policy.mfaForced() && a.ACR == "") {
		p.finishLogin(w, r, a, user.ID, amr)
		return
	}
	if a.ACR == ACRPhishingResistant {
		hasTOTP = false // only a passkey reaches the phishing-resistant class (D-step-up)
	}
	if err := p.store.SetPendingUser(ctx, a.ID, user.ID, amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	hasPasskey, err := p.passkeys.hasPasskey(ctx, policy, user)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	// only the second factors the policy accepts are offered
	offerTOTP, offerPasskey := hasTOTP && policy.totpIsMFA(), hasPasskey && policy.passkeyIsMFA()
	if offerTOTP || offerPasskey {
		p.passkeys.renderSecondFactor(w, r, http.StatusOK, a.ID, p.brands().ofOrg(r.Context(), orgScope(a.Scopes)), offerTOTP, offerPasskey, "")
		return
	}
	if !hasPasskey && p.passkeys.enrolAtSignIn(a, policy) { // a user without one adds the passkey asked for
		p.passkeys.renderEnrol(w, r, http.StatusOK, a, user.OrgID, "")
		return
	}
	if a.ACR == ACRPhishingResistant {
		p.renderError(w, r, http.StatusForbidden, "A passkey is required",
			"The application asks you to sign in with a passkey. Add one on your account page, then try again.")
		return
	}
	if !policy.totpIsMFA() { // the policy takes only its provider, or passkeys this issuer cannot offer
		p.signInFailed(ctx, user, "", a.ClientID, reasonSecondFactorRefused, methodTOTP, factorSecond)
		p.renderError(w, r, http.StatusForbidden, "Second step not available", msgSecondFactorRefused)
		return
	}
	enrol, err := p.factors.beginTOTP(ctx, user.ID, user.Email)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	p.renderSetup(w, r, http.StatusOK, PathLoginMFASetup, a.ID, enrol, "", p.brands().ofTransaction(ctx, a, user.OrgID))
}

// formRequest parses a login-UI form post, checks its CSRF token, loads
// its unfinished login transaction and counts the post against the
// address's sign-in limit. It answers the error itself.
func (p *loginPages) formRequest(w http.ResponseWriter, r *http.Request) (*store.AuthRequest, bool) {
	if err := r.ParseForm(); err != nil {
		p.renderError(w, r, http.StatusBadRequest, "Invalid request", "The form could not be read.")
		return nil, false
	}
	if !p.validCSRF(r) {
		p.renderError(w, r, http.StatusForbidden, "Invalid request", "Your session on this page has ended. Go back to the application and start again.")
		return nil, false
	}
	a, ok := p.transaction(w, r, r.PostForm.Get("authRequestID"), false)
	if !ok || !p.allowAttempt(w, r) {
		return nil, false
	}
	return a, true
}

// otpSubmit checks the second factor: a TOTP code or a recovery code.
func (p *loginPages) otpSubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, user, ok := p.secondStep(w, r)
	if !ok {
		return
	}
	code := r.PostForm.Get("code")
	recovery := r.PostForm.Get("recovery") != ""
	if policy, err := p.loginRules(ctx, user.OrgID); err != nil {
		p.internalError(w, r, err)
		return
	} else if !policy.totpIsMFA() { // D-org-policy: a code does not satisfy this organization's MFA
		p.signInFailed(ctx, user, "", a.ClientID, reasonSecondFactorRefused, codeMethod(recovery), factorSecond)
		p.renderError(w, r, http.StatusForbidden, "Second step not available", msgSecondFactorRefused)
		return
	}
	if err := p.factors.checkSecondFactor(ctx, user, code, recovery); err != nil {
		if !errors.Is(err, errBadCode) {
			p.internalError(w, r, err)
			return
		}
		p.signInFailed(ctx, user, "", a.ClientID, reasonInvalidCode, codeMethod(recovery), factorSecond)
		pu, perr := p.passkeys.pendingPasskeyUser(ctx, a) // the passkey stays offered beside the code
		p.renderOTPAgain(w, r, a.ID, p.brands().ofOrg(r.Context(), orgScope(a.Scopes)), recovery, perr == nil && len(pu.cred) > 0)
		return
	}
	p.finishLogin(w, r, a, user.ID, withSecondFactor(a.PendingAMR))
}

// codeMethod names the one-time code a second step took: a recovery code
// or the authenticator app's.
func codeMethod(recovery bool) string {
	if recovery {
		return methodRecoveryCode
	}
	return methodTOTP
}

// withSecondFactor is the amr of a login whose first factor was first and
// whose second was a one-time code.
func withSecondFactor(first []string) []string {
	if len(first) == 0 {
		first = []string{"pwd"}
	}
	return append(slices.Clone(first), "otp", "mfa")
}

// mfaSetupSubmit confirms an enrolment forced by policy during a login.
func (p *loginPages) mfaSetupSubmit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, user, ok := p.secondStep(w, r)
	if !ok {
		return
	}
	if !p.factors.confirmEnrolment(w, r, user, PathLoginMFASetup, a.ID) {
		return
	}
	codes, err := p.factors.enrolledCodes(ctx, user)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	amr := withSecondFactor(a.PendingAMR)
	if !p.completeLogin(w, r, a, user.ID, amr) {
		return
	}
	p.render(w, r, http.StatusOK, "recovery.html", recoveryView{Codes: codes,
		ContinueURL: p.callbackURL(ctx, a.ID), Brand: p.brands().ofTransaction(ctx, a, user.OrgID)})
}

type recoveryView struct {
	Codes       []string
	ContinueURL string
	Brand       brandView
}

// secondStep is formRequest for the steps after the first factor: the
// transaction and the user who passed that factor.
func (p *loginPages) secondStep(w http.ResponseWriter, r *http.Request) (*store.AuthRequest, *platform.User, bool) {
	a, ok := p.formRequest(w, r)
	if !ok {
		return nil, nil, false
	}
	u, ok := p.pendingUser(w, r, a)
	return a, u, ok
}

// pendingUser returns the user who passed the password step of a login.
func (p *loginPages) pendingUser(w http.ResponseWriter, r *http.Request, a *store.AuthRequest) (*platform.User, bool) {
	if a.PendingUserID != "" {
		if u, err := p.user(r.Context(), a.PendingUserID); err == nil {
			return u, true
		}
	}
	p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
	return nil, false
}

// finishLogin starts the browser session, completes the login transaction
// and hands back to the op library, which issues the code.
func (p *loginPages) finishLogin(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, userID string, amr []string) {
	if p.completeLogin(w, r, a, userID, amr) {
		p.toCallback(w, r, a.ID)
	}
}

// completeLogin stores an external identity waiting for this user's proof
// (D-linking), starts the browser session and completes the transaction. It
// answers the error itself and reports false on failure.
func (p *loginPages) completeLogin(w http.ResponseWriter, r *http.Request, a *store.AuthRequest, userID string, amr []string) bool {
	ctx := r.Context()
	if !acrMet(a.ACR, amr) { // step-up: never completes without the demanded factor (D-step-up)
		p.renderError(w, r, http.StatusForbidden, "A stronger sign-in is required",
			"The application asks for a sign-in with a second factor or a passkey. Go back to the application and start again.")
		return false
	}
	if a.LinkIDPID != "" && a.LinkUserID == userID {
		err := p.store.LinkExternalIdentity(ctx, a.LinkIDPID, a.LinkSubject, userID, p.now())
		if err != nil && platform.ErrorCode(err) != platform.ECONFLICT {
			p.internalError(w, r, err)
			return false
		}
		slog.InfoContext(ctx, "external identity linked after the account's own sign-in", "user_id", userID, "idp_id", a.LinkIDPID)
	}
	signIn := signInEvent(&platform.User{ID: userID}, "", a.ClientID)
	signIn.Details = audit.Details{Method: firstMethod(amr), AMR: strings.Join(amr, " ")}
	sess, err := p.startSession(w, r, userID, amr, &signIn)
	if err != nil {
		p.internalError(w, r, err)
		return false
	}
	if err := p.store.CompleteAuthRequest(ctx, a.ID, userID, sess.AuthTime, amr, sess.SID); err != nil {
		p.internalError(w, r, err)
		return false
	}
	slog.InfoContext(ctx, "login succeeded", "user_id", userID, "client_id", a.ClientID, "amr", strings.Join(amr, " "))
	return true
}

func (p *loginPages) toCallback(w http.ResponseWriter, r *http.Request, id string) {
	http.Redirect(w, r, p.callbackURL(r.Context(), id), http.StatusFound)
}

// callbackURL is where the op library turns a finished login into a code.
func (p *loginPages) callbackURL(ctx context.Context, authRequestID string) string {
	return op.AuthCallbackURL(p.op)(op.ContextWithIssuer(ctx, p.cfg.Issuer), authRequestID)
}

func (p *loginPages) renderLogin(w http.ResponseWriter, r *http.Request, status int, v loginView, msg string) {
	v.CSRF, v.Error = p.newCSRF(w), msg
	if v.Passkey {
		p.renderPasskeyPage(w, r, status, "login.html", v)
		return
	}
	p.render(w, r, status, "login.html", v)
}

type otpView struct {
	AuthRequestID string
	CSRF          string
	Error         string
	Recovery      bool      // the recovery-code form failed: it stays open (logincard.go)
	NoTOTP        bool      // the user has no authenticator app, only passkeys
	Passkey       bool      // a passkey may be the second factor (passkey_login.go)
	Brand         brandView // the organization's brand, when the request names it (D-branding)
}

func (p *loginPages) renderOTP(w http.ResponseWriter, r *http.Request, status int, authRequestID, msg string) {
	p.render(w, r, status, "otp.html", otpView{AuthRequestID: authRequestID, CSRF: p.newCSRF(w), Error: msg})
}

type setupView struct {
	Action        string
	AuthRequestID string
	CSRF          string
	Error         string
	Secret        string
	QR            template.URL
	Brand         brandView // the login transaction's or the user's organization (D-branding)
}
