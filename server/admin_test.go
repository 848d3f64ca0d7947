package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/tenant"
)

// adminCall sends one console API request with a bearer token.
func adminCall(t *testing.T, m *Main, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, m.Config.ConsoleURL+"/api/v1"+path, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// An instance created through the console API registers its application at
// the running identity provider (through the management API, as the
// console's service client) with both callback paths and stores the
// connection; resolve-client accepts it, a user completes a PKCE login with
// the new client id on either callback, and a tenant backend configured
// for that instance creates a session from the id_token.
// spec: R2.5-instance-app, R2.4-connection, R9-callbacks, R4.1-rc4
func TestInstanceCreatedThroughAPILogsIn(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	instURL := "http://" + ln.Addr().String()
	code, inst := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances",
		map[string]any{"customerId": DemoAcmeCustomerID, "name": "Acme staging", "url": instURL})
	if code != http.StatusCreated {
		t.Fatalf("create instance = %d %v", code, inst)
	}
	conn := inst["connection"].(map[string]any)
	clientID := conn["oidcClientId"].(string)
	if clientID == "" || conn["idpAppId"] == "" || conn["oidcRedirectUri"] != instURL+"/auth/callback" {
		t.Fatalf("connection = %v", conn)
	}
	app, err := m.Store.ApplicationByClientID(context.Background(), clientID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(app.RedirectURIs, " "), instURL+"/auth/callback "+instURL+"/3/auth/callback"; got != want {
		t.Fatalf("registered redirect URIs = %q, want %q", got, want)
	}
	if app.AppID != conn["idpAppId"] {
		t.Fatalf("idpAppId %v, application %s", conn["idpAppId"], app.AppID)
	}
	if app.Kind != platform.AppPublic || app.BackchannelLogoutURI != instURL+"/auth/backchannel-logout" || inst["clientSecret"] != nil {
		t.Fatalf("instance application: kind %s, back-channel logout %q, secret answered %v", app.Kind, app.BackchannelLogoutURI, inst["clientSecret"])
	}
	rc := m.Config.ConsoleURL + "/api/v1/login/resolve-client?client_id=" + url.QueryEscape(clientID) +
		"&redirect_uri=" + url.QueryEscape(instURL+"/auth/callback")
	if code, body := getJSON(t, http.DefaultClient, rc); code != 200 || body["valid"] != true {
		t.Fatalf("resolve-client = %d %v", code, body)
	}

	// the v3 callback works as well
	if tok, _ := demoLogin(t, m, clientID, instURL+"/3/auth/callback", "alice@acme.example"); tok.Extra("id_token") == nil {
		t.Fatal("no id_token through /3/auth/callback")
	}

	// a tenant backend for the new instance
	cfg := m.Config
	cfg.Role, cfg.InstanceURL, cfg.InstanceClientID, cfg.SeedDemo = RoleTenant, instURL, clientID, false
	tm := NewMain(cfg)
	tm.Listeners[RoleTenant] = ln
	if err := tm.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm.Close() })

	tok, _ := demoLogin(t, m, clientID, instURL+"/auth/callback", "bob@acme.example", "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, body := postJSON(t, c, instURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
	if resp.StatusCode != 200 || body["user"].(map[string]any)["email"] != "bob@acme.example" {
		t.Fatalf("tenant callback = %d %v", resp.StatusCode, body)
	}
	if code, s := getJSON(t, c, instURL+"/auth/session"); code != 200 {
		t.Fatalf("session = %d %v", code, s)
	}

	// rotation: the new client id logs in, the old one is refused
	code, rot := adminCall(t, m, admin.AccessToken, http.MethodPost, "/instances/"+inst["id"].(string)+"/connection/rotate", nil)
	if code != 200 || rot["oidcClientId"] == clientID {
		t.Fatalf("rotate = %d %v", code, rot)
	}
	if _, err := m.Store.ApplicationByClientID(context.Background(), clientID); err == nil {
		t.Fatal("the old client id still exists after rotation")
	}
}

// tryPasswordLogin runs the provider's login form for email and reports
// whether it handed a code back to the application.
func tryPasswordLogin(t *testing.T, m *Main, clientID, redirect, email string) bool {
	t.Helper()
	coded, _ := passwordStep(t, m, clientID, redirect, email)
	return coded
}

// passwordStep posts the provider's login form for email with the demo
// password in a new browser and answers whether the provider handed a code
// back to the application, or else the page it answered (a second factor,
// its enrolment, a refusal).
func passwordStep(t *testing.T, m *Main, clientID, redirect, email string) (bool, string) {
	t.Helper()
	resp, page := signInForm(t, m, clientID, redirect, email, DemoPassword)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc != nil && loc.Query().Get("code") != "", string(page)
}

// signInForm starts an authorization of clientID (openid and scopes, a
// login hint of email) in a new browser and posts the provider's sign-in
// form with password; it answers the form's answer, redirects to the
// application not followed, and its page.
func signInForm(t *testing.T, m *Main, clientID, redirect, email, password string, scopes ...string) (*http.Response, []byte) {
	t.Helper()
	prov, err := gooidc.NewProvider(context.Background(), m.Config.IssuerURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg := oauth2.Config{ClientID: clientID, Endpoint: prov.Endpoint(), RedirectURL: redirect, Scopes: append([]string{"openid"}, scopes...)}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.String(), redirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := c.Get(cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()),
		oauth2.SetAuthURLParam("login_hint", email)))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"email": {email}, "password": {password}}
	for _, mm := range regexp.MustCompile(`name="(authRequestID|csrf)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(mm[1], mm[2])
	}
	resp, err = c.PostForm(m.Config.IssuerURL+idp.PathLogin, form)
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, page
}

// A suspended user cannot sign in, its refresh token stops working, and
// after reactivation it signs in again. The owner suspends through the API.
func TestSuspendedUserCannotSignIn(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	bob, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example", "offline_access")
	const bobID = "2b7e4d10-0000-4000-8000-000000000003"
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/users/"+bobID+"/suspend", nil); code != 200 ||
		body["status"] != "suspended" {
		t.Fatalf("suspend = %d %v", code, body)
	}
	if tryPasswordLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example") {
		t.Fatal("a suspended user signed in")
	}
	prov, _ := gooidc.NewProvider(context.Background(), m.Config.IssuerURL)
	cfg := oauth2.Config{ClientID: m.Config.InstanceClientID, Endpoint: prov.Endpoint()}
	bob.Expiry = time.Now().Add(-time.Minute)
	if _, err := cfg.TokenSource(context.Background(), bob).Token(); err == nil {
		t.Fatal("a suspended user's refresh token still works")
	}
	if code, body := adminCall(t, m, owner.AccessToken, http.MethodPost, "/users/"+bobID+"/reactivate", nil); code != 200 ||
		body["status"] != "active" {
		t.Fatalf("reactivate = %d %v", code, body)
	}
	if !tryPasswordLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example") {
		t.Fatal("a reactivated user cannot sign in")
	}
}
