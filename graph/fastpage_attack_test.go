package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// A user besides the fixtures': a qa_admin granted only an instance of
// Acme, whose tenants it reads without their customer.
const instOnlyU = "u-qa-instance-only"

func (e *env) mustAttackUsers() {
	e.t.Helper()
	for _, u := range []platform.ConsoleUser{{UserID: instOnlyU, Role: "qa_admin"}} {
		if err := e.st.CreateUser(ctx, &platform.User{ID: u.UserID, OrgID: adminOrg, Email: u.UserID + "@example.com", Name: u.UserID,
			PasswordHash: "$argon2id$x", CreatedAt: t0, UpdatedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
		u.CreatedAt = t0
		if err := e.st.PutConsoleUser(ctx, &u); err != nil {
			e.t.Fatal(err)
		}
	}
	if err := e.st.PutGrant(ctx, true, &store.Grant{GranteeID: instOnlyU, TargetID: instAcme1, GrantedAt: t0}); err != nil {
		e.t.Fatal(err)
	}
}

// post sends one request body to path as userID.
func (e *env) post(path, userID string, body map[string]any) gqlResponse {
	e.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return e.send(userID, req)
}

// An attacker shapes a tenants page so that the path answering it in place
// (D-graphql-page) skips what gqlgen's executor enforces: @authz on a field
// reached through a fragment on a union the type is a member of (_Entity),
// an alias renaming a guarded edge, an edge whose every field is skipped,
// variables, several operations in one document, introspection's
// __typename, the shape limits. For every role, the fixtures' and
// infra_ops and an instance-only grantee, both answers are the same bytes
// with the same errors and status, and the page answered in place never
// carries an error.
//
// attack: graphql-fast-path-bypass
func TestFastPageAttackAnswersAsTheExecutor(t *testing.T) {
	// serial: graph.CountPages counts the pages every test of the binary serves
	e := newEnv(t)
	e.mustAttackUsers()
	shallow := newEnv(t, func(c *graph.Config) { c.MaxDepth = 4 })
	served := graph.CountPages(t)
	users := []string{platAdm, acctMgr, qaAdm, focusU, readerU, financeAdm, complAdm, ownerA, billingA, viewerA, memberA, ownerG, infraOps, instOnlyU}
	aliases := make([]string, graph.MaxAliases+1)
	for i := range aliases {
		aliases[i] = "a" + strings.Repeat("x", i) + ": id"
	}
	cases := []struct {
		name string
		env  *env
		body map[string]any
		// served in place for platform_admin
		fast bool
	}{
		{"grants through a fragment on _Entity", e, map[string]any{"query": `{ tenants { items { id customer { id ... on _Entity { ... on Customer { grants { granteeId } } } } } } }`}, true},
		{"grants through a named fragment on _Entity", e, map[string]any{"query": `{ tenants { items { id customer { ...E } } } } fragment E on _Entity { ... on Customer { id grants { granteeId grantedAt } } }`}, true},
		{"settings through a fragment on _Entity", e, map[string]any{"query": `{ tenants { items { id ... on _Entity { ... on Tenant { settings } } } } }`}, false},
		{"migrations through a fragment on _Entity", e, map[string]any{"query": `{ tenants { items { id ... on _Entity { ... on Tenant { migrations { id } } } } } }`}, false},
		{"the customer through a fragment on _Entity", e, map[string]any{"query": `{ tenants { items { ... on _Entity { __typename ... on Tenant { id customer { name } } } } } }`}, true},
		{"__typename through a fragment on _Entity", e, map[string]any{"query": `{ tenants { items { id customer { id ... on _Entity { __typename } } } } }`}, true},
		{"grants renamed", e, map[string]any{"query": `{ tenants { items { customer { name: grants { id: granteeId } id: name } } } }`}, true},
		{"grants twice under one name", e, map[string]any{"query": `{ tenants { items { customer { grants { granteeId } grants { grantedAt } } } } }`}, true},
		{"grants twice under two names", e, map[string]any{"query": `{ tenants { items { customer { a: grants { granteeId } b: grants { grantedAt } } } } }`}, false},
		{"grants with every field skipped", e, map[string]any{"query": `{ tenants { items { customer { id grants { granteeId @skip(if: true) } } } } }`}, true},
		{"grants with a skipped fragment", e, map[string]any{"query": `{ tenants { items { customer { grants { ... on Grant @skip(if: true) { granteeId } } } } } }`}, true},
		{"grants included by a variable", e, map[string]any{"query": `query($g: Boolean!) { tenants { items { customer { id grants @include(if: $g) { granteeId } } } } }`, "variables": map[string]any{"g": true}}, true},
		{"grants skipped by a variable", e, map[string]any{"query": `query($g: Boolean!) { tenants { items { customer { id grants @skip(if: $g) { granteeId } } } } }`, "variables": map[string]any{"g": true}}, true},
		{"another customer by a variable", e, map[string]any{"query": `query($c: ID) { tenants(customerId: $c) { items { id customer { id grants { granteeId } } } } }`, "variables": map[string]any{"c": custGlobex}}, true},
		{"a number for the customer", e, map[string]any{"query": `query($c: ID) { tenants(customerId: $c) { items { id } } }`, "variables": map[string]any{"c": 7}}, false},
		{"the guarded operation of two", e, map[string]any{"query": `query A { tenants { items { id } } } query B { tenants { items { id settings } } }`, "operationName": "B"}, false},
		{"the plain operation of two", e, map[string]any{"query": `query A { tenants { items { id } } } query B { tenants { items { id settings } } }`, "operationName": "A"}, true},
		{"two operations, none named", e, map[string]any{"query": `query A { tenants { items { id } } } query B { tenants { items { id } } }`}, false},
		{"a query beside a mutation", e, map[string]any{"query": `query A { tenants { items { id } } } mutation B { deleteTenant(id: "ten-acme") }`, "operationName": "A"}, true},
		{"__typename beside the page", e, map[string]any{"query": `{ __typename tenants { items { id } } }`}, false},
		{"introspection beside the page", e, map[string]any{"query": `{ tenants { items { id } } __type(name: "Tenant") { name } }`}, false},
		{"too many aliases", e, map[string]any{"query": `{ tenants { items { ` + strings.Join(aliases, " ") + ` } } }`}, false},
		{"too deep", shallow, map[string]any{"query": `{ tenants { items { customer { grants { granteeId } } } } }`}, false},
		{"deep enough", shallow, map[string]any{"query": `{ tenants { items { customer { id } } } }`}, true},
		{"an unknown field", e, map[string]any{"query": `{ tenants { items { id billedAmount } } }`}, false},
		{"a persisted query", e, map[string]any{"query": `{ tenants { items { id } } }`, "extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": "00"}}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, u := range users {
				before := served.Load()
				fast := c.env.post("/graphql", u, c.body)
				answered := served.Load() - before
				general := c.env.post("/graphql-executor", u, c.body)
				if a, b := canonical(t, fast.Raw), canonical(t, general.Raw); fast.Status != general.Status || a != b {
					t.Fatalf("%s: in place (%d) %d %.600s\nexecutor %d %.600s", u, answered, fast.Status, fast.Raw, general.Status, general.Raw)
				}
				if answered == 1 && bytes.Contains(fast.Raw, []byte(`"errors"`)) {
					t.Fatalf("%s: an answer with errors was given in place: %s", u, fast.Raw)
				}
				if u == platAdm && (answered == 1) != c.fast {
					t.Fatalf("answered in place: %v, want %v (%.300s)", answered == 1, c.fast, fast.Raw)
				}
			}
		})
	}
	// a batch (a JSON array) is refused alike
	for _, u := range []string{platAdm, viewerA} {
		var got [2]gqlResponse
		for i, p := range []string{"/graphql", "/graphql-executor"} {
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+p, strings.NewReader(`[{"query":"{ tenants { items { id } } }"}]`))
			req.Header.Set("Content-Type", "application/json")
			got[i] = e.send(u, req)
		}
		if got[0].Status != http.StatusBadRequest || got[0].Status != got[1].Status || canonical(t, got[0].Raw) != canonical(t, got[1].Raw) {
			t.Fatalf("batch as %s: in place %d %s\nexecutor %d %s", u, got[0].Status, got[0].Raw, got[1].Status, got[1].Raw)
		}
	}
	// the GET transport with a fragment on _Entity
	q := url.Values{"query": {`{ tenants { items { id customer { ... on _Entity { ... on Customer { grants { granteeId } } } } } } }`}}.Encode()
	for _, u := range users {
		var got [2]gqlResponse
		for i, p := range []string{"/graphql", "/graphql-executor"} {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+p+"?"+q, nil)
			got[i] = e.send(u, req)
		}
		if got[0].Status != got[1].Status || canonical(t, got[0].Raw) != canonical(t, got[1].Raw) {
			t.Fatalf("GET as %s: in place %d %.600s\nexecutor %d %.600s", u, got[0].Status, got[0].Raw, got[1].Status, got[1].Raw)
		}
	}
}
