package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRESTAndGraphQLAgree runs one scenario through the REST shims and
// through GraphQL, per role and scope mode: both call the same service
// methods, so they answer the same items, the same redaction and the same
// refusals (403 ↔ FORBIDDEN, 404 ↔ NOT_FOUND).
//
// spec: R5.7-redact, R5.7-strict, R5.7-soft
func TestRESTAndGraphQLAgree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	codeOf := map[int]string{http.StatusForbidden: "FORBIDDEN", http.StatusNotFound: "NOT_FOUND", http.StatusBadRequest: "BAD_USER_INPUT"}
	for _, tc := range []struct {
		name, path, query string
		field             string // GraphQL root field
		list              bool   // REST answers {items: [...]}, GraphQL {items: [...]}
	}{
		{"customers", "/api/v1/customers?limit=100", `{ customers(first: 100) { items { id name orgId createdAt } } }`, "customers", true},
		{"tenants", "/api/v1/tenants?limit=100", `{ tenants(first: 100) { items { id name customerId instanceId createdAt } } }`, "tenants", true},
		{"instances", "/api/v1/instances?limit=100", `{ instances(first: 100) { items { id name customerId url } } }`, "instances", true},
		{"usage", "/api/v1/usage", `{ usage { items { id customerId meter period units billedAmount currency } } }`, "usage", true},
		{"customer Acme", "/api/v1/customers/" + custAcme, `{ customer(id: "cust-acme") { id name orgId } }`, "customer", false},
		{"customer Globex", "/api/v1/customers/" + custGlobex, `{ customer(id: "cust-globex") { id name orgId } }`, "customer", false},
		{"tenant Acme", "/api/v1/tenants/" + tenAcme, `{ tenant(id: "ten-acme") { id name customerId } }`, "tenant", false},
		{"grants", "/api/v1/grants", `{ grants { granteeId customerId instanceId } }`, "grants", false},
		{"bad page size", "/api/v1/customers?limit=5000", `{ customers(first: 5000) { items { id } } }`, "customers", true},
	} {
		for _, user := range []string{platAdm, acctMgr, qaAdm, focusU, readerU, ownerA, viewerA} {
			t.Run(tc.name+"/"+user, func(t *testing.T) {
				status, body := e.rest(user, http.MethodGet, tc.path, nil)
				got := e.gql(user, tc.query, nil)
				if status != http.StatusOK {
					if len(got.Errors) != 1 || got.Errors[0].code() != codeOf[status] {
						t.Fatalf("REST %d, GraphQL %s", status, got.Raw)
					}
					return
				}
				if len(got.Errors) > 0 {
					t.Fatalf("REST 200, GraphQL %s", got.Raw)
				}
				var rest any
				if err := json.Unmarshal(body, &rest); err != nil {
					t.Fatal(err)
				}
				gq := got.Data[tc.field]
				if m, ok := rest.(map[string]any); ok {
					if _, isList := gq.([]any); isList {
						rest = m["items"] // REST wraps bare lists in {items}
					}
				}
				want := project(rest, gq)
				if diff := cmp.Diff(want, gq); diff != "" {
					t.Errorf("REST and GraphQL differ (-REST +GraphQL):\n%s", diff)
				}
			})
		}
	}
}

// project keeps of the REST value the keys the GraphQL value selected.
func project(rest, shape any) any {
	switch s := shape.(type) {
	case map[string]any:
		r, _ := rest.(map[string]any)
		out := map[string]any{}
		for k, v := range s {
			out[k] = project(r[k], v)
		}
		return out
	case []any:
		r, _ := rest.([]any)
		out := make([]any, len(r))
		for i := range r {
			var sh any
			if len(s) > 0 {
				sh = s[min(i, len(s)-1)]
			}
			out[i] = project(r[i], sh)
		}
		return out
	}
	return rest
}

// TestInvalidMutationChangesNothing: a mutation with invalid input answers
// BAD_USER_INPUT (or the refusal) and writes nothing.
func TestInvalidMutationChangesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	snapshot := func() string {
		got := e.gql(platAdm, `{ customers(first: 100) { items { id name settings } } tenants(first: 100) { items { id name customerId } }
			grants { granteeId customerId instanceId } }`, nil)
		if len(got.Errors) > 0 {
			t.Fatalf("snapshot: %s", got.Raw)
		}
		b, _ := json.Marshal(got.Data)
		return string(b)
	}
	before := snapshot()
	for _, tc := range []struct {
		name, user, query, code string
	}{
		{"blank customer name", platAdm, `mutation { createCustomer(input: {name: "  "}) { id } }`, "BAD_USER_INPUT"},
		{"bad domain", platAdm, `mutation { createCustomer(input: {name: "Initech", domains: ["not a domain"]}) { id } }`, "BAD_USER_INPUT"},
		{"settings not an object", platAdm, `mutation { createCustomer(input: {name: "Initech", settings: [1, 2]}) { id } }`, "BAD_USER_INPUT"},
		{"tenant of unknown customer", platAdm, `mutation { createTenant(input: {customerId: "cust-nope", name: "T"}) { id } }`, ""},
		{"tenant name too long", platAdm, fmt.Sprintf(`mutation { createTenant(input: {customerId: "cust-acme", name: %q}) { id } }`, string(make([]byte, 0))+"x"+fmt.Sprintf("%0300d", 0)), "BAD_USER_INPUT"},
		{"grant both targets", platAdm, `mutation { createGrant(input: {userId: "u-account-manager", customerId: "cust-globex", instanceId: "inst-acme-1"}) { granteeId } }`, "BAD_USER_INPUT"},
		{"grant to a portal user", platAdm, `mutation { createGrant(input: {userId: "u-owner-acme", customerId: "cust-globex"}) { granteeId } }`, "BAD_USER_INPUT"},
		{"settings of another customer", ownerA, `mutation { putCustomerSettings(id: "cust-globex", settings: {a: 1}) }`, "NOT_FOUND"},
		{"rename out of scope", acctMgr, `mutation { updateCustomer(id: "cust-globex", input: {name: "Mine"}) { id } }`, "FORBIDDEN"},
		{"wrong variable type", platAdm, `mutation($n: String!) { createCustomer(input: {name: $n}) { id } }`, "GRAPHQL_VALIDATION_FAILED"},
		{"unknown input field", platAdm, `mutation { createCustomer(input: {name: "X", owner: "me"}) { id } }`, "GRAPHQL_VALIDATION_FAILED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var vars map[string]any
			if tc.code == "GRAPHQL_VALIDATION_FAILED" {
				vars = map[string]any{"n": 42}
			}
			got := e.gql(tc.user, tc.query, vars)
			if len(got.Errors) == 0 {
				t.Fatalf("accepted: %s", got.Raw)
			}
			if tc.code != "" && got.Errors[0].code() != tc.code {
				t.Errorf("code = %q, want %q: %s", got.Errors[0].code(), tc.code, got.Raw)
			}
			if after := snapshot(); after != before {
				t.Errorf("data changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
	// The control: a valid mutation does change the data, and is audited.
	got := e.gql(platAdm, `mutation { createCustomer(input: {name: "Initech"}) { id name } }`, nil)
	if dig(got.Data, "createCustomer", "name") != "Initech" || snapshot() == before {
		t.Fatalf("valid mutation: %s", got.Raw)
	}
	audit := e.gql(platAdm, `{ auditLog(first: 5) { items { action operation resource outcome } } }`, nil)
	if a, _ := dig(audit.Data, "auditLog", "items", 0, "operation").(string); a != "customer.create" {
		t.Errorf("latest audit event %s", audit.Raw)
	}
}
