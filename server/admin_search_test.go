package main

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// The REST lists take ?search= as GraphQL does: a part of the name (or,
// for users, of the address), case-insensitive, within the caller's scope;
// past 200 characters 400.
func TestRESTListSearch(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	owner := consoleToken(t, m, "alice@acme.example")
	names := func(token, path, field string) []string {
		t.Helper()
		code, body := adminCall(t, m, token, http.MethodGet, path, nil)
		if code != 200 {
			t.Fatalf("%s = %d %v", path, code, body)
		}
		var out []string
		for _, it := range body["items"].([]any) {
			out = append(out, it.(map[string]any)[field].(string))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		token, path, field string
		want               []string
	}{
		{admin, "/customers?search=GLOBEX", "name", []string{"Globex Engineering"}},
		{owner, "/customers?search=globex", "name", nil},
		{admin, "/instances?search=production", "name", []string{"Acme production"}},
		{admin, "/instances?customerId=" + DemoGlobexCustomerID + "&search=production", "name", nil},
		{admin, "/users?search=ALICE@", "email", []string{"alice@acme.example"}},
		{owner, "/users?search=" + url.QueryEscape("%"), "email", nil},
		{admin, "/internal-users?search=admin@platform", "email", []string{"admin@platform.example"}},
	} {
		if got := names(c.token, c.path, c.field); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.path, got, c.want)
		}
	}
	if code, _ := adminCall(t, m, admin, http.MethodGet, "/tenants?search="+strings.Repeat("x", 201), nil); code != 400 {
		t.Errorf("a search of 201 characters = %d", code)
	}
	all := names(admin, "/tenants", "name")
	if len(all) == 0 {
		t.Fatal("no demo tenants")
	}
	part := strings.ToUpper(all[0][:3])
	for _, n := range names(admin, "/tenants?search="+url.QueryEscape(part), "name") {
		if !strings.Contains(strings.ToLower(n), strings.ToLower(part)) {
			t.Errorf("tenant %q does not contain %q", n, part)
		}
	}
}

// Resolving the demo instance's database URI works in the demo; an
// instance with none recorded answers 409 saying so (not 404, which the
// console would read as an instance out of reach). Step-up, which this
// password-only sign-in would not pass, is off: it has tests of its own.
func TestResolveDatabaseURIOnTheDemo(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.StepUpMaxAge = 0 })
	admin := consoleToken(t, m, "admin@platform.example")
	code, body := adminCall(t, m, admin, http.MethodPost, "/instances/"+DemoInstanceID+"/resolve-database-uri", nil)
	if code != 200 || body["databaseUri"] != DemoInstanceDatabaseURI {
		t.Fatalf("the demo instance = %d %v", code, body)
	}
	code, made := adminCall(t, m, admin, http.MethodPost, "/instances", map[string]any{"customerId": DemoGlobexCustomerID,
		"name": "Globex staging", "url": "https://staging.globex.example"})
	if code != 201 {
		t.Fatalf("instance = %d %v", code, made)
	}
	code, body = adminCall(t, m, admin, http.MethodPost, "/instances/"+made["id"].(string)+"/resolve-database-uri", nil)
	if code != 409 || !strings.Contains(toJSON(body), "no database URI is recorded") {
		t.Fatalf("an instance without one = %d %v", code, body)
	}
}
