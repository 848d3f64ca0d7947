package main

import (
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/platform/platform/internal/tenant"
)

// Another site (or a sibling origin) posts to the tenant backend's logout
// with the browser's session cookie: refused, and the session lives on.
// The web app's own request (its origin, or the CSRF header with no other
// origin) still ends it.
// attack: tenant-logout-csrf
func TestAttackTenantLogoutCSRF(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example", "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if resp, body := postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"}); resp.StatusCode != 200 {
		t.Fatalf("callback = %d %v", resp.StatusCode, body)
	}
	logout := func(header ...string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, m.Config.InstanceURL+"/auth/logout", strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for name, h := range map[string][]string{
		"NoOriginNoHeader":       nil,
		"ForeignOrigin":          {"Origin", "https://evil.example"},
		"ForeignOriginAndHeader": {"Origin", "https://evil.example", "X-Requested-With", "fetch"},
		"ForeignReferer":         {"Referer", "https://evil.example/page"},
	} {
		if code := logout(h...); code != http.StatusForbidden {
			t.Errorf("%s: logout answered %d, want 403", name, code)
		}
		if code, _ := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != http.StatusOK {
			t.Fatalf("%s: the session ended (%d)", name, code)
		}
	}
	if code := logout("Origin", m.Config.InstanceURL); code != http.StatusOK {
		t.Fatalf("the web app's own logout answered %d", code)
	}
	if code, _ := getJSON(t, c, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("session after logout = %d", code)
	}
}
