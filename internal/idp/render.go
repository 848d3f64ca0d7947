package idp

import (
	"crypto/subtle"
	"log/slog"
	"net/http"
	"time"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// validCSRF reports whether a parsed form post echoes the CSRF cookie.
func (p *core) validCSRF(r *http.Request) bool {
	c, err := r.Cookie(p.cookie(csrfCookie))
	return err == nil && c.Value != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostForm.Get("csrf"))) == 1
}

// postedForm parses a page's form post and checks its CSRF token; a post
// that fails is answered 403 with retry (how to start again).
func (p *core) postedForm(w http.ResponseWriter, r *http.Request, retry string) bool {
	if err := r.ParseForm(); err != nil || !p.validCSRF(r) {
		p.renderError(w, r, http.StatusForbidden, "Invalid request", retry)
		return false
	}
	return true
}

// postedAttempt is postedForm for a post that counts against the
// address's sign-in limit (allowAttempt answers 429).
func (p *core) postedAttempt(w http.ResponseWriter, r *http.Request, retry string) bool {
	return p.postedForm(w, r, retry) && p.allowAttempt(w, r)
}

// newCSRF sets the CSRF cookie a page's forms must echo.
func (p *core) newCSRF(w http.ResponseWriter) string {
	csrf := randomToken()
	http.SetCookie(w, &http.Cookie{Name: p.cookie(csrfCookie), Value: csrf, Path: "/", HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int((30 * time.Minute).Seconds())})
	return csrf
}

func (p *core) renderSetup(w http.ResponseWriter, r *http.Request, status int, action, authRequestID string, e *totpEnrolment, msg string, brand brandView) {
	p.render(w, r, status, "mfa_setup.html", setupView{Action: action, AuthRequestID: authRequestID, CSRF: p.newCSRF(w),
		Error: msg, Secret: e.Secret, QR: e.QR, Brand: brand})
}

func (p *core) renderError(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	p.render(w, r, status, "error.html", errorView{Title: title, Message: msg, RequestID: httpapi.RequestID(r.Context()), Back: p.backURL(),
		Brand: p.brands().ofPage(r)})
}

func (p *core) internalError(w http.ResponseWriter, r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "login UI", "err", err, "request_id", httpapi.RequestID(r.Context()))
	p.renderError(w, r, http.StatusInternalServerError, "Something went wrong", "Please try again in a moment.")
}

// failed answers a page whose step failed and reports whether it did: a
// row that is not there (ENOTFOUND: used, expired, someone else's) with
// status, title and msg, any other error with the internal-error page.
func (p *core) failed(w http.ResponseWriter, r *http.Request, err error, status int, title, msg string) bool {
	switch {
	case err == nil:
		return false
	case platform.ErrorCode(err) == platform.ENOTFOUND:
		p.renderError(w, r, status, title, msg)
	default:
		p.internalError(w, r, err)
	}
	return true
}

func (p *core) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	p.renderPage(w, r, status, name, data, false)
}

// renderPage renders a page; script allows the one inline script of the
// provider's pages (autoSubmit) by its hash, nothing else.
func (p *core) renderPage(w http.ResponseWriter, r *http.Request, status int, name string, data any, script bool) {
	extra := ""
	if script {
		extra = "; script-src " + autoSubmitHash
	}
	p.renderPageCSP(w, r, status, name, data, extra)
}

// renderPasskeyPage renders a page that offers passkeys: it may load the
// provider's own passkey script and post to the provider, nothing else.
func (p *core) renderPasskeyPage(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	p.renderPageCSP(w, r, status, name, data, "; script-src 'self'; connect-src 'self'")
}

func (p *core) renderPageCSP(w http.ResponseWriter, r *http.Request, status int, name string, data any, extra string) {
	httpapi.PageHeaders(w.Header(), "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'"+extra)
	pr := p.printer(r)
	w.Header().Set("Content-Language", pr.Lang())
	w.WriteHeader(status)
	if err := p.pages.For(pr.Tag()).ExecuteTemplate(w, name, data); err != nil {
		slog.Error("render page", "page", name, "err", err)
	}
}
