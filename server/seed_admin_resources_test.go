package main

import (
	"testing"
)

// The seeded billing data shows in the customer portal through the real
// console API: the owner sees Acme's usage with billed amounts, a member
// sees the same units with billedAmount null, and Globex's usage is not
// found for either.
//
// spec: R5.7-redact
func TestSeededUsageThroughAPI(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	owner, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "alice@acme.example")
	member, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "bob@acme.example")
	for _, tc := range []struct {
		name, token string
		billed      bool
	}{{"owner", owner.AccessToken, true}, {"member", member.AccessToken, false}} {
		code, body := adminCall(t, m, tc.token, "GET", "/customers/"+DemoAcmeCustomerID+"/usage", nil)
		items, _ := body["items"].([]any)
		if code != 200 || len(items) != 9 {
			t.Fatalf("%s: %d, %d rows: %v", tc.name, code, len(items), body)
		}
		for _, it := range items {
			row := it.(map[string]any)
			amount, present := row["billedAmount"]
			if !present || (amount != nil) != tc.billed || row["units"] == nil || row["customerId"] != DemoAcmeCustomerID {
				t.Fatalf("%s: row %v", tc.name, row)
			}
		}
		if code, _ := adminCall(t, m, tc.token, "GET", "/customers/"+DemoGlobexCustomerID+"/usage", nil); code != 404 {
			t.Errorf("%s reads Globex's usage: %d", tc.name, code)
		}
	}
	code, body := adminCall(t, m, owner.AccessToken, "GET", "/customers/"+DemoAcmeCustomerID+"/invoices", nil)
	if items, _ := body["items"].([]any); code != 200 || len(items) != 3 {
		t.Fatalf("owner's invoices: %d %v", code, body)
	}
}
