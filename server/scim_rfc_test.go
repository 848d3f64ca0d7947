package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The examples of RFC 7644 against the server: discovery, filters, paging,
// attributes, PATCH of a group's members, and the error schema;
// application/json is read as application/scim+json.
//
// spec: D-scim
func TestSCIMRFC7644Examples(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner := consoleToken(t, m, "alice@acme.example")
	_, token := scimToken(t, m, owner, DemoAcmeCustomerID)

	// 4: discovery
	code, cfg := scimCall(t, m, token, http.MethodGet, "/ServiceProviderConfig", nil)
	if code != 200 || cfg["patch"].(map[string]any)["supported"] != true || cfg["bulk"].(map[string]any)["supported"] != false ||
		cfg["filter"].(map[string]any)["maxResults"] != float64(100) {
		t.Fatalf("ServiceProviderConfig = %d %v", code, cfg)
	}
	if code, rt := scimCall(t, m, token, http.MethodGet, "/ResourceTypes", nil); code != 200 || rt["totalResults"] != float64(2) {
		t.Fatalf("ResourceTypes = %d %v", code, rt)
	}
	if code, rt := scimCall(t, m, token, http.MethodGet, "/ResourceTypes/User", nil); code != 200 || rt["endpoint"] != "/Users" {
		t.Fatalf("ResourceTypes/User = %d %v", code, rt)
	}
	if code, sc := scimCall(t, m, token, http.MethodGet, "/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group", nil); code != 200 || sc["name"] != "Group" {
		t.Fatalf("Schemas/Group = %d %v", code, sc)
	}
	if code, sc := scimCall(t, m, token, http.MethodGet, "/Schemas", nil); code != 200 || sc["totalResults"] != float64(2) {
		t.Fatalf("Schemas = %d %v", code, sc)
	}

	// 3.3: creation (application/json is accepted too)
	ids := map[string]string{}
	for _, who := range []string{"bjensen", "jsmith", "mjones"} {
		code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{
			"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "userName": who + "@example.com", "externalId": who,
			"name": map[string]any{"formatted": "Ms. " + who, "familyName": "Jensen", "givenName": "Barbara"}})
		if code != http.StatusCreated || u["meta"].(map[string]any)["location"] != m.Config.ConsoleURL+"/scim/v2/Users/"+u["id"].(string) {
			t.Fatalf("create %s = %d %v", who, code, u)
		}
		ids[who] = u["id"].(string)
	}

	// 3.4.2.2: filters
	for filter, want := range map[string]int{
		`userName eq "bjensen@example.com"`:                                     1,
		`userName Eq "BJENSEN@example.com"`:                                     1,
		`userName co "jensen"`:                                                  1,
		`userName sw "j"`:                                                       1,
		`userName sw "%"`:                                                       0, // a LIKE wildcard is a character
		`externalId pr`:                                                         3,
		`emails.value eq "mjones@example.com"`:                                  1,
		`emails[value eq "mjones@example.com"]`:                                 1,
		`userName eq "bjensen@example.com" or userName sw "jsmith"`:             2,
		`userName ne "bjensen@example.com" and externalId sw "m"`:               1,
		`active eq true and (externalId eq "jsmith" or externalId eq "mjones")`: 2,
		`displayName eq "Ms. mjones"`:                                           1,
		`externalId eq "BJENSEN"`:                                               0, // externalId is caseExact
	} {
		code, list := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(filter+` and userName co "example.com"`), nil)
		if code != 200 || list["totalResults"] != float64(want) {
			t.Errorf("filter %s = %d %v, want %d", filter, code, list["totalResults"], want)
		}
	}
	for _, filter := range []string{`userName gt "a"`, `title eq "x"`, `not (userName eq "x")`, `userName eq`, `active eq "maybe"`} {
		code, body := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(filter), nil)
		wantSCIMError(t, "filter "+filter, code, body, 400, "invalidFilter")
	}

	// 3.4.2.4: paging
	code, page := scimCall(t, m, token, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName co "example.com"`)+"&startIndex=2&count=1", nil)
	if code != 200 || page["totalResults"] != float64(3) || page["startIndex"] != float64(2) || page["itemsPerPage"] != float64(1) ||
		listed(page)[0]["id"] != ids["jsmith"] {
		t.Fatalf("page = %d %v", code, page)
	}
	code, page = scimCall(t, m, token, http.MethodGet, "/Users?startIndex=0&count=0", nil)
	if code != 200 || page["startIndex"] != float64(1) || len(listed(page)) != 0 || page["totalResults"].(float64) < 5 {
		t.Fatalf("count=0 = %d %v", code, page)
	}

	// 3.4.2.5: attributes and excludedAttributes
	code, u := scimCall(t, m, token, http.MethodGet, usersAt+ids["bjensen"]+"?attributes=userName", nil)
	if code != 200 || u["userName"] != "bjensen@example.com" || u["id"] == nil || u["name"] != nil || u["groups"] != nil {
		t.Fatalf("attributes = %d %v", code, u)
	}
	code, u = scimCall(t, m, token, http.MethodGet, usersAt+ids["bjensen"]+"?excludedAttributes=emails,groups", nil)
	if code != 200 || u["emails"] != nil || u["groups"] != nil || u["userName"] == nil {
		t.Fatalf("excludedAttributes = %d %v", code, u)
	}

	// 3.5.2.1-3: a group's members added, one removed, all replaced
	code, g := scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Group"},
		"displayName": "Tour Guides", "members": []map[string]any{{"value": ids["bjensen"]}}})
	if code != http.StatusCreated || len(g["members"].([]any)) != 1 {
		t.Fatalf("create group = %d %v", code, g)
	}
	gid := g["id"].(string)
	patch := func(ops ...map[string]any) (int, map[string]any) {
		return scimCall(t, m, token, http.MethodPatch, "/Groups/"+gid+"?attributes=members,displayName", map[string]any{
			"schemas": []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"}, "Operations": ops})
	}
	memberIDs := func(g map[string]any) string {
		var out []string
		for _, mm := range g["members"].([]any) {
			out = append(out, mm.(map[string]any)["value"].(string))
		}
		return strings.Join(out, ",")
	}
	code, g = patch(map[string]any{"op": "add", "path": "members", "value": []map[string]any{{"display": "jsmith", "value": ids["jsmith"]}}})
	if code != 200 || len(g["members"].([]any)) != 2 {
		t.Fatalf("add = %d %v", code, g)
	}
	code, g = patch(map[string]any{"op": "remove", "path": `members[value eq "` + ids["bjensen"] + `"]`})
	if code != 200 || memberIDs(g) != ids["jsmith"] {
		t.Fatalf("remove one = %d %v", code, g)
	}
	code, g = patch(map[string]any{"op": "remove", "path": "members"},
		map[string]any{"op": "add", "path": "members", "value": []map[string]any{{"value": ids["mjones"]}}})
	if code != 200 || memberIDs(g) != ids["mjones"] {
		t.Fatalf("remove all and add = %d %v", code, g)
	}
	code, g = patch(map[string]any{"op": "replace", "path": "members", "value": []map[string]any{{"value": ids["bjensen"]}, {"value": ids["jsmith"]}}},
		map[string]any{"op": "replace", "value": map[string]any{"displayName": "Tour Leads"}})
	if code != 200 || len(g["members"].([]any)) != 2 || g["displayName"] != "Tour Leads" {
		t.Fatalf("replace = %d %v", code, g)
	}
	code, list := scimCall(t, m, token, http.MethodGet, "/Groups?filter="+url.QueryEscape(`members[value eq "`+ids["jsmith"]+`"]`), nil)
	if code != 200 || list["totalResults"] != float64(1) {
		t.Fatalf("groups of a member = %d %v", code, list)
	}
	// a failing operation leaves the whole request undone
	code, body := patch(map[string]any{"op": "replace", "value": map[string]any{"displayName": "Undone"}},
		map[string]any{"op": "add", "path": "members", "value": []map[string]any{{"value": "no-such-user"}}})
	wantSCIMError(t, "a member who is not a user", code, body, 400, "invalidValue")
	if _, g = scimCall(t, m, token, http.MethodGet, "/Groups/"+gid, nil); g["displayName"] != "Tour Leads" {
		t.Fatalf("a refused PATCH changed the group: %v", g)
	}

	// 3.12: errors
	code, body = scimCall(t, m, token, http.MethodGet, usersAt+"2819c223-7f76-453a-919d-413861904646", nil)
	wantSCIMError(t, "a missing user", code, body, 404, "")
	code, body = scimCall(t, m, token, http.MethodPatch, usersAt+ids["bjensen"], map[string]any{
		"schemas": []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"}, "Operations": []map[string]any{{"op": "move", "path": "x"}}})
	wantSCIMError(t, "an unknown op", code, body, 400, "")
	code, body = scimCall(t, m, token, http.MethodPost, "/Users", `{"userName":`)
	wantSCIMError(t, "a broken body", code, body, 400, "")
	code, body = scimCall(t, m, token, http.MethodPost, "/Groups", map[string]any{"displayName": "Tour Leads"})
	wantSCIMError(t, "a group name taken", code, body, 409, "uniqueness")
	req, _ := http.NewRequest(http.MethodPost, m.Config.ConsoleURL+"/scim/v2/Users", strings.NewReader(`{"userName":"x@example.com"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain = %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, m.Config.ConsoleURL+"/scim/v2/Users", strings.NewReader(`{"userName":"x@example.com"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(resp.Header.Get("Content-Type"), scimJSON) {
		t.Fatalf("application/json = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
