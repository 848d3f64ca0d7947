package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/idp"
)

// jwtPayload decodes a JWT's claims without verifying it.
func jwtPayload(t *testing.T, raw string) map[string]any {
	t.Helper()
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %.40q", raw)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// roleAnswers asks, with one console access token, the caller's role of
// GET /api/v1/auth/me and of GraphQL's me, and the status of an audit-log
// read (view_audit_log: admin yes, member no).
func roleAnswers(t *testing.T, m *Main, token string) (me, gql string, auditLog int) {
	t.Helper()
	a := call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/auth/me", token, nil)
	if a.status != 200 {
		t.Fatalf("auth/me = %d %v", a.status, a.body)
	}
	me, _ = a.body["role"].(string)
	g := consoleGraphQL(t, m, token, `{ me { role } }`, nil)
	data, _ := g.body["data"].(map[string]any)
	meObj, _ := data["me"].(map[string]any)
	gql, _ = meObj["role"].(string)
	return me, gql, call(t, nil, http.MethodGet, m.Config.ConsoleURL+"/api/v1/audit-log", token, nil).status
}

// Roles are not in the tokens: the id_token and the access token carry sub
// and the home organization and no role. They are looked up on each
// request: a user's role changed while its access token is in hand
// answers per the new role on the next request, REST and GraphQL alike,
// with the same token.
//
// spec: R5.7-claims
func TestRoleReadOnEveryRequestNotFromToken(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	bob, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example",
		idp.ScopeResourceOwner)

	for name, raw := range map[string]string{"id_token": bob.Extra("id_token").(string), "access token": bob.AccessToken} {
		claims := jwtPayload(t, raw)
		if claims["sub"] != demoBobID || claims[idp.ClaimResourceOwnerID] != DemoAcmeOrgID {
			t.Errorf("%s: sub %v, %s %v; want %s and %s", name, claims["sub"], idp.ClaimResourceOwnerID,
				claims[idp.ClaimResourceOwnerID], demoBobID, DemoAcmeOrgID)
		}
		for k, v := range claims {
			if strings.Contains(strings.ToLower(k), "role") {
				t.Errorf("%s carries a role claim %s = %v", name, k, v)
			}
			if b, _ := json.Marshal(v); strings.Contains(string(b), `"member"`) {
				t.Errorf("%s claim %s = %s names bob's role", name, k, b)
			}
		}
	}

	want := func(step, role string, audit int) {
		t.Helper()
		me, gql, auditLog := roleAnswers(t, m, bob.AccessToken)
		if me != role || gql != role || auditLog != audit {
			t.Fatalf("%s: auth/me role %q, GraphQL me.role %q, audit log %d; want %q, %q, %d", step, me, gql, auditLog, role, role, audit)
		}
	}
	want("as seeded", "member", http.StatusForbidden)
	for _, step := range []struct {
		role  string
		audit int
	}{{"admin", http.StatusOK}, {"member", http.StatusForbidden}} {
		if code, body := adminCall(t, m, owner.AccessToken, http.MethodPatch, "/users/"+demoBobID, map[string]any{"role": step.role}); code != 200 {
			t.Fatalf("make bob %s = %d %v", step.role, code, body)
		}
		want("after the change to "+step.role, step.role, step.audit)
	}
}

// The decisions come from the role_permissions table: a row deleted takes
// the action from the role, a row inserted gives it, once a console process
// has read the table (it compiles the catalog when it starts). A row naming
// a role the code does not know stops the process at start with an error
// that names it; the roles are fixed in code.
//
// spec: R5.7-catalog
func TestCatalogDecidesFromTable(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	bob, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	ctx := context.Background()
	answers := func(base string) (customer, audit int) {
		t.Helper()
		return call(t, nil, http.MethodGet, base+"/api/v1/customers/"+DemoAcmeCustomerID, bob.AccessToken, nil).status,
			call(t, nil, http.MethodGet, base+"/api/v1/audit-log", bob.AccessToken, nil).status
	}
	if customer, audit := answers(m.Config.ConsoleURL); customer != 200 || audit != http.StatusForbidden {
		t.Fatalf("member as seeded: customer %d, audit log %d; want 200, 403", customer, audit)
	}

	for _, q := range []string{
		`DELETE FROM role_permissions WHERE role = 'member' AND action = 'view_usage_units'`,
		`INSERT INTO role_permissions (role, action, access) VALUES ('member', 'view_audit_log', 'read')`,
	} {
		if _, err := m.Store.Conn().Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	base := consoleReplica(t, m) // a console that starts now reads the table
	if customer, audit := answers(base); customer != http.StatusForbidden || audit != 200 {
		t.Fatalf("member after the table changed: customer %d, audit log %d; want 403, 200", customer, audit)
	}

	if _, err := m.Store.Conn().Exec(ctx, `INSERT INTO role_permissions (role, action, access) VALUES ('wizard', 'view_audit_log', 'read')`); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config
	cfg.Role, cfg.SeedDemo = RoleConsole, false
	cfg.ConsoleServiceClientSecret = strings.Repeat("r", 32)
	restarted := NewMain(cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	restarted.Listeners[RoleConsole] = ln
	t.Cleanup(func() { restarted.Close(); ln.Close() })
	if err := restarted.Run(ctx); err == nil || !strings.Contains(err.Error(), `"wizard"`) || !strings.Contains(err.Error(), "role") {
		t.Fatalf("start with an unknown role in role_permissions: err = %v; want a refusal naming the role", err)
	}
}
