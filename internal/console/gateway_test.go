package console

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func tenantQuery() url.Values {
	return url.Values{"client_id": {instanceClient}, "redirect_uri": {instanceRedirect},
		"scope": {"openid profile email offline_access"}, "code_challenge": {challenge},
		"code_challenge_method": {"S256"}, "state": {"tenant-state"}, "nonce": {"tenant-nonce"}}
}

func (tc *testConsole) page(q url.Values) (int, string) {
	tc.t.Helper()
	resp, err := http.Get(tc.srv.URL + "/?" + q.Encode())
	if err != nil {
		tc.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The gateway refuses a tenant-app request it cannot honour, and then offers
// no sign-in at all.
// spec: R5.3-refuse, R4.1-rc-never, R5.1-pkce
func TestGatewayRefuses(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	for name, mutate := range map[string]func(url.Values){
		"ErrUnregisteredRedirect": func(q url.Values) { q.Set("redirect_uri", "https://evil.example/auth/callback") },
		"ErrUnknownClient":        func(q url.Values) { q.Set("client_id", "nope") },
		"ErrLegacyClient":         func(q url.Values) { q.Set("client_id", legacyClient) },
		"ErrMissingRedirect":      func(q url.Values) { q.Del("redirect_uri") },
		"ErrPlainChallenge":       func(q url.Values) { q.Set("code_challenge_method", "plain") },
		"ErrMissingChallenge":     func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") },
		"ErrMissingState":         func(q url.Values) { q.Del("state") },
		"ErrMissingNonce":         func(q url.Values) { q.Del("nonce") },
		"ErrOverlongQuery":        func(q url.Values) { q.Set("junk", strings.Repeat("x", 5000)) },
	} {
		t.Run(name, func(t *testing.T) {
			q := tenantQuery()
			mutate(q)
			code, body := tc.page(q)
			if code != http.StatusBadRequest || !strings.Contains(body, `id="refused"`) || strings.Contains(body, `id="email-step"`) {
				t.Fatalf("got %d; want a refusal page without a sign-in form", code)
			}
			if strings.Contains(body, "evil.example") || strings.Contains(body, "tenant-state") {
				t.Fatal("the refused request was echoed into the page")
			}
		})
	}
	t.Run("OKUnknownParametersIgnored", func(t *testing.T) {
		q := tenantQuery()
		q.Set("utm_source", "mail")
		code, body := tc.page(q)
		if code != http.StatusOK || !strings.Contains(body, `data-flow="tenant"`) || !strings.Contains(body, `data-state="tenant-state"`) {
			t.Fatalf("valid tenant request: %d", code)
		}
	})
	t.Run("OKConsoleFlow", func(t *testing.T) {
		code, body := tc.page(url.Values{})
		if code != http.StatusOK || !strings.Contains(body, `data-flow="console"`) {
			t.Fatalf("console flow: %d", code)
		}
	})
}

func (tc *testConsole) authorize(req map[string]any) (int, map[string]any, url.Values) {
	tc.t.Helper()
	resp, out := tc.post("/api/v1/login/authorize", req)
	var q url.Values
	if s, ok := out["url"].(string); ok {
		u, err := url.Parse(s)
		if err != nil {
			tc.t.Fatal(err)
		}
		if !strings.HasPrefix(s, testIssuer+"/oauth/v2/authorize?") {
			tc.t.Fatalf("authorize URL %s is not the provider's", s)
		}
		q = u.Query()
	}
	return resp.StatusCode, out, q
}

func tenantAuthorize(email, org, method, idp string) map[string]any {
	return map[string]any{"flow": "tenant", "email": email, "orgId": org, "method": method, "idpId": idp,
		"clientId": instanceClient, "redirectUri": instanceRedirect,
		"scope":         "openid profile email offline_access urn:idp:iam:org:id:" + globexOrg + " urn:idp:iam:user:resourceowner",
		"codeChallenge": challenge, "state": "tenant-state", "nonce": "tenant-nonce"}
}

// The tenant-app flow: the app's client, redirect URI, challenge, state and
// nonce pass through, the scopes are sanitized and the organization's added.
// spec: R5.4-strip, R5.4-append, R5.1-nonce, R4.1-ro-customer
func TestAuthorizeTenantFlow(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	code, out, q := tc.authorize(tenantAuthorize("dana@partner.example", globexOrg, "sso", "idp-2"))
	if code != 200 {
		t.Fatalf("authorize = %d %v", code, out)
	}
	want := url.Values{"response_type": {"code"}, "client_id": {instanceClient}, "redirect_uri": {instanceRedirect},
		"scope":          {"openid profile email offline_access urn:idp:iam:org:id:" + globexOrg + " urn:idp:iam:org:idp:id:idp-2"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"tenant-state"},
		"nonce": {"tenant-nonce"}, "login_hint": {"dana@partner.example"}}
	if q.Encode() != want.Encode() {
		t.Fatalf("authorize query\n got %s\nwant %s", q.Encode(), want.Encode())
	}
	t.Run("OKPasswordNoIDPScope", func(t *testing.T) {
		_, _, q := tc.authorize(tenantAuthorize("dana@partner.example", acmeOrg, "password", "idp-2"))
		if q.Get("scope") != "openid profile email offline_access urn:idp:iam:org:id:"+acmeOrg {
			t.Fatalf("scope = %q", q.Get("scope"))
		}
	})
	for name, req := range map[string]map[string]any{
		// spec: R4.1-ro-internal, R5.5-enum
		"ErrInternalUser":     tenantAuthorize("admin@platform.example", "", "password", ""),
		"ErrUnknownUser":      tenantAuthorize("nobody@x.example", acmeOrg, "password", ""),
		"ErrOrgOfSomeoneElse": tenantAuthorize("alice@acme.example", globexOrg, "password", ""),
		"ErrMethodNotAllowed": tenantAuthorize("alice@acme.example", acmeOrg, "sso", "idp-2"),
		"ErrIDPOfAnotherOrg":  tenantAuthorize("dana@partner.example", globexOrg, "sso", "idp-1"),
		"ErrUnregisteredRedirect": func() map[string]any {
			r := tenantAuthorize("alice@acme.example", acmeOrg, "password", "")
			r["redirectUri"] = "https://evil.example/cb"
			return r
		}(),
		"ErrLegacyClient": func() map[string]any {
			r := tenantAuthorize("alice@acme.example", acmeOrg, "password", "")
			r["clientId"] = legacyClient
			return r
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			code, out, q := tc.authorize(req)
			if code != http.StatusForbidden || q != nil {
				t.Fatalf("got %d %v", code, out)
			}
		})
	}
	t.Run("SameMessageInternalAndUnknown", func(t *testing.T) {
		_, a, _ := tc.authorize(tenantAuthorize("admin@platform.example", "", "password", ""))
		_, b, _ := tc.authorize(tenantAuthorize("nobody@x.example", "", "password", ""))
		if a["error"].(map[string]any)["detail"].([]any)[0] != b["error"].(map[string]any)["detail"].([]any)[0] {
			t.Fatalf("internal and unknown answered differently: %v / %v", a, b)
		}
	})
	for name, mutate := range map[string]func(map[string]any){
		"ErrPlainChallenge": func(r map[string]any) { r["codeChallenge"] = "short" },
		"ErrNoState":        func(r map[string]any) { r["state"] = "" },
		"ErrNoNonce":        func(r map[string]any) { r["nonce"] = "" },
	} {
		t.Run(name, func(t *testing.T) {
			r := tenantAuthorize("alice@acme.example", acmeOrg, "password", "")
			mutate(r)
			if code, out, _ := tc.authorize(r); code != http.StatusBadRequest {
				t.Fatalf("got %d %v", code, out)
			}
		})
	}
}

// The console's own flow: its client, its callback, its scopes; internal
// users without an organization scope.
// spec: R5.2-flow, R5.4-own, R4.1-ro-internal
func TestAuthorizeConsoleFlow(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	base := map[string]any{"flow": "console", "codeChallenge": challenge, "state": "s", "nonce": "n",
		"clientId": "evil", "redirectUri": "https://evil.example/cb", "scope": "urn:idp:iam:org:id:x"}
	with := func(kv ...string) map[string]any {
		r := map[string]any{}
		for k, v := range base {
			r[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			r[kv[i]] = kv[i+1]
		}
		return r
	}
	_, _, q := tc.authorize(with("email", "admin@platform.example"))
	if q.Get("client_id") != "console-portal" || q.Get("redirect_uri") != "https://console.example/callback" ||
		q.Get("scope") != "openid profile email urn:idp:iam:user:resourceowner" {
		t.Fatalf("internal: %v", q)
	}
	_, _, q = tc.authorize(with("email", "peter@initech.example", "orgId", ssoOrg, "method", "sso", "idpId", "idp-1"))
	if q.Get("scope") != "openid profile email urn:idp:iam:user:resourceowner urn:idp:iam:org:id:"+ssoOrg+" urn:idp:iam:org:idp:id:idp-1" {
		t.Fatalf("sso: %v", q.Get("scope"))
	}
	if code, _, _ := tc.authorize(with("email", "nobody@acme.example", "orgId", acmeOrg, "method", "password")); code != http.StatusForbidden {
		t.Fatalf("not_found answered %d", code)
	}
	_, _, q = tc.authorize(map[string]any{"flow": "console-silent", "codeChallenge": challenge, "state": "s", "nonce": "n"})
	if q.Get("prompt") != "none" || q.Get("client_id") != "console-portal" {
		t.Fatalf("silent: %v", q)
	}
}
