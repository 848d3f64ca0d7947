package idp

import (
	"context"
	"net/http"
	"net/url"

	"github.com/platform/platform/internal/store"
)

// nameCard names the application and the organization on the sign-in card.
func (p *loginPages) nameCard(ctx context.Context, a *store.AuthRequest, v *loginView) {
	if app, err := p.application(ctx, a.ClientID); err == nil {
		v.App = app.Name
	}
	if org := orgScope(a.Scopes); org != "" {
		if o, err := p.store.Organization(ctx, org); err == nil {
			v.Org = o.Name
			v.Brand = p.brands().ofOrg(ctx, org)
		}
	}
}

// renderOTPAgain shows the second-factor page after a wrong code; a failed
// recovery code keeps the recovery form open with the error beside it.
// The passkey stays offered when the user has one.
func (p *loginPages) renderOTPAgain(w http.ResponseWriter, r *http.Request, authRequestID string, brand brandView, recovery, passkey bool) {
	v := otpView{AuthRequestID: authRequestID, CSRF: p.newCSRF(w), Error: msgCodeFailed, Recovery: recovery, Passkey: passkey, Brand: brand}
	if passkey {
		p.renderPasskeyPage(w, r, http.StatusUnauthorized, "otp.html", v)
		return
	}
	p.render(w, r, http.StatusUnauthorized, "otp.html", v)
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
