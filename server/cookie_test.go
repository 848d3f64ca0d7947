package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/tenant"
)

// tenantRequest sends method to u with the Cookie header cookie (and
// Origin origin, when set) and returns the status.
func tenantRequest(t *testing.T, method, u, cookie, origin string) int {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(`{"rows":[]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", cookie)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A tenant web app served over https set its session cookie without the
// __Host- prefix, so a sibling subdomain or a plain-HTTP answer could set
// or shadow it. Under an https instance URL the session cookie is
// __Host-tenant_session (Secure, Path=/, no Domain); it is read under that
// name only, and the data API's check of cookie-authenticated writes sees
// it: a cross-site write with it is refused.
// attack: tenant-cookie-without-host-prefix
func TestAttackTenantCookieWithoutHostPrefix(t *testing.T) {
	t.Parallel()
	var listener string
	m := mustRunMainWith(t, func(m *Main) {
		listener = m.Config.InstanceURL // TLS ends at a proxy in front: the listener speaks HTTP
		m.Config.InstanceURL = strings.Replace(listener, "http://127.0.0.1", "https://localhost", 1)
	})
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", "bob@acme.example", "offline_access")
	resp, body := postJSON(t, http.DefaultClient, listener+"/auth/idp/callback", tenant.CallbackRequest{
		IDToken: tok.Extra("id_token").(string), AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("callback = %d %v", resp.StatusCode, body)
	}
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if !strings.HasPrefix(c.Name, "__Host-") || !c.Secure || c.Path != "/" || c.Domain != "" {
			t.Errorf("cookie %s: Secure=%v Path=%q Domain=%q; want __Host-, Secure, Path=/, no Domain", c.Name, c.Secure, c.Path, c.Domain)
		}
		if c.Name == "__Host-"+tenant.SessionCookie {
			session = c
		}
	}
	if session == nil {
		t.Fatalf("no __Host-%s among %v", tenant.SessionCookie, resp.Cookies())
	}
	if code := tenantRequest(t, http.MethodGet, listener+"/auth/session", session.Name+"="+session.Value, ""); code != http.StatusOK {
		t.Fatalf("the session under its name = %d", code)
	}
	if code := tenantRequest(t, http.MethodGet, listener+"/auth/session", tenant.SessionCookie+"="+session.Value, ""); code != http.StatusUnauthorized {
		t.Fatalf("the session under the plain name = %d, want 401", code)
	}
	upload := listener + "/api/v1/cx/upload"
	if code := tenantRequest(t, http.MethodPost, upload, session.Name+"="+session.Value, "https://evil.example"); code != http.StatusForbidden {
		t.Fatalf("a cross-site upload with the session cookie = %d, want 403", code)
	}
	if code := tenantRequest(t, http.MethodPost, upload, session.Name+"="+session.Value, m.Config.InstanceURL); code == http.StatusForbidden ||
		code == http.StatusUnauthorized {
		t.Fatalf("an upload from the instance's own page = %d", code)
	}
}
