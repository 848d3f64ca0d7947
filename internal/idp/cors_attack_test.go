package idp

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// corsDo sends method to u with Origin origin (a preflight for POST when
// method is OPTIONS) and returns the response with its body read.
func corsDo(t *testing.T, method, u, origin string, body url.Values) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(body.Encode())
	}
	req, _ := http.NewRequest(method, u, rd)
	req.Header.Set("Origin", origin)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if method == http.MethodOptions {
		req.Header.Set("Access-Control-Request-Method", http.MethodPost)
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// The provider reflected any origin, with credentials, on every endpoint
// (the op library's default), so any site's script could call it with the
// visitor's cookies and read the answers. Only the endpoints browser apps
// call (token, userinfo, keys, revoke, introspection, discovery) answer
// cross-origin requests, only for the origins of registered redirect URIs
// (one registered through the management API counts at once), and never
// with credentials; authorize and the login pages carry no CORS headers
// whatever the origin.
// attack: cors-any-origin
func TestAttackCORS(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	registered, evil := "http://127.0.0.1:1", "https://evil.example" // appRedirect's origin, and another
	endpoints := map[string]string{"token": PathToken, "userinfo": PathUserinfo, "keys": PathKeys, "revoke": PathRevoke,
		"introspect": PathIntrospect, "discovery": DiscoveryPath}
	check := func(t *testing.T, resp *http.Response, wantOrigin string) {
		t.Helper()
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != wantOrigin {
			t.Errorf("%s %s: Access-Control-Allow-Origin = %q, want %q", resp.Request.Method, resp.Request.URL.Path, got, wantOrigin)
		}
		if got := resp.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Errorf("%s %s: Access-Control-Allow-Credentials = %q", resp.Request.Method, resp.Request.URL.Path, got)
		}
	}
	for name, path := range endpoints {
		t.Run(name, func(t *testing.T) {
			pre := corsDo(t, http.MethodOptions, ti.issuer+path, registered, nil)
			check(t, pre, registered)
			if pre.StatusCode != http.StatusNoContent || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") ||
				!strings.Contains(strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers")), "authorization") {
				t.Errorf("preflight of a registered origin = %d %v", pre.StatusCode, pre.Header)
			}
			method, form := http.MethodPost, url.Values{"client_id": {appClientID}, "token": {"x"}}
			if path == DiscoveryPath || path == PathKeys {
				method, form = http.MethodGet, nil
			}
			check(t, corsDo(t, method, ti.issuer+path, registered, form), registered)
			check(t, corsDo(t, http.MethodOptions, ti.issuer+path, evil, nil), "")
			check(t, corsDo(t, method, ti.issuer+path, evil, form), "")
		})
	}
	for _, u := range []string{ti.rp().authURL(newFlow()), ti.issuer + PathLogin, ti.issuer + PathDevice, ti.issuer + PathAccount} {
		for _, method := range []string{http.MethodGet, http.MethodOptions} {
			resp := corsDo(t, method, u, registered, nil)
			for k := range resp.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("%s %s carries %s: %q", method, resp.Request.URL.Path, k, resp.Header.Get(k))
				}
			}
		}
	}

	m := ti.mgmtClient(t, true)
	if code, out := m.do(http.MethodPost, "/applications", map[string]any{"name": "New SPA",
		"redirectUris": []string{"https://spa.example/callback"}}); code != http.StatusCreated {
		t.Fatalf("register = %d %v", code, out)
	}
	check(t, corsDo(t, http.MethodOptions, ti.issuer+PathToken, "https://spa.example", nil), "https://spa.example")
	check(t, corsDo(t, http.MethodOptions, ti.issuer+PathToken, "https://spa.example:8443", nil), "")
}
