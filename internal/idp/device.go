package idp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// The device authorization grant (RFC 8628). A device asks
// PathDeviceAuthorization for a device code and a user code, and polls the
// token endpoint; the user enters the user code at PathDevice, confirms that
// the request is theirs, and signs in through the normal login (a login
// transaction of its own, bound to the browser, with the organization's
// policies); the login's callback approves the device instead of issuing a
// code. Polling faster than the interval answers slow_down and widens it;
// the tokens are issued to the first poll after the approval, once.
const (
	PathDeviceAuthorization = "/oauth/v2/device_authorization"
	PathDevice              = "/ui/device"
	PathDeviceDecide        = "/ui/device/decide"
	deviceLifetime          = 10 * time.Minute
	devicePollInterval      = 5 * time.Second

	msgDeviceCodeExpired = "This code has expired"
	msgStartOnDevice     = "Start again on your device."
)

var _ op.DeviceAuthorizationStorage = (*storage)(nil)

// StoreDeviceAuthorization stores a new device authorization; only the
// device code's hash is kept.
func (s *storage) StoreDeviceAuthorization(ctx context.Context, clientID, deviceCode, userCode string, expires time.Time, scopes []string) error {
	now := s.now()
	err := s.store.CreateDeviceAuthorization(ctx, &store.DeviceAuthorization{DeviceCodeHash: hashSecret(deviceCode),
		UserCode: userCode, ClientID: clientID, Scopes: scopes, Interval: devicePollInterval, CreatedAt: now, ExpiresAt: expires})
	if platform.ErrorCode(err) == platform.ECONFLICT {
		return op.ErrDuplicateUserCode
	}
	return err
}

// GetDeviceAuthorizatonState answers a poll of the token endpoint: pending,
// denied, expired, or approved (once), and slow_down (the library's reading
// of context.DeadlineExceeded) for a poll sooner than the interval.
func (s *storage) GetDeviceAuthorizatonState(ctx context.Context, clientID, deviceCode string) (*op.DeviceAuthorizationState, error) {
	d, fast, err := s.store.PollDeviceAuthorization(ctx, clientID, hashSecret(deviceCode), s.now())
	if err != nil {
		return nil, err
	}
	if fast {
		return nil, fmt.Errorf("%w: polled sooner than every %v", context.DeadlineExceeded, d.Interval)
	}
	st := &op.DeviceAuthorizationState{ClientID: d.ClientID, Scopes: d.Scopes, Expires: d.ExpiresAt}
	if !s.now().Before(d.ExpiresAt) {
		// expired by this provider's clock, approved or not: the library
		// answers expired_token for a state neither done nor denied
		st.Expires = time.Unix(0, 0)
		return st, nil
	}
	switch d.State {
	case store.DeviceApproved:
		st.Done, st.Subject, st.AMR, st.AuthTime = true, d.UserID, d.AMR, d.AuthTime
	case store.DeviceDenied:
		st.Denied = true
	case store.DeviceConsumed:
		return nil, errors.New("the device code was redeemed already")
	}
	return st, nil
}

// deviceAuthorization starts a device authorization (RFC 8628 section
// 3.1) for a public application with the device flow: the client sends its
// client_id and no credentials, and the scopes it wants, which must all be
// scopes of this provider. Requests are rate limited by client address.
func (p *endpoints) deviceAuthorization(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return
	}
	if !p.allow(w, r, "device") {
		oauthError(w, http.StatusTooManyRequests, "slow_down", "too many device authorizations from this address")
		return
	}
	if _, _, basic := r.BasicAuth(); basic || r.PostForm.Get("client_secret") != "" || r.PostForm.Get("client_assertion") != "" {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "device clients are public: send client_id only")
		return
	}
	app, err := p.application(r.Context(), r.PostForm.Get("client_id"))
	if err != nil || !app.DeviceFlow {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client, or not one of the device flow")
		return
	}
	scopes := strings.Fields(r.PostForm.Get("scope"))
	if len(scopes) > maxScopes {
		oauthError(w, http.StatusBadRequest, "invalid_scope", "too many scopes")
		return
	}
	for _, sc := range scopes {
		if !allowedScope(sc) {
			oauthError(w, http.StatusBadRequest, "invalid_scope", "unknown scope "+strconv.Quote(sc))
			return
		}
	}
	r.Form.Set("scope", strings.Join(scopes, " "))
	op.DeviceAuthorizationHandler(p.op)(w, r.WithContext(op.ContextWithIssuer(r.Context(), p.cfg.Issuer)))
}

type deviceView struct {
	CSRF         string
	UserCode     string
	AppName      string
	Confirmation string
	Error        string
	Brand        brandView // the signed-in user's organization, or the device's org scope once its code is known
}

// deviceConfirmLifetime bounds how long a confirmation page can be answered
// (and never past its device authorization).
const deviceConfirmLifetime = 10 * time.Minute

// devicePage asks for the user code (prefilled from the verification link).
func (p *loginPages) devicePage(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("user_code")
	if len(code) > 20 {
		code = ""
	}
	p.render(w, r, http.StatusOK, "device.html", deviceView{CSRF: p.newCSRF(w), UserCode: code, Brand: p.brands().ofPage(r)})
}

// normalUserCode is a user code as stored: upper case, the dash where it
// goes, without the spaces people type.
func normalUserCode(s string) string {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s)))
	if len(s) != op.UserCodeBase20.CharAmount {
		return ""
	}
	return s[:4] + "-" + s[4:]
}

// deviceSubmit looks the user code up and asks the user to confirm that the
// device is theirs (a code someone sent them is refused there). Entries are
// rate limited like sign-in attempts: user codes are short. The
// confirmation page carries a one-time value of its own, bound to this
// browser (its login binding cookie) and to the device code: only that
// value, not the user code, can approve or deny the device.
func (p *loginPages) deviceSubmit(w http.ResponseWriter, r *http.Request) {
	if !p.postedAttempt(w, r, "Reload the page and try again.") {
		return
	}
	code := normalUserCode(r.PostForm.Get("user_code"))
	d, err := p.deviceByCode(r.Context(), code)
	if err != nil {
		p.render(w, r, http.StatusBadRequest, "device.html", deviceView{CSRF: p.newCSRF(w), UserCode: r.PostForm.Get("user_code"), Brand: p.brands().ofPage(r),
			Error: "This code is not valid or has expired. Check the code your device shows."})
		return
	}
	confirmation, expires := randomToken(), p.now().Add(deviceConfirmLifetime)
	if d.ExpiresAt.Before(expires) {
		expires = d.ExpiresAt
	}
	if err := p.store.CreateDeviceConfirmation(r.Context(), hashSecret(confirmation), d.DeviceCodeHash, p.bind(w, r), expires); err != nil {
		p.internalError(w, r, err)
		return
	}
	name := d.ClientID
	if app, err := p.application(r.Context(), d.ClientID); err == nil {
		name = app.Name
	}
	brand := p.brands().ofPage(r)
	if org := orgScope(d.Scopes); org != "" {
		brand = p.brands().ofOrg(r.Context(), org)
	}
	p.render(w, r, http.StatusOK, "device_confirm.html", deviceView{CSRF: p.newCSRF(w), UserCode: code, AppName: name,
		Confirmation: confirmation, Brand: brand})
}

func (p *loginPages) deviceByCode(ctx context.Context, code string) (*store.DeviceAuthorization, error) {
	if code == "" {
		return nil, platform.Errorf(platform.ENOTFOUND, "device authorization not found")
	}
	return p.store.DeviceAuthorizationByUserCode(ctx, code, p.now())
}

// deviceDecide denies the device, or starts the login that approves it: a
// login transaction bound to this browser, with the device's client and
// scopes (an organization scope among them applies its policies). It
// counts on the sign-in limit like user-code entries, and takes the
// confirmation page's one-time value, once, in the browser that was shown
// the page; a user code alone (guessed, or from someone else's screen)
// decides nothing.
func (p *loginPages) deviceDecide(w http.ResponseWriter, r *http.Request) {
	if !p.postedAttempt(w, r, "Reload the page and try again.") {
		return
	}
	ctx := r.Context()
	confirmation, binding := r.PostForm.Get("confirmation"), ""
	if c, err := r.Cookie(p.cookie(bindingCookie)); err == nil && validHandle(c.Value) {
		binding = hashSecret(c.Value)
	}
	if !validHandle(confirmation) || binding == "" {
		p.renderError(w, r, http.StatusForbidden, "Invalid request", "Enter the code shown on your device again.")
		return
	}
	d, err := p.store.TakeDeviceConfirmation(ctx, hashSecret(confirmation), binding, p.now())
	if p.failed(w, r, err, http.StatusBadRequest, "This confirmation has expired",
		"It was used already, has expired, or was opened in another browser. Enter the code shown on your device again.") {
		return
	}
	now := p.now()
	if r.PostForm.Get("decision") != "approve" {
		err := p.store.DecideDeviceAuthorization(ctx, d.DeviceCodeHash, false, "", nil, time.Time{}, now)
		if p.failed(w, r, err, http.StatusBadRequest, msgDeviceCodeExpired, msgStartOnDevice) {
			return
		}
		p.renderError(w, r, http.StatusOK, "Request denied", "The device was not signed in. You can close this window.")
		return
	}
	expires := now.Add(p.cfg.LoginTimeout)
	if d.ExpiresAt.Before(expires) {
		expires = d.ExpiresAt
	}
	a := &store.AuthRequest{ID: uuid.NewString(), ClientID: d.ClientID, Scopes: d.Scopes, ResponseType: "code",
		CreatedAt: now, ExpiresAt: expires, BindingHash: p.bind(w, r), DeviceCodeHash: d.DeviceCodeHash}
	if err := p.store.CreateAuthRequest(ctx, a); err != nil {
		p.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, PathLogin+"?authRequestID="+a.ID, http.StatusSeeOther)
}

// approveDevice is the callback of a login that approves a device: the
// device's next poll gets the tokens of the user who signed in.
func (p *loginPages) approveDevice(w http.ResponseWriter, r *http.Request, a *store.AuthRequest) {
	if !a.Done {
		p.renderError(w, r, http.StatusBadRequest, msgExpired, msgStartOnDevice)
		return
	}
	err := p.store.DecideDeviceAuthorization(r.Context(), a.DeviceCodeHash, true, a.UserID, a.AMR, a.AuthTime, p.now())
	if p.failed(w, r, err, http.StatusBadRequest, msgDeviceCodeExpired, msgStartOnDevice) {
		return
	}
	p.renderError(w, r, http.StatusOK, "Device signed in", "Return to your device: it continues by itself. You can close this window.")
}
