package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

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
