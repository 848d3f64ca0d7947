package idp

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/platform/platform/internal/store"
)

// nameCard names the application and the organization on the sign-in card.
func (p *Provider) nameCard(ctx context.Context, a *store.AuthRequest, v *loginView) {
	if app, err := p.application(ctx, a.ClientID); err == nil {
		v.App = app.Name
	}
	if org := orgScope(a.Scopes); org != "" {
		if o, err := p.store.Organization(ctx, org); err == nil {
			v.Org = o.Name
		}
	}
}

// fixHint shows an address given by the gateway (login_hint) read-only,
// with "Not you?" leading to the same form with the field empty.
func fixHint(r *http.Request, a *store.AuthRequest, v *loginView) {
	if r.URL.Query().Get("other") != "" && !v.EmailLocked {
		v.Email = ""
		return
	}
	if a.LoginHint == "" || v.Email == "" || v.EmailLocked {
		return
	}
	v.EmailLocked = true
	v.OtherURL = PathLogin + "?" + url.Values{"authRequestID": {a.ID}, "other": {"1"}}.Encode()
}

// renderOTPAgain shows the second-factor page after a wrong code; a failed
// recovery code keeps the recovery form open with the error beside it.
// The passkey stays offered when the user has one.
func (p *Provider) renderOTPAgain(w http.ResponseWriter, authRequestID string, recovery, passkey bool) {
	v := otpView{AuthRequestID: authRequestID, CSRF: p.newCSRF(w), Error: msgCodeFailed, Recovery: recovery, Passkey: passkey}
	if passkey {
		p.renderPasskeyPage(w, http.StatusUnauthorized, "otp.html", v)
		return
	}
	p.render(w, http.StatusUnauthorized, "otp.html", v)
}

// backURL is the way back the error pages offer: the console, where every
// sign-in of the platform starts.
func (p *Provider) backURL() string {
	if p.cfg.ConsoleURL != "" {
		return p.cfg.ConsoleURL + "/"
	}
	return ""
}

// notFoundPages answers the op library's bare "404 page not found" with the
// provider's styled page and a way back.
func (p *Provider) notFoundPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ew := &notFoundCapture{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		if ew.captured {
			p.renderError(w, r, http.StatusNotFound, "Page not found", "There is nothing at this address.")
		}
	})
}

type notFoundCapture struct {
	http.ResponseWriter
	captured bool
	body     bytes.Buffer
}

func (w *notFoundCapture) WriteHeader(code int) {
	if code == http.StatusNotFound && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.captured = true
		w.Header().Del("Content-Type")
		w.Header().Del("X-Content-Type-Options")
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *notFoundCapture) Write(b []byte) (int, error) {
	if w.captured {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

type handOffView struct {
	Name string
	URL  string
}

// handOff sends the browser to an external identity provider: a browser
// (it asks for HTML) sees "Continuing to <provider>…", which moves on at
// once by itself (meta refresh, no script) and has a link; other clients
// get the plain redirect.
func (p *Provider) handOff(w http.ResponseWriter, r *http.Request, name, target string) {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	p.render(w, http.StatusOK, "handoff.html", handOffView{Name: name, URL: target})
}
