package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Attacks on the SCIM server (D-scim, docs/security.md).

// Globex's token against Acme's users and groups: every id of another
// organization answers 404 as a missing one does, lists hold none of them,
// and none becomes a member of Globex's groups.
//
// attack: scim-cross-organization
func TestSCIMTokenReachesOnlyItsOrganization(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	_, acme := scimToken(t, m, admin, DemoAcmeCustomerID)
	_, globex := scimToken(t, m, admin, DemoGlobexCustomerID)
	code, g := scimCall(t, m, acme, http.MethodPost, "/Groups", map[string]any{"displayName": "Acme crew", "members": []map[string]any{{"value": acmeOwnerID}}})
	if code != http.StatusCreated {
		t.Fatalf("create = %d %v", code, g)
	}
	acmeGroup := g["id"].(string)
	const bob = "2b7e4d10-0000-4000-8000-000000000003"

	for _, rq := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, usersAt + bob, nil},
		{http.MethodPut, usersAt + bob, map[string]any{"userName": "bob@acme.example", "active": false}},
		{http.MethodPatch, usersAt + bob, map[string]any{"Operations": []map[string]any{{"op": "replace", "path": "active", "value": false}}}},
		{http.MethodDelete, usersAt + bob, nil},
		{http.MethodGet, "/Groups/" + acmeGroup, nil},
		{http.MethodPut, "/Groups/" + acmeGroup, map[string]any{"displayName": "Taken", "members": []any{}}},
		{http.MethodPatch, "/Groups/" + acmeGroup, map[string]any{"Operations": []map[string]any{{"op": "remove", "path": "members"}}}},
		{http.MethodDelete, "/Groups/" + acmeGroup, nil},
	} {
		code, body := scimCall(t, m, globex, rq.method, rq.path, rq.body)
		wantSCIMError(t, "Globex's token: "+rq.method+" "+rq.path, code, body, 404, "")
	}
	code, list := scimCall(t, m, globex, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName co "acme.example"`), nil)
	if code != 200 || list["totalResults"] != float64(0) {
		t.Fatalf("Globex lists Acme's users: %d %v", code, list)
	}
	code, list = scimCall(t, m, globex, http.MethodGet, "/Groups?filter="+url.QueryEscape(`displayName eq "Acme crew"`), nil)
	if code != 200 || list["totalResults"] != float64(0) {
		t.Fatalf("Globex lists Acme's groups: %d %v", code, list)
	}
	code, body := scimCall(t, m, globex, http.MethodPost, "/Groups", map[string]any{"displayName": "Poach", "members": []map[string]any{{"value": bob}}})
	wantSCIMError(t, "Globex's group with Acme's user", code, body, 400, "")
	// Acme's user and group are as they were
	if _, u := scimCall(t, m, acme, http.MethodGet, usersAt+bob, nil); u["active"] != true {
		t.Fatalf("bob = %v", u)
	}
	if _, g := scimCall(t, m, acme, http.MethodGet, "/Groups/"+acmeGroup, nil); g["displayName"] != "Acme crew" || len(g["members"].([]any)) != 1 {
		t.Fatalf("Acme's group = %v", g)
	}
}

// A customer's token provisions only into its customer's organization:
// the administrator organization's users are not found, cannot be added to
// a group, a user it creates lands in the customer's organization whatever
// the body says.
//
// attack: scim-into-administrator-organization
func TestSCIMCustomerTokenCannotReachTheAdministratorOrganization(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	code, body := scimCall(t, m, token, http.MethodGet, usersAt+adminUserID, nil)
	wantSCIMError(t, "the administrator", code, body, 404, "")
	code, body = scimCall(t, m, token, http.MethodDelete, usersAt+adminUserID, nil)
	wantSCIMError(t, "deleting the administrator", code, body, 404, "")
	code, list := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "admin@platform.example"`), nil)
	if code != 200 || list["totalResults"] != float64(0) {
		t.Fatalf("list = %d %v", code, list)
	}
	code, body = scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Admins", "members": []map[string]any{{"value": adminUserID}}})
	wantSCIMError(t, "a group with the administrator", code, body, 400, "")
	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "mallory@platform.example",
		"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "id": adminUserID, "meta": map[string]any{"location": "x"}})
	if code != http.StatusCreated || u["id"] == adminUserID {
		t.Fatalf("create = %d %v", code, u)
	}
	got, err := m.Store.User(context.Background(), u["id"].(string))
	if err != nil || got.OrgID != DemoAcmeOrgID {
		t.Fatalf("the new user is in %+v %v", got, err)
	}
}

// A directory cannot bind a role: not on a user, not on a group, whatever
// the token's creator may grant; the group's role stays unbound.
//
// attack: scim-role-binding
func TestSCIMCannotBindARole(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Crew", "members": []any{}})
	if code != http.StatusCreated {
		t.Fatalf("create = %d %v", code, g)
	}
	gid := g["id"].(string)
	for _, op := range []map[string]any{
		{"op": "replace", "path": "roles", "value": []map[string]any{{"value": "owner"}}},
		{"op": "add", "value": map[string]any{"role": "admin"}},
		{"op": "replace", "path": "urn:ietf:params:scim:schemas:extension:platform:2.0:Group:role", "value": "owner"},
	} {
		code, body := scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{"Operations": []map[string]any{op}})
		wantSCIMError(t, "binding a role", code, body, 400, "mutability")
	}
	code, body := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Owners", "roles": []string{"owner"}})
	wantSCIMError(t, "a group created with a role", code, body, 400, "mutability")
	code, body = scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "r@acme.example", "roles": []map[string]any{{"value": "admin"}}})
	wantSCIMError(t, "a user created with a role", code, body, 400, "mutability")
	stored, err := m.Store.Group(context.Background(), gid)
	if err != nil || stored.Role != "" {
		t.Fatalf("the group binds %q (%v)", stored.Role, err)
	}
}

// The owner is neither deactivated nor removed through SCIM (owner
// protection: only platform_admin in the console), nor does joining or
// leaving a group change who the owner is.
//
// attack: scim-owner
func TestSCIMCannotUnmakeTheOwner(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	for _, rq := range []struct {
		method string
		body   any
	}{
		{http.MethodPatch, map[string]any{"Operations": []map[string]any{{"op": "Replace", "path": "active", "value": "False"}}}},
		{http.MethodPatch, map[string]any{"Operations": []map[string]any{{"op": "replace", "value": map[string]any{"active": false}}}}},
		{http.MethodPut, map[string]any{"userName": "alice@acme.example", "active": false, "name": map[string]any{"formatted": "Mallory"}}},
		{http.MethodDelete, nil},
	} {
		code, body := scimCall(t, m, token, rq.method, usersAt+acmeOwnerID, rq.body)
		wantSCIMError(t, rq.method+" of the owner", code, body, 403, "")
	}
	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Everyone", "members": []map[string]any{{"value": acmeOwnerID}}})
	if code != http.StatusCreated {
		t.Fatalf("create = %d %v", code, g)
	}
	if code, _ := scimCall(t, m, token, http.MethodPatch, "/Groups/"+g["id"].(string), map[string]any{
		"Operations": []map[string]any{{"op": "remove", "path": "members"}}}); code != http.StatusNoContent {
		t.Fatalf("empty the group = %d", code)
	}
	code, cu := consoleUser(t, m, owner, acmeOwnerID)
	if code != 200 || cu["role"] != "owner" || cu["status"] != "active" || cu["name"] != "Alice Anders" {
		t.Fatalf("the owner = %d %v", code, cu)
	}
	if !tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, "alice@acme.example") {
		t.Fatal("the owner no longer signs in")
	}
}

// Large bodies, filters, pages and batches are bounded: 413 past the body
// limit, 400 past the filter's length and comparisons, at most 100
// resources a page, 1000 members a request, 100 operations a PATCH.
//
// attack: scim-bounded-work
func TestSCIMBoundsLargeRequests(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)

	big := `{"userName":"big@acme.example","displayName":"` + strings.Repeat("a", 1<<20) + `"}`
	code, body := scimCall(t, m, token, http.MethodPost, "/Users", big)
	wantSCIMError(t, "a body over 1 MiB", code, body, 413, "")

	long := `userName eq "` + strings.Repeat("a", 1000) + `"`
	code, body = scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(long), nil)
	wantSCIMError(t, "a long filter", code, body, 400, "invalidFilter")
	many := strings.TrimSuffix(strings.Repeat(`userName eq "a" or `, 21), " or ")
	code, body = scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(many), nil)
	wantSCIMError(t, "21 comparisons", code, body, 400, "invalidFilter")

	for i := 0; i < 3; i++ {
		if code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "p" + string(rune('a'+i)) + "@acme.example"}); code != 201 {
			t.Fatalf("create = %d %v", code, u)
		}
	}
	code, page := scimCall(t, m, token, http.MethodGet, "/Users?count=1000000&startIndex=-5", nil)
	if code != 200 || page["startIndex"] != float64(1) || len(listed(page)) > 100 || page["itemsPerPage"].(float64) > 100 {
		t.Fatalf("page = %d %v", code, page["itemsPerPage"])
	}
	code, page = scimCall(t, m, token, http.MethodGet, "/Users?count=2", nil)
	if code != 200 || len(listed(page)) != 2 || page["totalResults"].(float64) < 5 {
		t.Fatalf("count=2 = %d %v", code, page)
	}

	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Big", "members": []any{}})
	if code != http.StatusCreated {
		t.Fatalf("create group = %d %v", code, g)
	}
	members := make([]map[string]any, 1001)
	for i := range members {
		members[i] = map[string]any{"value": "u" + strings.Repeat("x", i%7)}
	}
	code, body = scimCall(t, m, token, http.MethodPatch, "/Groups/"+g["id"].(string), map[string]any{
		"Operations": []map[string]any{{"op": "add", "path": "members", "value": members}}})
	wantSCIMError(t, "1001 members", code, body, 400, "tooMany")
	ops := make([]map[string]any, 101)
	for i := range ops {
		ops[i] = map[string]any{"op": "replace", "path": "displayName", "value": "x"}
	}
	code, body = scimCall(t, m, token, http.MethodPatch, "/Groups/"+g["id"].(string), map[string]any{"Operations": ops})
	wantSCIMError(t, "101 operations", code, body, 400, "tooMany")
}

// A directory token is held to its rate (SCIM_RATE_LIMIT a minute): past
// it, 429 in SCIM's error schema with Retry-After, and nothing the refused
// request asked is done; another token of the same customer counts apart.
//
// attack: scim-token-flood
func TestSCIMRateLimitPerToken(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.SCIMRateLimit = 3 })
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	for i := 0; i < 3; i++ {
		if code, body := scimCall(t, m, token, http.MethodGet, "/ServiceProviderConfig", nil); code != 200 {
			t.Fatalf("request %d = %d %v", i+1, code, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, m.Config.ConsoleURL+"/scim/v2/Users",
		strings.NewReader(`{"userName": "flood@acme.example"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", scimJSON)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	wantSCIMError(t, "past the rate", resp.StatusCode, body, 429, "")
	if after := resp.Header.Get("Retry-After"); after == "" || after == "0" {
		t.Errorf("Retry-After %q", after)
	}
	if users, _ := m.Store.UsersByEmail(context.Background(), "flood@acme.example", DemoAcmeOrgID); len(users) != 0 {
		t.Fatal("the refused request created its user")
	}
	_, other := scimToken(t, m, owner, DemoAcmeCustomerID)
	if code, body := scimCall(t, m, other, http.MethodGet, "/ServiceProviderConfig", nil); code != 200 {
		t.Fatalf("another token = %d %v", code, body)
	}
}
