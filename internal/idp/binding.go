package idp

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// bindingCookie binds login transactions to the browser that started them
// (D-login-binding). The authorize endpoint gives each browser a random value
// (kept while the browser keeps starting logins) and stores only its hash
// with every transaction it creates; every later step of the transaction,
// from the login page to the step that issues the code, refuses a browser
// whose cookie does not hash to it. A link to someone else's login
// transaction is therefore useless: the victim's browser is refused before
// its session or its password can complete it.
const bindingCookie = "idp_login"

type bindingKey struct{}

// bindBrowser sits in front of the authorize endpoint: it (re)sets the
// browser's binding cookie and hands its hash to CreateAuthRequest.
func (p *loginPages) bindBrowser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bindingKey{}, p.bind(w, r))))
	})
}

// bind (re)sets the browser's binding cookie and answers the hash a login
// transaction of this browser stores.
func (p *loginPages) bind(w http.ResponseWriter, r *http.Request) string {
	v := ""
	if c, err := r.Cookie(p.cookie(bindingCookie)); err == nil && validHandle(c.Value) {
		v = c.Value
	} else {
		v = randomToken()
	}
	http.SetCookie(w, &http.Cookie{Name: p.cookie(bindingCookie), Value: v, Path: "/", HttpOnly: true, Secure: p.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(p.cfg.LoginTimeout / time.Second)})
	return hashSecret(v)
}

// bindingFromContext is the hash of the binding cookie bindBrowser set.
func bindingFromContext(ctx context.Context) string {
	h, _ := ctx.Value(bindingKey{}).(string)
	return h
}

// validHandle reports whether a cookie value has the shape randomToken
// gives (43 base64url characters), so nothing else is ever hashed or stored.
func validHandle(v string) bool {
	if len(v) != 43 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

var (
	errNoTransaction  = errors.New("login transaction unknown or expired")
	errForeignBrowser = errors.New("login transaction belongs to another browser")
)

// boundRequest loads an unexpired login transaction for the browser of r:
// errNoTransaction when there is none, errForeignBrowser when r's browser did
// not start it.
func (p *loginPages) boundRequest(r *http.Request, id string) (*store.AuthRequest, error) {
	if id == "" || len(id) > 64 {
		return nil, errNoTransaction
	}
	a, err := p.store.AuthRequest(r.Context(), id, p.now())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, errNoTransaction
	} else if err != nil {
		return nil, err
	}
	c, err := r.Cookie(p.cookie(bindingCookie))
	if err != nil || !validHandle(c.Value) || a.BindingHash == "" ||
		subtle.ConstantTimeCompare([]byte(hashSecret(c.Value)), []byte(a.BindingHash)) != 1 {
		return nil, errForeignBrowser
	}
	return a, nil
}

// transaction loads the login transaction named by id for this browser, or
// answers the provider's error page and reports false. Unless finished is
// true, a transaction that is already done counts as expired.
func (p *loginPages) transaction(w http.ResponseWriter, r *http.Request, id string, finished bool) (*store.AuthRequest, bool) {
	a, err := p.boundRequest(r, id)
	switch {
	case errors.Is(err, errForeignBrowser):
		p.renderError(w, r, http.StatusForbidden, "This sign-in belongs to another browser",
			"Sign-in links work only in the browser that opened them. Go back to the application and start again.")
		return nil, false
	case errors.Is(err, errNoTransaction), err == nil && a.Done && !finished:
		p.renderError(w, r, http.StatusBadRequest, msgExpired, "Go back to the application and start again.")
		return nil, false
	case err != nil:
		p.internalError(w, r, err)
		return nil, false
	}
	return a, true
}

// authorizeCallback is the step that turns a finished login into a code. It
// answers only the browser that holds the transaction; the op library then
// issues the code, once (SaveAuthCode refuses a second).
func (p *loginPages) authorizeCallback(w http.ResponseWriter, r *http.Request) {
	a, ok := p.transaction(w, r, r.URL.Query().Get("id"), true)
	if !ok {
		return
	}
	if a.DeviceCodeHash != "" { // a login that approves a device: no code, the device polls
		p.approveDevice(w, r, a)
		return
	}
	p.op.ServeHTTP(w, r)
}
