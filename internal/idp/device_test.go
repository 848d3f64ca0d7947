package idp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

const deviceClientID = "tv-client"

// withDeviceApp registers a public application with the device flow and
// no redirect URI (a television or a command line tool).
func (ti *testIDP) withDeviceApp() {
	ti.t.Helper()
	err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "app-tv", ClientID: deviceClientID,
		Name: "Living room TV", Kind: platform.AppPublic, DeviceFlow: true, CreatedAt: time.Now().UTC()})
	if err != nil {
		ti.t.Fatal(err)
	}
}

// startDevice asks for a device authorization and returns the answer.
func (ti *testIDP) startDevice(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(ti.issuer+PathDeviceAuthorization, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (ti *testIDP) pollDevice(t *testing.T, clientID, deviceCode string) (int, map[string]any) {
	t.Helper()
	return ti.tokenPost(t, url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"},
		"device_code": {deviceCode}, "client_id": {clientID}}, "", "")
}

// enterCode opens the verification link in b and confirms (or denies) the
// device; it answers the page after that.
func (ti *testIDP) enterCode(b *browser, link, decision string) (*http.Response, string) {
	ti.t.Helper()
	_, page := b.get(link)
	_, confirm := b.submitForm(ti.issuer+PathDevice, page, "user_code", hiddenOrInput(page, "user_code"))
	if !strings.Contains(confirm, "Living room TV") {
		ti.t.Fatalf("the confirmation does not name the application:\n%.800s", confirm)
	}
	return b.submitForm(ti.issuer+PathDeviceDecide, confirm, "decision", decision)
}

// hiddenOrInput is the value attribute of the input called name on page.
func hiddenOrInput(page, name string) string {
	i := strings.Index(page, `name="`+name+`"`)
	if i < 0 {
		return ""
	}
	rest := page[i:]
	j := strings.Index(rest, `value="`)
	if j < 0 {
		return ""
	}
	rest = rest[j+len(`value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// The device flow end to end (RFC 8628): the device gets a code, polls
// (too fast: slow_down, and the interval grows), the user enters the code
// in a browser, confirms the device, signs in; the next poll gets the
// tokens once, and the refresh token works.
// spec: D-service-accounts
func TestDeviceFlow(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	status, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid email offline_access"}})
	if status != http.StatusOK || d["device_code"] == nil || d["interval"] != float64(5) || d["expires_in"] != float64(600) {
		t.Fatalf("device authorization = %d %v", status, d)
	}
	if d["verification_uri"] != ti.issuer+PathDevice {
		t.Fatalf("verification_uri = %v", d["verification_uri"])
	}
	deviceCode, userCode := d["device_code"].(string), d["user_code"].(string)
	if len(userCode) != 9 || userCode[4] != '-' {
		t.Fatalf("user code %q", userCode)
	}

	if _, out := ti.pollDevice(t, deviceClientID, deviceCode); out["error"] != "authorization_pending" {
		t.Fatalf("first poll = %v", out)
	}
	if _, out := ti.pollDevice(t, deviceClientID, deviceCode); out["error"] != "slow_down" {
		t.Fatalf("a poll within the interval = %v, want slow_down", out)
	}
	ti.clock.offset += 6 * time.Second // past 5 s, but within the widened 10 s
	if _, out := ti.pollDevice(t, deviceClientID, deviceCode); out["error"] != "slow_down" {
		t.Fatalf("a poll within the widened interval = %v, want slow_down", out)
	}

	b := ti.browser()
	_, page := ti.enterCode(b, d["verification_uri_complete"].(string), "approve")
	_, done := b.submitLogin(ti.issuer, page, alice, goodPass)
	if !strings.Contains(done, "Device signed in") {
		t.Fatalf("after sign-in:\n%.800s", done)
	}

	ti.clock.offset += 16 * time.Second
	status, tok := ti.pollDevice(t, deviceClientID, deviceCode)
	if status != http.StatusOK || tok["access_token"] == nil || tok["refresh_token"] == nil || tok["id_token"] == nil {
		t.Fatalf("poll after approval = %d %v", status, tok)
	}
	ctx := gooidc.ClientContext(context.Background(), ti.srv.Client())
	prov, err := gooidc.NewProvider(ctx, ti.issuer)
	if err != nil {
		t.Fatal(err)
	}
	idt, err := prov.Verifier(&gooidc.Config{ClientID: deviceClientID, Now: ti.clock.now}).Verify(ctx, tok["id_token"].(string))
	if err != nil || idt.Subject != userAlice {
		t.Fatalf("id_token: %v %v", idt, err)
	}

	ti.clock.offset += 16 * time.Second
	if status, out := ti.pollDevice(t, deviceClientID, deviceCode); status == http.StatusOK || out["access_token"] != nil {
		t.Fatalf("the device code redeemed twice: %d %v", status, out)
	}

	status, refreshed := ti.tokenPost(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)},
		"client_id": {deviceClientID}}, "", "")
	if status != http.StatusOK || refreshed["access_token"] == nil {
		t.Fatalf("refresh = %d %v", status, refreshed)
	}
}

// Denying the device on the confirmation page ends the authorization: the
// device's next poll is access_denied, and the code cannot be entered again.
func TestDeviceDenied(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
	_, page := ti.enterCode(ti.browser(), d["verification_uri_complete"].(string), "deny")
	if !strings.Contains(page, "Request denied") {
		t.Fatalf("after deny:\n%.500s", page)
	}
	if _, out := ti.pollDevice(t, deviceClientID, d["device_code"].(string)); out["error"] != "access_denied" {
		t.Fatalf("poll after deny = %v", out)
	}
	b := ti.browser()
	_, entry := b.get(ti.issuer + PathDevice)
	if _, again := b.submitForm(ti.issuer+PathDevice, entry, "user_code", d["user_code"].(string)); !strings.Contains(again, "not valid or has expired") {
		t.Fatalf("a denied code entered again:\n%.500s", again)
	}
}

// A device that polls too fast gets slow_down, even once the user approved,
// and its tokens only at the next poll the interval allows; an approved
// authorization not collected before it expires gives no tokens.
// attack: device-code-polling
func TestAttackDevicePolling(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	approved := func() string {
		_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
		b := ti.browser()
		_, page := ti.enterCode(b, d["verification_uri_complete"].(string), "approve")
		if _, done := b.submitLogin(ti.issuer, page, alice, goodPass); !strings.Contains(done, "Device signed in") {
			t.Fatalf("after sign-in:\n%.500s", done)
		}
		return d["device_code"].(string)
	}
	code := approved()
	if status, out := ti.pollDevice(t, deviceClientID, code); status != http.StatusOK {
		t.Fatalf("first poll after approval = %d %v", status, out)
	}

	_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
	code = d["device_code"].(string)
	ti.pollDevice(t, deviceClientID, code)
	b := ti.browser()
	_, page := ti.enterCode(b, d["verification_uri_complete"].(string), "approve")
	b.submitLogin(ti.issuer, page, alice, goodPass)
	if _, out := ti.pollDevice(t, deviceClientID, code); out["error"] != "slow_down" || out["access_token"] != nil {
		t.Fatalf("an approved code polled too fast = %v, want slow_down", out)
	}
	ti.clock.offset += 11 * time.Second
	if status, out := ti.pollDevice(t, deviceClientID, code); status != http.StatusOK || out["access_token"] == nil {
		t.Fatalf("the next poll the interval allows = %d %v", status, out)
	}

	code = approved()
	ti.clock.offset += deviceLifetime + time.Second
	if _, out := ti.pollDevice(t, deviceClientID, code); out["error"] != "expired_token" || out["access_token"] != nil {
		t.Fatalf("an approved code polled after expiry = %v, want expired_token", out)
	}
}

// An expired device authorization answers expired_token, and its user
// code is refused in the browser.
func TestDeviceExpired(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
	ti.clock.offset += deviceLifetime + time.Second
	if _, out := ti.pollDevice(t, deviceClientID, d["device_code"].(string)); out["error"] != "expired_token" {
		t.Fatalf("poll after expiry = %v", out)
	}
	b := ti.browser()
	_, entry := b.get(ti.issuer + PathDevice)
	if _, page := b.submitForm(ti.issuer+PathDevice, entry, "user_code", d["user_code"].(string)); !strings.Contains(page, "not valid or has expired") {
		t.Fatalf("an expired code entered:\n%.500s", page)
	}
}

// Who may start a device flow, and with what: only a public application
// registered for it, with client_id and no credentials, asking for scopes
// of this provider.
// attack: device-flow-clients
func TestAttackDeviceAuthorizationRequests(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	for name, tc := range map[string]struct {
		form url.Values
		want string
	}{
		"unknown client":          {url.Values{"client_id": {"nobody"}}, "invalid_client"},
		"client without the flow": {url.Values{"client_id": {appClientID}}, "invalid_client"},
		"a secret sent":           {url.Values{"client_id": {deviceClientID}, "client_secret": {"x"}}, "invalid_client"},
		"unknown scope":           {url.Values{"client_id": {deviceClientID}, "scope": {"openid admin"}}, "invalid_scope"},
		"too many scopes":         {url.Values{"client_id": {deviceClientID}, "scope": {strings.Repeat("openid ", maxScopes+1)}}, "invalid_scope"},
	} {
		if status, out := ti.startDevice(t, tc.form); status == http.StatusOK || out["error"] != tc.want {
			t.Errorf("%s: %d %v, want %s", name, status, out, tc.want)
		}
	}
}

// A device code polled by another client, and a code approved by a
// browser that never confirmed: neither gets tokens. Opening the
// verification link someone sent does not approve anything by itself, and
// the confirmation needs the page's CSRF token.
// attack: device-code-phishing
func TestAttackDeviceCode(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	if err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "app-tv2", ClientID: "tv-other",
		Name: "Other TV", Kind: platform.AppPublic, DeviceFlow: true, CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
	deviceCode := d["device_code"].(string)
	if status, out := ti.pollDevice(t, "tv-other", deviceCode); status == http.StatusOK || out["error"] != "access_denied" {
		t.Fatalf("another client's poll = %d %v", status, out)
	}

	victim := ti.browser()
	_, page := victim.get(d["verification_uri_complete"].(string))
	if !strings.Contains(page, d["user_code"].(string)) {
		t.Fatalf("the link does not prefill the code:\n%.500s", page)
	}
	if _, forged := victim.post(ti.issuer+PathDeviceDecide, url.Values{"user_code": {d["user_code"].(string)},
		"decision": {"approve"}}); !strings.Contains(forged, "Invalid request") {
		t.Fatalf("a confirmation without the CSRF token:\n%.500s", forged)
	}
	got, err := ti.st.DeviceAuthorizationByUserCode(context.Background(), d["user_code"].(string), ti.clock.now())
	if err != nil || got.State != store.DevicePending {
		t.Fatalf("after opening the link: %v %v", got, err)
	}
	if _, out := ti.pollDevice(t, deviceClientID, deviceCode); out["error"] != "authorization_pending" {
		t.Fatalf("poll = %v", out)
	}
}

// Guessing user codes is limited like sign-in attempts.
// attack: device-user-code-guessing
func TestAttackDeviceUserCodeGuessing(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, func(c *Config) { c.LoginRateLimit = 3 })
	b := ti.browser()
	_, entry := b.get(ti.issuer + PathDevice)
	var last *http.Response
	for range 4 {
		last, entry = b.submitForm(ti.issuer+PathDevice, entry, "user_code", "BCDF-GHJK")
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth guess = %d", last.StatusCode)
	}
}

// The management API registers device applications: public ones only,
// which then need no redirect URI.
func TestManagementDeviceApplications(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	code, app := m.do(http.MethodPost, "/applications", map[string]any{"name": "CLI", "deviceFlow": true})
	if code != http.StatusCreated || app["deviceFlow"] != true || app["kind"] != "public" {
		t.Fatalf("create = %d %v", code, app)
	}
	if status, d := ti.startDevice(t, url.Values{"client_id": {app["clientId"].(string)}}); status != http.StatusOK || d["user_code"] == nil {
		t.Fatalf("device authorization of the new application = %d %v", status, d)
	}
	for name, body := range map[string]map[string]any{
		"web with the device flow": {"name": "Web", "kind": "web", "deviceFlow": true, "redirectUris": []string{appRedirect}},
		"public without either":    {"name": "Nothing"},
	} {
		if code, out := m.do(http.MethodPost, "/applications", body); code != http.StatusBadRequest {
			t.Errorf("%s: %d %v", name, code, out)
		}
	}
}

// The decision on a device is the confirmation page's, not the user
// code's: a user code posted to the decision (guessed, or read off
// someone's screen; with a CSRF token of the attacker's own) neither denies
// the device nor starts a login that approves it with the attacker's
// account; the page's one-time value posted from another browser is
// refused and stays the victim's; the victim's own value decides once;
// decisions count on the sign-in limit like user-code entries.
// attack: device-decision-without-confirmation
func TestAttackDeviceDecisionWithoutConfirmation(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	ti.withDeviceApp()
	_, d := ti.startDevice(t, url.Values{"client_id": {deviceClientID}, "scope": {"openid"}})
	userCode := d["user_code"].(string)
	state := func() string {
		t.Helper()
		var s string
		if err := ti.st.Conn().QueryRow(context.Background(), `SELECT state FROM device_authorizations WHERE user_code = $1`,
			userCode).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	deviceLogins := func() int {
		t.Helper()
		var n int
		if err := ti.st.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM auth_requests WHERE device_code_hash <> ''`).
			Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	attacker := ti.browser()
	_, entry := attacker.get(ti.issuer + PathDevice)
	csrf := hiddenOrInput(entry, "csrf")
	for _, decision := range []string{"deny", "approve"} {
		resp, page := attacker.post(ti.issuer+PathDeviceDecide, url.Values{"csrf": {csrf}, "user_code": {userCode}, "decision": {decision}})
		if resp.StatusCode != http.StatusForbidden || state() != store.DevicePending || deviceLogins() != 0 {
			t.Fatalf("a raw user code decided %s: %d, state %s, %d device logins\n%.300s", decision, resp.StatusCode, state(),
				deviceLogins(), page)
		}
	}

	victim := ti.browser()
	_, page := victim.get(d["verification_uri_complete"].(string))
	_, confirm := victim.submitForm(ti.issuer+PathDevice, page, "user_code", userCode)
	value := hiddenOrInput(confirm, "confirmation")
	if len(value) != 43 || strings.Contains(confirm, `name="user_code"`) {
		t.Fatalf("the confirmation page carries no one-time value of its own:\n%.800s", confirm)
	}
	attacker.get(ti.rp().authURL(newFlow())) // a login binding cookie of the attacker's own
	_, entry = attacker.get(ti.issuer + PathDevice)
	csrf = hiddenOrInput(entry, "csrf")
	resp, _ := attacker.post(ti.issuer+PathDeviceDecide, url.Values{"csrf": {csrf}, "confirmation": {value}, "decision": {"deny"}})
	if resp.StatusCode != http.StatusBadRequest || state() != store.DevicePending {
		t.Fatalf("the victim's confirmation from another browser: %d, state %s", resp.StatusCode, state())
	}

	resp, login := victim.submitForm(ti.issuer+PathDeviceDecide, confirm, "decision", "approve")
	if resp.StatusCode != http.StatusOK || !strings.Contains(login, `name="password"`) || deviceLogins() != 1 {
		t.Fatalf("the victim's own confirmation (left unspent by the refusal): %d, %d device logins\n%.500s", resp.StatusCode,
			deviceLogins(), login)
	}
	_, entry = victim.get(ti.issuer + PathDevice) // a fresh CSRF token: the login page replaced the cookie
	resp, again := victim.post(ti.issuer+PathDeviceDecide, url.Values{"csrf": {hiddenOrInput(entry, "csrf")}, "confirmation": {value},
		"decision": {"deny"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(again, "This confirmation has expired") ||
		state() != store.DevicePending || deviceLogins() != 1 {
		t.Fatalf("a confirmation used twice: %d, state %s, %d device logins\n%.300s", resp.StatusCode, state(), deviceLogins(), again)
	}

	limited := mustIDP(t, func(c *Config) { c.LoginRateLimit = 3 })
	b := limited.browser()
	_, entry = b.get(limited.issuer + PathDevice)
	form := url.Values{"csrf": {hiddenOrInput(entry, "csrf")}, "confirmation": {randomToken()}, "decision": {"deny"}}
	for i := 1; i <= 4; i++ {
		resp, _ := b.post(limited.issuer+PathDeviceDecide, form)
		if i == 4 && (resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "") {
			t.Fatalf("decision %d past the sign-in limit = %d", i, resp.StatusCode)
		}
	}
}
