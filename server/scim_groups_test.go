package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A directory's group membership drives roles: a SCIM member of a group bound
// to admin holds admin's permissions on the next request, and loses them when
// the directory removes it.
func TestSCIMGroupMembershipDrivesRoles(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "gina@acme.example"})
	if code != 201 {
		t.Fatalf("create = %d %v", code, u)
	}
	id := u["id"].(string)
	giveDemoPassword(t, m, id)
	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Admins", "members": []any{}})
	if code != 201 {
		t.Fatalf("group = %d %v", code, g)
	}
	gid := g["id"].(string)
	if code, body := adminCall(t, m, owner, http.MethodPatch, "/groups/"+gid, map[string]any{"role": "admin"}); code != 200 {
		t.Fatalf("bind = %d %v", code, body)
	}
	perms := func() string {
		tok := consoleToken(t, m, "gina@acme.example")
		_, body := adminCall(t, m, tok, http.MethodGet, "/me/permissions", nil)
		return strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(toJSON(body), "\"", " "), ",", " ")), " "))
	}
	before := perms()
	scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{"Operations": []map[string]any{{"op": "add", "path": "members", "value": []map[string]any{{"value": id}}}}})
	after := perms()
	if strings.Contains(before, "suspend_user") || !strings.Contains(after, "suspend_user") {
		t.Fatalf("membership did not give admin's permissions")
	}
	scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{"Operations": []map[string]any{{"op": "remove", "path": `members[value eq "` + id + `"]`}}})
	if strings.Contains(perms(), "suspend_user") {
		t.Fatal("leaving the group kept admin's permissions")
	}
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
