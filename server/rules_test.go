package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// roleHandlers starts the all-in-one platform and keeps the handler each
// role serves (below the ops routes every role shares).
func roleHandlers(t *testing.T) (*Main, map[string]http.Handler) {
	t.Helper()
	hs := map[string]http.Handler{}
	m := mustRunMainWith(t, func(m *Main) {
		m.WrapRole = func(role string, h http.Handler) http.Handler {
			hs[role] = h
			return h
		}
	})
	return m, hs
}

// walkRoutes lists the "METHOD pattern" of every route of a role's chi
// router, mounted sub-routers included.
func walkRoutes(t *testing.T, h http.Handler) []string {
	t.Helper()
	r, ok := h.(chi.Routes)
	if !ok {
		t.Fatalf("the role's handler is a %T, not a chi router", h)
	}
	var routes []string
	err := chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+strings.ReplaceAll(route, "/*/", "/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(routes)
	return routes
}

// Every route of the console API and of the data API is under /api/v1.
// The console's and the tenant's routers are walked whole; a route outside
// /api/v1 must be one of the documented routes that are not those APIs:
// the gateway and its callback (R4.4-callbacks, R5.2-flow), the console
// app's pages and assets (D-console-app), the tenant web app and its
// backend's sign-in (R4.2-config, R4.2-callback, D-tenant-auth, the
// back-channel logout, the end of an impersonation's session, D-impersonation), GraphQL (D-graphql) and the console's SCIM server
// under /scim/v2, the base directories are given (D-scim). Anything else the routers
// grow outside /api/v1 fails here.
//
// spec: R9-prefix
func TestEveryAPIRouteUnderVersionPrefix(t *testing.T) {
	t.Parallel()
	_, hs := roleHandlers(t)
	notAPI := map[string]map[string]bool{
		RoleConsole: {
			"GET /": true, "GET /callback": true,
			"GET /dashboard": true, "GET /dashboard/*": true, "GET /portal": true, "GET /portal/*": true,
			"GET /app/assets/{file}": true, "GET /static/{file}": true,
		},
		RoleTenant: {
			"GET /": true, "GET /3/": true, "GET /auth/callback": true, "GET /3/auth/callback": true,
			"GET /projects": true, "GET /signed-out": true, "GET /static/{file}": true,
			"GET /auth/config": true, "POST /auth/idp/callback": true, "GET /auth/session": true,
			"POST /auth/logout": true, "POST /auth/backchannel-logout": true, "POST /auth/impersonation/end": true,
		},
	}
	// Routes each API must have, so a walk that misses a mounted router
	// cannot pass by finding nothing.
	mustHave := map[string][]string{
		RoleConsole: {"POST /api/v1/login/resolve-org", "GET /api/v1/login/resolve-client", "GET /api/v1/auth/me",
			"GET /api/v1/customers", "PATCH /api/v1/tenants/{id}", "GET /api/v1/me/permissions", "GET /scim/v2/Users/"},
		RoleTenant: {"GET /api/v1/master-record/{masterName}", "POST /api/v1/cx/upload", "GET /api/v1/me/tenants"},
	}
	for _, role := range []string{RoleConsole, RoleTenant} {
		t.Run(role, func(t *testing.T) {
			routes := walkRoutes(t, hs[role])
			seen := map[string]bool{}
			for _, rt := range routes {
				seen[rt] = true
				_, pattern, _ := strings.Cut(rt, " ")
				switch {
				case strings.HasPrefix(pattern, "/api/v1/"):
				case pattern == "/graphql" || pattern == "/graphql/assets/*":
				case role == RoleConsole && strings.HasPrefix(pattern, "/scim/v2/"): // the SCIM server's fixed base (D-scim)
				case notAPI[role][rt]:
				default:
					t.Errorf("%s route %q is outside /api/v1 and is none of the documented pages", role, rt)
				}
			}
			for _, rt := range mustHave[role] {
				if !seen[rt] {
					t.Errorf("%s has no route %q; routes: %v", role, rt, routes)
				}
			}
		})
	}
}

// authorizeURLFor asks the console's gateway for the identity provider's
// authorize URL (POST /api/v1/login/authorize) and answers its query.
func authorizeURLFor(t *testing.T, m *Main, in map[string]string) (int, url.Values) {
	t.Helper()
	body := map[string]string{"codeChallenge": strings.Repeat("c", 43), "state": "state-1", "nonce": "nonce-1"}
	for k, v := range in {
		body[k] = v
	}
	a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/api/v1/login/authorize", "", body)
	raw, _ := a.body["url"].(string)
	if a.status != 200 {
		return a.status, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme+"://"+u.Host+u.Path != m.Config.IssuerURL+"/oauth/v2/authorize" {
		t.Fatalf("authorize URL %q (%v) is not the provider's authorize endpoint", raw, err)
	}
	return a.status, u.Query()
}

// There is one console portal application, and it registers exactly
// {console_url}/callback: the stored application, and the provider, which
// refuses the portal's client with any other redirect URI (no redirect to
// it) and shows its sign-in page for that one.
//
// spec: R2.5-console-app
func TestConsolePortalApplicationRegistersOnlyCallback(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	apps, err := m.Store.Applications(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var portal []string
	for _, app := range apps {
		for _, u := range app.RedirectURIs {
			if strings.HasPrefix(u, m.Config.ConsoleURL+"/") {
				portal = append(portal, app.ClientID)
				break
			}
		}
	}
	if len(portal) != 1 || portal[0] != m.Config.ConsoleClientID {
		t.Fatalf("applications with a redirect URI on the console: %v, want only %s", portal, m.Config.ConsoleClientID)
	}
	app, err := m.Store.ApplicationByClientID(context.Background(), m.Config.ConsoleClientID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{m.Config.ConsoleURL + "/callback"}; !slices.Equal(app.RedirectURIs, want) {
		t.Fatalf("console portal redirect URIs = %v, want %v", app.RedirectURIs, want)
	}

	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	authorize := func(redirect string) (int, string, string) {
		q := url.Values{"response_type": {"code"}, "client_id": {m.Config.ConsoleClientID}, "redirect_uri": {redirect},
			"scope": {"openid email"}, "code_challenge": {strings.Repeat("c", 43)}, "code_challenge_method": {"S256"},
			"state": {"state-1"}, "nonce": {"nonce-1"}}
		resp, err := noRedirects.Get(m.Config.IssuerURL + "/oauth/v2/authorize?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	code, loc, _ := authorize(m.Config.ConsoleURL + "/callback")
	if code != http.StatusFound || !strings.Contains(loc, "/ui/login") {
		t.Fatalf("authorize with {console_url}/callback = %d to %q, want the sign-in page", code, loc)
	}
	for _, other := range []string{m.Config.ConsoleURL + "/", m.Config.ConsoleURL + "/callback/x", m.Config.ConsoleURL + "/dashboard",
		m.Config.InstanceURL + "/auth/callback", "https://evil.example/callback"} {
		code, loc, _ := authorize(other)
		if code < 400 || loc != "" {
			t.Errorf("authorize for the console portal with redirect_uri %s = %d to %q, want a refusal without a redirect", other, code, loc)
		}
	}
}

// The console's callback is {console_url}/callback: every authorize URL
// the gateway builds for the console's own flows names it, and the console
// serves its callback page there. The tenant web app's callbacks are
// {instance_url}/auth/callback and {instance_url}/3/auth/callback: the
// gateway passes either through for the demo instance, the tenant backend
// tells the web app the first, and the web app answers its callback page at
// both.
//
// spec: R4.4-callbacks
func TestCallbackAddresses(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	consoleCallback := m.Config.ConsoleURL + "/callback"
	for _, in := range []map[string]string{
		{"flow": "console", "email": "admin@platform.example"},
		{"flow": "console", "email": "alice@acme.example", "orgId": DemoAcmeOrgID, "method": "password"},
		{"flow": "console-silent"},
	} {
		code, q := authorizeURLFor(t, m, in)
		if code != 200 || q.Get("redirect_uri") != consoleCallback || q.Get("client_id") != m.Config.ConsoleClientID {
			t.Errorf("console flow %v: %d, redirect_uri %q client_id %q; want %s of %s", in, code, q.Get("redirect_uri"),
				q.Get("client_id"), consoleCallback, m.Config.ConsoleClientID)
		}
	}
	for _, cb := range []string{m.Config.InstanceURL + "/auth/callback", m.Config.InstanceURL + "/3/auth/callback"} {
		code, q := authorizeURLFor(t, m, map[string]string{"flow": "tenant", "email": "alice@acme.example", "orgId": DemoAcmeOrgID,
			"method": "password", "clientId": m.Config.InstanceClientID, "redirectUri": cb, "scope": "openid profile email"})
		if code != 200 || q.Get("redirect_uri") != cb || q.Get("client_id") != m.Config.InstanceClientID {
			t.Errorf("tenant flow to %s: %d, redirect_uri %q client_id %q", cb, code, q.Get("redirect_uri"), q.Get("client_id"))
		}
	}
	if code, cfg := getJSON(t, http.DefaultClient, m.Config.InstanceURL+"/auth/config"); code != 200 || cfg["redirectUri"] != m.Config.InstanceURL+"/auth/callback" {
		t.Errorf("/auth/config = %d, redirectUri %v", code, cfg["redirectUri"])
	}

	page := func(u string) string {
		t.Helper()
		code, body := get(t, u)
		if code != 200 {
			t.Fatalf("GET %s = %d", u, code)
		}
		return body
	}
	if body := page(consoleCallback + "?code=x&state=y"); !strings.Contains(body, "<title>Signing in</title>") {
		t.Errorf("the console's /callback is not its callback page:\n%.300s", body)
	}
	app := page(m.Config.InstanceURL + "/")
	for _, cb := range []string{"/auth/callback", "/3/auth/callback"} {
		if body := page(m.Config.InstanceURL + cb + "?code=x&state=y"); body == app || !strings.Contains(body, "<title>Signing in</title>") {
			t.Errorf("the web app's %s is not its callback page:\n%.300s", cb, body)
		}
	}
}
