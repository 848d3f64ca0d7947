package main

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// The administrator organization's directory (D-scim-internal): a
// platform_admin's token provisions internal users and internal groups;
// membership of a group bound to account_manager with a grant on Acme gives
// the user Acme, and nothing else; deactivation ends its access at once;
// leaving the group takes Acme away; deletion removes the user.
//
// spec: D-scim-internal
func TestSCIMAdministratorOrganizationDirectory(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	code, made := adminCall(t, m, admin, http.MethodPost, "/internal-scim-tokens", map[string]any{"name": "Internal directory"})
	if code != http.StatusCreated || made["customerId"] != nil {
		t.Fatalf("create = %d %v", code, made)
	}
	tokenID, token := made["id"].(string), made["token"].(string)
	if code, list := adminCall(t, m, admin, http.MethodGet, "/internal-scim-tokens", nil); code != 200 || len(list["items"].([]any)) != 1 {
		t.Fatalf("list = %d %v", code, list)
	}

	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "emea.am@platform.example",
		"name": map[string]any{"formatted": "Emma EMEA"}, "externalId": "ad-42"})
	if code != http.StatusCreated {
		t.Fatalf("create user = %d %v", code, u)
	}
	id := u["id"].(string)
	if code, iu := adminCall(t, m, admin, http.MethodGet, "/internal-users/"+id, nil); code != 200 || iu["role"] != "" {
		t.Fatalf("the provisioned internal user = %d %v", code, iu)
	}
	// the directory sees only its organization
	code, list := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "alice@acme.example"`), nil)
	if code != 200 || list["totalResults"] != float64(0) {
		t.Fatalf("a customer's user through the internal directory = %d %v", code, list)
	}
	code, body := scimCall(t, m, token, http.MethodGet, usersAt+acmeOwnerID, nil)
	wantSCIMError(t, "Acme's owner through the internal directory", code, body, 404, "")

	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "EMEA account managers",
		"members": []map[string]any{{"value": id}}})
	if code != http.StatusCreated {
		t.Fatalf("create group = %d %v", code, g)
	}
	gid := g["id"].(string)
	if code, body := adminCall(t, m, admin, http.MethodPatch, "/internal-groups/"+gid, map[string]any{"role": "account_manager"}); code != 200 {
		t.Fatalf("bind = %d %v", code, body)
	}
	if code, body := adminCall(t, m, admin, http.MethodPost, "/internal-groups/"+gid+"/grants", map[string]any{"customerId": DemoAcmeCustomerID}); code != 201 {
		t.Fatalf("grant = %d %v", code, body)
	}

	giveDemoPassword(t, m, id)
	emma := consoleToken(t, m, "emea.am@platform.example")
	if code, _ := adminCall(t, m, emma, http.MethodGet, "/me/permissions", nil); code != 200 {
		t.Fatalf("a member of a group bound to a role = %d", code)
	}
	if code, _ := adminCall(t, m, emma, http.MethodGet, "/customers/"+DemoAcmeCustomerID, nil); code != 200 {
		t.Fatalf("Acme through the group's grant = %d", code)
	}
	if code, _ := adminCall(t, m, emma, http.MethodGet, "/customers/"+DemoGlobexCustomerID, nil); code != 403 && code != 404 {
		t.Fatalf("Globex, granted to nobody = %d", code)
	}

	// deactivation ends the access the user holds at once
	code, body = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{"Operations": []map[string]any{
		{"op": "Replace", "value": map[string]any{"active": "False"}}}})
	if code != 200 || body["active"] != false {
		t.Fatalf("deactivate = %d %v", code, body)
	}
	if code, _ := adminCall(t, m, emma, http.MethodGet, "/customers/"+DemoAcmeCustomerID, nil); code != 401 {
		t.Fatalf("a deactivated user's token = %d", code)
	}
	if _, iu := adminCall(t, m, admin, http.MethodGet, "/internal-users/"+id, nil); iu["status"] != "suspended" {
		t.Fatalf("the console shows %v", iu["status"])
	}
	code, body = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{"Operations": []map[string]any{
		{"op": "replace", "path": "active", "value": true}}})
	if code != 200 || body["active"] != true {
		t.Fatalf("reactivate = %d %v", code, body)
	}

	// leaving the group takes its grant away
	emma = consoleToken(t, m, "emea.am@platform.example")
	scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{"Operations": []map[string]any{
		{"op": "remove", "path": `members[value eq "` + id + `"]`}}})
	if code, _ := adminCall(t, m, emma, http.MethodGet, "/customers/"+DemoAcmeCustomerID, nil); code != 403 {
		t.Fatalf("Acme after leaving the group, with no role left = %d", code)
	}

	if code, _ := scimCall(t, m, token, http.MethodDelete, usersAt+id, nil); code != http.StatusNoContent {
		t.Fatalf("delete = %d", code)
	}
	if _, err := m.Store.User(context.Background(), id); err == nil {
		t.Fatal("the deleted internal user remains")
	}

	// the directory's writes are in the platform's audit log, by the token
	code, events := adminCall(t, m, admin, http.MethodGet, "/audit-log?action=internal_user.suspend", nil)
	items, _ := events["items"].([]any)
	if code != 200 || len(items) == 0 {
		t.Fatalf("audit log = %d %v", code, events)
	}
	if ev := items[0].(map[string]any); ev["actorId"] != "scim-token:"+tokenID && ev["actor"] == nil {
		t.Fatalf("the suspension's event %v", ev)
	}

	if code, _ := adminCall(t, m, admin, http.MethodPost, "/internal-scim-tokens/"+tokenID+"/revoke", nil); code != http.StatusNoContent {
		t.Fatalf("revoke = %d", code)
	}
	code, body = scimCall(t, m, token, http.MethodGet, "/Users", nil)
	wantSCIMError(t, "a revoked internal token", code, body, 401, "")
}

// A customer's owner can neither make, see nor revoke the administrator
// organization's tokens, and a customer's token and the administrator
// organization's never reach each other's groups.
//
// attack: scim-internal-token-from-a-customer
func TestSCIMAdministratorTokensAreNotACustomers(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	owner := consoleToken(t, m, "alice@acme.example")
	if code, body := adminCall(t, m, owner, http.MethodPost, "/internal-scim-tokens", map[string]any{"name": "x"}); code != 403 {
		t.Fatalf("an owner makes an internal token = %d %v", code, body)
	}
	_, made := adminCall(t, m, admin, http.MethodPost, "/internal-scim-tokens", map[string]any{"name": "Internal"})
	internalID, internal := made["id"].(string), made["token"].(string)
	if code, _ := adminCall(t, m, owner, http.MethodGet, "/internal-scim-tokens", nil); code != 403 {
		t.Fatalf("an owner lists internal tokens = %d", code)
	}
	if code, _ := adminCall(t, m, owner, http.MethodPost, "/scim-tokens/"+internalID+"/revoke", nil); code != 404 {
		t.Fatalf("an owner revokes the internal token = %d", code)
	}
	// a platform_admin revokes customers' tokens only on the customers' route
	_, acmeToken := scimToken(t, m, owner, DemoAcmeCustomerID)
	code, list := adminCall(t, m, owner, http.MethodGet, "/customers/"+DemoAcmeCustomerID+"/scim-tokens", nil)
	if items, _ := list["items"].([]any); code != 200 || len(items) != 1 {
		t.Fatalf("Acme's tokens = %d %v", code, list)
	}
	if code, body := scimCall(t, m, internal, http.MethodGet, "/Users", nil); code != 200 {
		t.Fatalf("the internal token after the attempts = %d %v", code, body)
	}

	code, g := scimCall(t, m, internal, http.MethodPost, "/Groups", map[string]any{"displayName": "Platform ops"})
	if code != http.StatusCreated {
		t.Fatalf("internal group = %d %v", code, g)
	}
	code, body := scimCall(t, m, acmeToken, http.MethodGet, "/Groups/"+g["id"].(string), nil)
	wantSCIMError(t, "an internal group through Acme's token", code, body, 404, "")
	code, ag := scimCall(t, m, acmeToken, http.MethodPost, "/Groups", map[string]any{"displayName": "Acme ops"})
	if code != http.StatusCreated {
		t.Fatalf("Acme group = %d %v", code, ag)
	}
	code, body = scimCall(t, m, internal, http.MethodDelete, "/Groups/"+ag["id"].(string), nil)
	wantSCIMError(t, "Acme's group through the internal token", code, body, 404, "")
	// nor can the internal directory put a customer's user in its group
	code, body = scimCall(t, m, internal, http.MethodPatch, "/Groups/"+g["id"].(string), map[string]any{"Operations": []map[string]any{
		{"op": "add", "path": "members", "value": []map[string]any{{"value": acmeOwnerID}}}}})
	wantSCIMError(t, "Acme's owner into an internal group", code, body, 400, "")
}
