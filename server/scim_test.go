package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// The SCIM 2.0 server end to end (D-scim): tokens made through the console
// API, a directory's requests over real HTTP, their effect on sign-in and
// on the console's answers.

const (
	acmeOwnerID  = "2b7e4d10-0000-4000-8000-000000000002" // alice@acme.example, Acme's owner
	adminUserID  = "2b7e4d10-0000-4000-8000-000000000001" // admin@platform.example, administrator organization
	scimJSON     = "application/scim+json"
	consoleRedir = "/callback"
)

// usersAt starts the path of one user.
const usersAt = "/Users" + "/"

// scimCall sends one SCIM request with a bearer token and answers its
// status and JSON body (nil when there is none).
func scimCall(t *testing.T, m *Main, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader = strings.NewReader("")
	if s, ok := body.(string); ok {
		rd = strings.NewReader(s)
	} else if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, m.Config.ConsoleURL+"/scim/v2"+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", scimJSON)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusNoContent && !strings.HasPrefix(ct, scimJSON) {
		t.Fatalf("%s %s answered Content-Type %q", method, path, ct)
	}
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// consoleToken signs a demo user in to the console and answers its access token.
func consoleToken(t *testing.T, m *Main, email string) string {
	t.Helper()
	tok, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email)
	return tok.AccessToken
}

// scimToken makes a SCIM token of the customer as the console user token.
func scimToken(t *testing.T, m *Main, console, customerID string) (id, token string) {
	t.Helper()
	code, body := adminCall(t, m, console, http.MethodPost, "/customers/"+customerID+"/scim-tokens", map[string]any{"name": "Directory"})
	if code != http.StatusCreated {
		t.Fatalf("create SCIM token = %d %v", code, body)
	}
	return body["id"].(string), body["token"].(string)
}

// wantSCIMError checks a SCIM error answer: its status and scimType.
func wantSCIMError(t *testing.T, what string, code int, body map[string]any, status int, scimType string) {
	t.Helper()
	schemas, _ := body["schemas"].([]any)
	if code != status || len(schemas) != 1 || schemas[0] != "urn:ietf:params:scim:api:messages:2.0:Error" ||
		body["status"] != fmt.Sprint(status) || (scimType != "" && body["scimType"] != scimType) {
		t.Fatalf("%s = %d %v, want %d %s in SCIM's error schema", what, code, body, status, scimType)
	}
}

// giveDemoPassword gives a provisioned user the demo password, as
// accepting its invitation would.
func giveDemoPassword(t *testing.T, m *Main, userID string) {
	t.Helper()
	demo, err := m.Store.User(context.Background(), adminUserID)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Store.SetPassword(context.Background(), userID, demo.PasswordHash); err != nil {
		t.Fatal(err)
	}
}

// consoleUser answers GET /api/v1/users/{id} as the console user token.
func consoleUser(t *testing.T, m *Main, console, id string) (int, map[string]any) {
	t.Helper()
	return adminCall(t, m, console, http.MethodGet, "/users/"+id, nil)
}

func listed(body map[string]any) []map[string]any {
	res, _ := body["Resources"].([]any)
	out := make([]map[string]any, 0, len(res))
	for _, r := range res {
		out = append(out, r.(map[string]any))
	}
	return out
}

// The owner makes a token (answered once), lists it without its value, the
// token's use shows, a member may not make one, and a revoked token is
// refused at once.
//
// spec: D-scim
// attack: scim-revoked-token
func TestSCIMTokensThroughTheConsoleAPI(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	id, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	if !strings.HasPrefix(token, "scim_") || len(token) != 5+64 {
		t.Fatalf("token %q", token)
	}
	if code, body := scimCall(t, m, token, http.MethodGet, "/Users?count=1", nil); code != 200 || body["totalResults"] == nil {
		t.Fatalf("list with the token = %d %v", code, body)
	}
	code, list := adminCall(t, m, owner, http.MethodGet, "/customers/"+DemoAcmeCustomerID+"/scim-tokens", nil)
	items, _ := list["items"].([]any)
	if code != 200 || len(items) != 1 {
		t.Fatalf("list tokens = %d %v", code, list)
	}
	row := items[0].(map[string]any)
	if row["id"] != id || row["token"] != nil || row["lastUsedAt"] == nil || row["revokedAt"] != nil {
		t.Fatalf("listed token %v", row)
	}
	stored, err := m.Store.SCIMToken(context.Background(), id)
	if err != nil || strings.Contains(stored.TokenHash, token) || stored.TokenHash == token {
		t.Fatalf("stored token %+v %v", stored, err)
	}

	// bob is a member of Acme: no manage_customer_config.
	bob := consoleToken(t, m, "bob@acme.example")
	if code, body := adminCall(t, m, bob, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/scim-tokens", map[string]any{"name": "x"}); code != 403 {
		t.Fatalf("a member creates a token = %d %v", code, body)
	}
	if code, body := adminCall(t, m, owner, http.MethodPost, "/customers/"+DemoAcmeCustomerID+"/scim-tokens", map[string]any{"name": ""}); code != 400 {
		t.Fatalf("a token without a name = %d %v", code, body)
	}

	if code, body := adminCall(t, m, owner, http.MethodPost, "/scim-tokens/"+id+"/revoke", nil); code != http.StatusNoContent {
		t.Fatalf("revoke = %d %v", code, body)
	}
	code, body := scimCall(t, m, token, http.MethodGet, "/Users", nil)
	wantSCIMError(t, "a revoked token", code, body, 401, "")
	code, body = scimCall(t, m, "", http.MethodGet, "/Users", nil)
	wantSCIMError(t, "no token", code, body, 401, "")
	code, body = scimCall(t, m, "scim_"+strings.Repeat("0", 64), http.MethodGet, "/ServiceProviderConfig", nil)
	wantSCIMError(t, "an unknown token", code, body, 401, "")
}

// An Entra ID-shaped provisioning sequence: create (with the enterprise
// extension), filter by userName, patch attributes ("Replace" capitalised,
// a value object without path, active as the string "False"), add to a
// group, deactivate, reactivate, delete; each step's effect on sign-in and
// on the console's /api/v1/users.
//
// spec: D-scim
func TestSCIMEntraProvisioningSequence(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	tokenID, token := scimToken(t, m, owner, DemoAcmeCustomerID)
	const email = "dana@acme.example"

	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"},
		"externalId": "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", "userName": "Dana@acme.example", "active": true,
		"displayName": "Dana Dietz", "emails": []map[string]any{{"primary": true, "type": "work", "value": "Dana@acme.example"}},
		"name": map[string]any{"formatted": "Dana Dietz", "familyName": "Dietz", "givenName": "Dana"},
		"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": map[string]any{"department": "Site"},
	})
	if code != http.StatusCreated || u["userName"] != email || u["active"] != true || u["externalId"] != "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef" {
		t.Fatalf("create = %d %v", code, u)
	}
	id := u["id"].(string)
	code, cu := consoleUser(t, m, owner, id)
	if code != 200 || cu["email"] != email || cu["name"] != "Dana Dietz" || cu["role"] != "member" || cu["status"] != "invited" {
		t.Fatalf("the console shows %d %v", code, cu)
	}
	// the same address again is a conflict
	code, body := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": email})
	wantSCIMError(t, "a second user of the address", code, body, 409, "uniqueness")

	code, list := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "DANA@acme.example"`), nil)
	if code != 200 || list["totalResults"] != float64(1) || listed(list)[0]["id"] != id {
		t.Fatalf("filter by userName = %d %v", code, list)
	}
	code, list = scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"`), nil)
	if code != 200 || list["totalResults"] != float64(1) {
		t.Fatalf("filter by externalId = %d %v", code, list)
	}

	code, u = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{
		"schemas": []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{
			{"op": "Replace", "path": "name.givenName", "value": "Danielle"},
			{"op": "Replace", "path": "name.familyName", "value": "Dietz"},
			{"op": "Add", "value": map[string]any{"externalId": "ext-2"}},
		}})
	if code != 200 || u["displayName"] != "Danielle Dietz" || u["externalId"] != "ext-2" {
		t.Fatalf("patch attributes = %d %v", code, u)
	}
	if _, cu = consoleUser(t, m, owner, id); cu["name"] != "Danielle Dietz" {
		t.Fatalf("the console shows %v", cu)
	}

	// a group, and the user added to it
	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{
		"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Group"}, "displayName": "Site managers", "externalId": "g-1", "members": []any{}})
	if code != http.StatusCreated {
		t.Fatalf("create group = %d %v", code, g)
	}
	gid := g["id"].(string)
	code, _ = scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "Add", "path": "members", "value": []map[string]any{{"value": id}}}}})
	if code != http.StatusNoContent {
		t.Fatalf("add member = %d", code)
	}
	code, u = scimCall(t, m, token, http.MethodGet, usersAt+id, nil)
	groups, _ := u["groups"].([]any)
	if code != 200 || len(groups) != 1 || groups[0].(map[string]any)["value"] != gid {
		t.Fatalf("the user's groups = %d %v", code, u)
	}

	// the user accepts its invitation and signs in
	giveDemoPassword(t, m, id)
	userTok := consoleToken(t, m, email)
	if code, body := adminCall(t, m, userTok, http.MethodGet, "/me/permissions", nil); code != 200 {
		t.Fatalf("the user's console = %d %v", code, body)
	}

	// deactivate: Entra's string "False"; sign-in and the live token end
	code, u = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "Replace", "path": "active", "value": "False"}}})
	if code != 200 || u["active"] != false {
		t.Fatalf("deactivate = %d %v", code, u)
	}
	if code, _ := adminCall(t, m, userTok, http.MethodGet, "/me/permissions", nil); code != http.StatusUnauthorized {
		t.Fatalf("the suspended user's token still works: %d", code)
	}
	if tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email) {
		t.Fatal("a suspended user signs in")
	}
	if _, cu = consoleUser(t, m, owner, id); cu["status"] != "suspended" {
		t.Fatalf("the console shows %v", cu)
	}
	code, list = scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`active eq false`), nil)
	if code != 200 || list["totalResults"] != float64(1) {
		t.Fatalf("filter active eq false = %d %v", code, list)
	}

	// reactivate
	code, u = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "Replace", "value": map[string]any{"active": "True"}}}})
	if code != 200 || u["active"] != true {
		t.Fatalf("reactivate = %d %v", code, u)
	}
	if !tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email) {
		t.Fatal("a reactivated user does not sign in")
	}

	// delete
	if code, body := scimCall(t, m, token, http.MethodDelete, usersAt+id, nil); code != http.StatusNoContent {
		t.Fatalf("delete = %d %v", code, body)
	}
	if code, _ := consoleUser(t, m, owner, id); code != 404 {
		t.Fatalf("the console still has the user: %d", code)
	}
	if tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email) {
		t.Fatal("a deleted user signs in")
	}
	code, body = scimCall(t, m, token, http.MethodGet, usersAt+id, nil)
	wantSCIMError(t, "the deleted user", code, body, 404, "")

	// every change is in the audit log, by the token
	events, _, err := m.Store.AuditEvents(context.Background(), store.AuditQuery{Scope: authz.Filter{CustomerIDs: []string{DemoAcmeCustomerID}},
		ActorID: "scim-token:" + tokenID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, e := range events {
		ops[e.Operation] = true
	}
	for _, op := range []string{"user.invite", "user.update", "user.suspend", "user.reactivate", "user.delete", "scim_group.create", "scim_group.update"} {
		if !ops[op] {
			t.Errorf("no audit event of %s by the SCIM token (have %v)", op, ops)
		}
	}
}

// An Okta-shaped provisioning sequence: create, filter by userName, PUT
// the whole user, group membership by PATCH with path "members" and
// removal by members[value eq "…"], deactivate by PATCH "replace" with a
// value object, reactivate, delete.
//
// spec: D-scim
func TestSCIMOktaProvisioningSequence(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	_, token := scimToken(t, m, admin, DemoAcmeCustomerID)
	const email = "erin@acme.example"

	// Okta asks first whether the user exists.
	code, list := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "`+email+`"`)+"&startIndex=1&count=100", nil)
	if code != 200 || list["totalResults"] != float64(0) || len(listed(list)) != 0 {
		t.Fatalf("lookup = %d %v", code, list)
	}
	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{
		"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
		"userName": email, "name": map[string]any{"givenName": "Erin", "familyName": "Ek"},
		"emails": []map[string]any{{"primary": true, "value": email, "type": "work"}}, "displayName": "Erin Ek",
		"locale": "en-US", "externalId": "00u1", "groups": []any{}, "password": "ignored-not-kept", "active": true,
	})
	if code == http.StatusCreated {
		t.Fatalf("a password was accepted: %v", u)
	}
	code, u = scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{
		"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
		"userName": email, "name": map[string]any{"givenName": "Erin", "familyName": "Ek"},
		"emails": []map[string]any{{"primary": true, "value": email, "type": "work"}}, "displayName": "Erin Ek",
		"locale": "en-US", "externalId": "00u1", "groups": []any{}, "active": true,
	})
	if code != http.StatusCreated || u["displayName"] != "Erin Ek" {
		t.Fatalf("create = %d %v", code, u)
	}
	id := u["id"].(string)
	giveDemoPassword(t, m, id)

	// PUT: Okta sends the whole user
	code, u = scimCall(t, m, token, http.MethodPut, usersAt+id, map[string]any{
		"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "id": id, "userName": email,
		"name": map[string]any{"givenName": "Erin", "familyName": "Eklund"}, "emails": []map[string]any{{"primary": true, "value": email}},
		"active": true, "externalId": "00u1"})
	if code != 200 || u["displayName"] != "Erin Eklund" {
		t.Fatalf("put = %d %v", code, u)
	}
	code, body := scimCall(t, m, token, http.MethodPut, usersAt+id, map[string]any{"userName": "other@acme.example"})
	wantSCIMError(t, "changing the address", code, body, 400, "")
	// a refused replacement changes nothing: another user's externalId with a deactivation
	if code, o := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{"userName": "otto@acme.example", "externalId": "00u2"}); code != 201 {
		t.Fatalf("create = %d %v", code, o)
	}
	code, body = scimCall(t, m, token, http.MethodPut, usersAt+id, map[string]any{"userName": email, "externalId": "00u2", "active": false})
	wantSCIMError(t, "a taken externalId", code, body, 409, "uniqueness")
	if _, u = scimCall(t, m, token, http.MethodGet, usersAt+id, nil); u["active"] != true || u["externalId"] != "00u1" {
		t.Fatalf("a refused PUT changed the user: %v", u)
	}

	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Okta crew", "members": []any{}})
	if code != http.StatusCreated {
		t.Fatalf("create group = %d %v", code, g)
	}
	gid := g["id"].(string)
	code, _ = scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "add", "path": "members", "value": []map[string]any{{"value": id, "display": email}}}}})
	if code != http.StatusNoContent {
		t.Fatalf("add member = %d", code)
	}
	code, g = scimCall(t, m, token, http.MethodGet, "/Groups/"+gid, nil)
	if members, _ := g["members"].([]any); code != 200 || len(members) != 1 {
		t.Fatalf("group = %d %v", code, g)
	}
	code, list = scimCall(t, m, token, http.MethodGet, "/Groups?filter="+url.QueryEscape(`displayName eq "Okta crew"`)+"&excludedAttributes=members", nil)
	if code != 200 || list["totalResults"] != float64(1) || listed(list)[0]["members"] != nil {
		t.Fatalf("groups by displayName = %d %v", code, list)
	}
	code, _ = scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "remove", "path": `members[value eq "` + id + `"]`}}})
	if code != http.StatusNoContent {
		t.Fatalf("remove member = %d", code)
	}
	if code, g = scimCall(t, m, token, http.MethodGet, "/Groups/"+gid, nil); len(g["members"].([]any)) != 0 {
		t.Fatalf("group after removal = %d %v", code, g)
	}

	// deactivate as Okta does
	code, u = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []map[string]any{{"op": "replace", "value": map[string]any{"active": false}}}})
	if code != 200 || u["active"] != false {
		t.Fatalf("deactivate = %d %v", code, u)
	}
	if tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email) {
		t.Fatal("a deactivated user signs in")
	}
	code, users := adminCall(t, m, admin, http.MethodGet, "/users?customerId="+DemoAcmeCustomerID+"&limit=100", nil)
	found := false
	for _, it := range users["items"].([]any) {
		if it := it.(map[string]any); it["id"] == id {
			found = it["status"] == "suspended"
		}
	}
	if code != 200 || !found {
		t.Fatalf("the console's users list does not show the suspension: %d %v", code, users)
	}
	code, u = scimCall(t, m, token, http.MethodPut, usersAt+id, map[string]any{"userName": email, "active": true,
		"name": map[string]any{"givenName": "Erin", "familyName": "Eklund"}})
	if code != 200 || u["active"] != true || !tryPasswordLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+consoleRedir, email) {
		t.Fatalf("reactivate = %d %v", code, u)
	}
	if code, body := scimCall(t, m, token, http.MethodDelete, usersAt+id, nil); code != http.StatusNoContent {
		t.Fatalf("delete = %d %v", code, body)
	}
	if code, _ := consoleUser(t, m, admin, id); code != 404 {
		t.Fatalf("the console still has the user: %d", code)
	}
	if code, body := scimCall(t, m, token, http.MethodDelete, "/Groups/"+gid, nil); code != http.StatusNoContent {
		t.Fatalf("delete group = %d %v", code, body)
	}
}
