package main

import (
	"net/http"
	"testing"
	"time"
)

// A grant made through the console API is keyed by (grantee_type,
// grantee_id, customer_id) with grantee_type user, records who granted it,
// and its granted_at is the time it was created: within the request that
// made it. Granting the same again later keeps the first grant and its
// time; the listing answers the same grant.
//
// spec: R2.6-grant-key
func TestGrantedAtIsCreationTime(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	code, u := adminCall(t, m, admin.AccessToken, http.MethodPost, "/internal-users",
		map[string]any{"email": "am@platform.example", "name": "Account Manager", "role": "account_manager"})
	userID, _ := u["id"].(string)
	if code != http.StatusCreated || userID == "" {
		t.Fatalf("create internal user = %d %v", code, u)
	}
	grant := func() (int, map[string]any) {
		return adminCall(t, m, admin.AccessToken, http.MethodPost, "/grants", map[string]any{"userId": userID, "customerId": DemoAcmeCustomerID})
	}
	grantedAt := func(g map[string]any) time.Time {
		t.Helper()
		at, err := time.Parse(time.RFC3339Nano, g["grantedAt"].(string))
		if err != nil {
			t.Fatal(err)
		}
		return at
	}

	before := time.Now().Truncate(time.Microsecond)
	code, g := grant()
	after := time.Now()
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("grant = %d %v", code, g)
	}
	at := grantedAt(g)
	if at.Before(before) || at.After(after) {
		t.Fatalf("grantedAt %v is not the time of creation (the request ran from %v to %v)", at, before, after)
	}
	if g["granteeType"] != "user" || g["granteeId"] != userID || g["customerId"] != DemoAcmeCustomerID || g["grantedBy"] != demoAdminID {
		t.Fatalf("grant = %v", g)
	}

	// A later grant of the same key keeps the first (and its time).
	if code, g2 := grant(); code >= 300 || !grantedAt(g2).Equal(at) {
		t.Fatalf("granting again = %d, grantedAt %v; want the first grant's %v", code, g2["grantedAt"], at)
	}
	code, list := adminCall(t, m, admin.AccessToken, http.MethodGet, "/grants?customerId="+DemoAcmeCustomerID, nil)
	rows, _ := list["items"].([]any)
	var found []map[string]any
	for _, r := range rows {
		if r := r.(map[string]any); r["granteeId"] == userID {
			found = append(found, r)
		}
	}
	if code != 200 || len(found) != 1 || !grantedAt(found[0]).Equal(at) {
		t.Fatalf("listing = %d, this user's grants %v; want one granted at %v (%v)", code, found, at, list)
	}
}
