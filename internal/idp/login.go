package idp

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The one message for every failed sign-in: wrong password, unknown address,
// locked account. It never tells which (no account enumeration).
const msgLoginFailed = "The e-mail address or password is incorrect."

const csrfCookie = "idp_csrf"

type loginView struct {
	AuthRequestID string
	Email         string
	Error         string
	CSRF          string
	ClientID      string
}

type errorView struct {
	Title   string
	Message string
}

// loginPage shows the password form, or finishes at once when the browser
// session already satisfies the transaction.
func (p *Provider) loginPage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	a, err := p.store.AuthRequest(r.Context(), id, p.now())
	if err != nil {
		p.renderError(w, http.StatusBadRequest, "This sign-in link has expired", "Go back to the application and start again.")
		return
	}
	if a.Done {
		p.toCallback(w, r, a.ID)
		return
	}
	if s := sessionFromContext(r.Context()); s != nil && !slices.Contains(a.Prompt, oidc.PromptLogin) &&
		!slices.Contains(a.Prompt, oidc.PromptSelectAccount) && p.sessionSatisfies(r.Context(), s, a) {
		if err := p.store.CompleteAuthRequest(r.Context(), a.ID, s.UserID, s.AuthTime, s.AMR); err != nil {
			p.internalError(w, r, err)
			return
		}
		p.toCallback(w, r, a.ID)
		return
	}
	p.renderLogin(w, http.StatusOK, a, a.LoginHint, "")
}

// loginSubmit checks the password form.
func (p *Provider) loginSubmit(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.renderError(w, http.StatusBadRequest, "Invalid request", "The form could not be read.")
		return
	}
	a, err := p.store.AuthRequest(r.Context(), r.PostForm.Get("authRequestID"), p.now())
	if err != nil || a.Done {
		p.renderError(w, http.StatusBadRequest, "This sign-in link has expired", "Go back to the application and start again.")
		return
	}
	c, err := r.Cookie(csrfCookie)
	if err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostForm.Get("csrf"))) != 1 {
		p.renderError(w, http.StatusForbidden, "Invalid request", "Your session on this page has ended. Go back to the application and start again.")
		return
	}
	email := platform.NormalizeEmail(r.PostForm.Get("email"))
	password := r.PostForm.Get("password")
	if email == "" || password == "" || len(email) > 320 || len(password) > 1024 {
		p.renderLogin(w, http.StatusBadRequest, a, email, "Enter your e-mail address and password.")
		return
	}
	user, err := p.checkPassword(r.Context(), email, password, orgScope(a.Scopes))
	if err != nil {
		if !errors.Is(err, errLoginFailed) {
			p.internalError(w, r, err)
			return
		}
		slog.InfoContext(r.Context(), "login failed", "client_id", a.ClientID)
		p.renderLogin(w, http.StatusUnauthorized, a, email, msgLoginFailed)
		return
	}
	amr := []string{"pwd"}
	if _, err := p.startSession(w, r, user.ID, amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	if err := p.store.CompleteAuthRequest(r.Context(), a.ID, user.ID, p.now(), amr); err != nil {
		p.internalError(w, r, err)
		return
	}
	slog.InfoContext(r.Context(), "login succeeded", "user_id", user.ID, "client_id", a.ClientID)
	p.toCallback(w, r, a.ID)
}

var errLoginFailed = errors.New("login failed")

// checkPassword finds the account for an address (within orgID when set) and
// verifies the password. Unknown addresses cost one hash like known ones; a
// locked account answers like a wrong password (D-lockout).
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
			if err := p.store.ResetLoginFailures(ctx, u.ID); err != nil {
				return nil, err
			}
			return u, nil
		}
		if !locked {
			n, err := p.store.RecordLoginFailure(ctx, u.ID, p.cfg.MaxFailedLogins, now.Add(p.cfg.LockoutDuration))
			if err != nil {
				return nil, err
			}
			if n == p.cfg.MaxFailedLogins {
				slog.WarnContext(ctx, "account locked after failed logins", "user_id", u.ID, "until", now.Add(p.cfg.LockoutDuration))
			}
		}
	}
	return nil, errLoginFailed
}

func (p *Provider) toCallback(w http.ResponseWriter, r *http.Request, id string) {
	http.Redirect(w, r, op.AuthCallbackURL(p.op)(r.Context(), id), http.StatusFound)
}

func (p *Provider) renderLogin(w http.ResponseWriter, status int, a *store.AuthRequest, email, msg string) {
	csrf := randomToken()
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: csrf, Path: PathLogin, HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int((30 * time.Minute).Seconds())})
	p.render(w, status, "login.html", loginView{AuthRequestID: a.ID, Email: email, Error: msg, CSRF: csrf, ClientID: a.ClientID})
}

func (p *Provider) renderError(w http.ResponseWriter, status int, title, msg string) {
	p.render(w, status, "error.html", errorView{Title: title, Message: msg})
}

func (p *Provider) internalError(w http.ResponseWriter, r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "login UI", "err", err)
	p.renderError(w, http.StatusInternalServerError, "Something went wrong", "Please try again in a moment.")
}

func (p *Provider) render(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := p.pages.ExecuteTemplate(w, name, data); err != nil {
		slog.Error("render page", "page", name, "err", err)
	}
}
