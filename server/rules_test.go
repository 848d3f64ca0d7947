package main

import (
	"net/http"
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
// back-channel logout), and GraphQL (D-graphql). Anything else the routers
// grow outside /api/v1 fails here.
//
// spec: R9-prefix
func TestEveryAPIRouteUnderVersionPrefix(t *testing.T) {
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
			"POST /auth/logout": true, "POST /auth/backchannel-logout": true,
		},
	}
	// Routes each API must have, so a walk that misses a mounted router
	// cannot pass by finding nothing.
	mustHave := map[string][]string{
		RoleConsole: {"POST /api/v1/login/resolve-org", "GET /api/v1/login/resolve-client", "GET /api/v1/auth/me",
			"GET /api/v1/customers", "PATCH /api/v1/tenants/{id}", "GET /api/v1/me/permissions"},
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
