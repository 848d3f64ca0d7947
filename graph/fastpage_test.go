package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/store"
)

// gqlAt posts an operation to path and returns the answer's bytes.
func (e *env) gqlAt(path, userID, query string, vars map[string]any) gqlResponse {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return e.send(userID, req)
}

// requestIDs matches the request id of an error, which differs between
// two requests.
var requestIDs = regexp.MustCompile(`"requestId":"[0-9a-f]+"`)

// canonical is an answer's data, byte for byte, and its errors without
// their request id, in order: the executor resolves a list's elements
// concurrently, so its errors come in any order.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	var r struct {
		Data   json.RawMessage
		Errors []json.RawMessage
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%v: %.500s", err, raw)
	}
	errs := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		errs[i] = string(requestIDs.ReplaceAll(e, nil))
	}
	sort.Strings(errs)
	return string(r.Data) + "\n" + strings.Join(errs, "\n")
}

// Every field the page serves, through aliases, fragments, @skip and
// @include.
const pageEveryField = `query($n: Int, $after: String, $no: Boolean!) { page: tenants(first: $n, after: $after) {
  __typename nextCursor
  items { __typename ...T key: id customerId instanceId createdAt updatedAt skipped: name @include(if: $no)
    customer { __typename id name orgId createdAt ... on Customer { updatedAt grants { ...G } } } } } }
fragment T on Tenant { id name }
fragment G on Grant { __typename granteeType granteeId customerId instanceId grantedBy grantedAt }`

// The tenants page answered in place is byte for byte the executor's answer,
// for every role of the fixtures, every field it serves, filters and pages;
// an operation it does not serve, or one the executor answers with an error,
// goes to the executor (D-graphql-page).
func TestFastPageAnswersAsTheExecutor(t *testing.T) {
	// serial: graph.CountPages counts the pages every test of the binary serves
	e := newEnv(t)
	e.mustTenants(30)
	// a name with every character the two writers escape
	odd := "Odd \"q\" \\ <b>&amp;</b> \n\t\r\x01\x1f \u2028\u2029 \u00e9\u20ac\U0001F600"
	if err := e.st.CreateTenant(ctx, &store.Tenant{ID: "ten-odd", CustomerID: custAcme, Name: odd, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	served := graph.CountPages(t)
	users := []string{platAdm, acctMgr, qaAdm, focusU, readerU, financeAdm, complAdm, ownerA, billingA, viewerA, memberA, ownerG}
	cases := []struct {
		name  string
		query string
		vars  map[string]any
		// served for platform_admin
		fast bool
	}{
		{"page with customers and grants", tenantsWithCustomerAndGrants, map[string]any{"n": 100}, true},
		{"every field", pageEveryField, map[string]any{"n": 7, "no": false}, true},
		{"every field, included", pageEveryField, map[string]any{"no": true}, true},
		{"one customer's", `{ tenants(customerId: "cust-acme") { items { id customer { id } } } }`, nil, true},
		{"one instance's", `{ tenants(instanceId: "inst-acme-1") { items { id instanceId } } }`, nil, true},
		{"tenants only", `{ tenants(first: 5) { items { id name } nextCursor } }`, nil, true},
		{"cursor only", `{ tenants(first: 5) { nextCursor } }`, nil, true},
		{"unknown customer", `{ tenants(customerId: "cust-none") { items { id } } }`, nil, true},
		{"bad page size", `{ tenants(first: 0) { items { id } } }`, nil, false},
		{"bad cursor", `{ tenants(after: "nope") { items { id } } }`, nil, false},
		{"a field with @authz", `{ tenants(first: 5) { items { id settings } } }`, nil, false},
		{"the instance edge", `{ tenants(first: 5) { items { id instance { id } } } }`, nil, false},
		{"items twice", `{ tenants(first: 5) { a: items { id } b: items { name } } }`, nil, false},
		{"two root fields", `{ tenants(first: 5) { items { id } } me { userId } }`, nil, false},
		{"another root field", `{ customers(first: 5) { items { id } } }`, nil, false},
		{"the customer's tenants", `{ tenants(first: 5) { items { customer { tenants { id } } } } }`, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, u := range users {
				before := served.Load()
				fast := e.gqlAt("/graphql", u, c.query, c.vars)
				answered := served.Load() - before
				general := e.gqlAt("/graphql-executor", u, c.query, c.vars)
				if served.Load() != before+answered {
					t.Fatal("the executor's endpoint answered in place")
				}
				if a, b := canonical(t, fast.Raw), canonical(t, general.Raw); fast.Status != general.Status || a != b {
					i := 0
					for i < len(a) && i < len(b) && a[i] == b[i] {
						i++
					}
					t.Fatalf("%s: in place %d, executor %d; from byte %d:\n%.300s\n%.300s", u, fast.Status, general.Status, i, a[i:], b[i:])
				}
				if u == platAdm && (answered == 1) != c.fast {
					t.Fatalf("answered in place: %v, want %v (%s)", answered == 1, c.fast, fast.Raw)
				}
				if answered == 1 && bytes.Contains(fast.Raw, []byte(`"errors"`)) {
					t.Fatalf("%s: an answer with errors was given in place: %s", u, fast.Raw)
				}
			}
		})
	}
	// the GET transport answers the page too
	for _, u := range users {
		q := url.Values{"query": {pageEveryField}, "variables": {`{"n":40,"no":true}`}}.Encode()
		get := func(path string) gqlResponse {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path+"?"+q, nil)
			return e.send(u, req)
		}
		fast, general := get("/graphql"), get("/graphql-executor")
		if fast.Status != general.Status || canonical(t, fast.Raw) != canonical(t, general.Raw) {
			t.Fatalf("GET as %s: in place %d %.3000s\nexecutor %d %.3000s", u, fast.Status, fast.Raw, general.Status, general.Raw)
		}
	}
	// paging through the page's cursor gives the executor's pages
	var after any
	for range 4 {
		vars := map[string]any{"n": 8, "after": after, "no": true}
		fast, general := e.gqlAt("/graphql", platAdm, pageEveryField, vars), e.gqlAt("/graphql-executor", platAdm, pageEveryField, vars)
		if canonical(t, fast.Raw) != canonical(t, general.Raw) || len(fast.Errors) > 0 {
			t.Fatalf("page after %v: in place %s\nexecutor %s", after, fast.Raw, general.Raw)
		}
		after = dig(fast.Data, "page", "nextCursor")
	}
	if served.Load() == 0 {
		t.Fatal("no page was answered in place")
	}
}
