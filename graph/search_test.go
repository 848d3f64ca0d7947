package graph_test

import (
	"slices"
	"strings"
	"testing"
)

// Searches of the console's lists answer exactly the rows whose name (or
// address) contains the text, case-insensitively, within the caller's
// scope, LIKE's wildcards taken literally; the tenants page's own path
// answers as the resolvers do.
func TestSearchLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := func(user, query string, path ...string) []string {
		t.Helper()
		r := e.gql(user, query, nil)
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %s", query, r.Raw)
		}
		var out []string
		for _, it := range dig(r.Data, path[0], "items").([]any) {
			out = append(out, it.(map[string]any)["id"].(string))
		}
		slices.Sort(out)
		return out
	}
	for name, c := range map[string]struct {
		user, query, root string
		want              []string
	}{
		"users by address":                  {platAdm, `{ users(search: "OWNER-") { items { id } } }`, "users", []string{ownerA, ownerG}},
		"users within the owner's customer": {ownerA, `{ users(search: "owner-") { items { id } } }`, "users", []string{ownerA}},
		"users of one customer":             {platAdm, `{ users(customerId: "cust-globex", search: "owner") { items { id } } }`, "users", []string{ownerG}},
		"a wildcard matches itself":         {platAdm, `{ users(search: "u_owner") { items { id } } }`, "users", nil},
		"tenants by name":                   {platAdm, `{ tenants(search: "IN") { items { id } } }`, "tenants", []string{tenAcme2}},
		"tenants through the page's path":   {platAdm, `{ tenants(search: "n") { items { id name customer { name } } } }`, "tenants", []string{tenAcme2, tenGlobex}},
		"tenants of the account manager":    {acctMgr, `{ tenants(search: "north") { items { id } } }`, "tenants", nil},
		"internal users by name":            {platAdm, `{ internalUsers(search: "u-qa") { items { id } } }`, "internalUsers", []string{qaAdm}},
		"an empty search lists all":         {ownerA, `{ users(search: "") { items { id } } }`, "users", nil},
	} {
		got := ids(c.user, c.query, c.root)
		if name == "an empty search lists all" {
			if len(got) < 4 {
				t.Errorf("%s: %v", name, got)
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

// A customer's name is its own (D-customer-names): creating or renaming a
// customer to another's name in any case is a CONFLICT whose message names
// the field, and nothing is written.
func TestCustomerNamesAreUnique(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.gql(platAdm, `mutation { createCustomer(input: {name: " globex "}) { id } }`, nil)
	if !slices.Equal(r.codes(), []string{"CONFLICT"}) || !strings.Contains(string(r.Raw), `name \"globex\" is another customer's`) {
		t.Fatalf("a second Globex: %s", r.Raw)
	}
	r = e.gql(platAdm, `mutation { updateCustomer(id: "cust-acme", input: {name: "GLOBEX"}) { name } }`, nil)
	if !slices.Equal(r.codes(), []string{"CONFLICT"}) {
		t.Fatalf("Acme renamed Globex: %s", r.Raw)
	}
	r = e.gql(platAdm, `{ customers(search: "globex") { items { id } } }`, nil)
	if items := dig(r.Data, "customers", "items").([]any); len(items) != 1 {
		t.Fatalf("Globexes after the refusals: %s", r.Raw)
	}
	if r := e.gql(platAdm, `mutation { updateCustomer(id: "cust-acme", input: {name: "ACME"}) { name } }`, nil); len(r.Errors) > 0 {
		t.Fatalf("Acme in capitals: %s", r.Raw)
	}
}
