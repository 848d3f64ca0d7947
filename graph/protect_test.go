package graph_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/platform/platform/graph"
)

// TestRefusedBeforeExecution: over-complex, over-deep, alias-bomb and
// over-long operations are refused with a clear error before any resolver
// runs: no SQL beyond loading the caller, which access.Require does first.
func TestRefusedBeforeExecution(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	shallow := newEnv(t, func(c *graph.Config) { c.MaxDepth = 4 })
	var aliases strings.Builder
	aliases.WriteString("{")
	for i := range graph.MaxAliases + 1 {
		fmt.Fprintf(&aliases, " a%d: me { userId }", i)
	}
	aliases.WriteString(" }")
	const deep = `{ tenants { items { instance { customer { id } } } } }` // 5 levels
	const deepFragments = `{ tenants { ...T } } fragment T on TenantPage { items { instance { ...I } } }
		fragment I on Instance { customer { id } }`
	for _, tc := range []struct {
		name  string
		env   *env
		query string
		code  string // "" for an allowed control
		msg   string
	}{
		{"TooComplex", e, `{ tenants(first: 1000) { items { id customer { id usage(first: 1000) { items { id units } } } } } }`,
			"COMPLEXITY_LIMIT_EXCEEDED", "exceeds the limit of 20000"},
		{"TooComplexByAliases", e, `{ a: tenants(first: 1000) { items { id name customerId instanceId createdAt updatedAt } }
			b: tenants(first: 1000) { items { id name customerId instanceId createdAt updatedAt } }
			c: tenants(first: 1000) { items { id name customerId instanceId createdAt updatedAt } }
			d: tenants(first: 1000) { items { id name customerId instanceId createdAt updatedAt } } }`,
			"COMPLEXITY_LIMIT_EXCEEDED", "exceeds the limit"},
		{"AliasBomb", e, aliases.String(), "ALIAS_LIMIT_EXCEEDED", "more than 30 aliases"},
		{"TokenLimit", e, "{ me { " + strings.Repeat("userId ", graph.MaxTokens) + "} }", "GRAPHQL_PARSE_FAILED", "token limit"},
		{"TooDeep", shallow, deep, "DEPTH_LIMIT_EXCEEDED", "deeper than 4 levels"},
		{"TooDeepThroughFragments", shallow, deepFragments, "DEPTH_LIMIT_EXCEEDED", "deeper than 4 levels"},
		{"OK/Deep", e, deep, "", ""},
		{"OK/DeepFragments", e, deepFragments, "", ""},
		{"OK/ThirtyAliases", e, strings.Replace(aliases.String(), " a30: me { userId }", "", 1), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.env.queries.Load()
			got := tc.env.gql(platAdm, tc.query, nil)
			ran := tc.env.queries.Load() - before
			if tc.code == "" {
				if len(got.Errors) > 0 {
					t.Fatalf("refused: %s", got.Raw)
				}
				return
			}
			if len(got.Errors) != 1 || got.Data != nil {
				t.Fatalf("want one error and no data: %s", got.Raw)
			}
			if got.Errors[0].code() != tc.code {
				t.Errorf("code = %q, want %q", got.Errors[0].code(), tc.code)
			}
			if !strings.Contains(got.Errors[0].Message, tc.msg) {
				t.Errorf("message %q does not say %q", got.Errors[0].Message, tc.msg)
			}
			if ran > 1 {
				t.Errorf("%d SQL statements ran for a refused operation", ran)
			}
		})
	}
}

// TestTransports: POST JSON and GET for queries only; no form or multipart
// transport (CSRF); other methods refused.
func TestTransports(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	get := func(q string) gqlResponse {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/graphql?query="+url.QueryEscape(q), nil)
		return e.send(platAdm, req)
	}
	if got := get(`{ me { userId } }`); got.Status != 200 || dig(got.Data, "me", "userId") != platAdm {
		t.Errorf("GET query: %d %s", got.Status, got.Raw)
	}
	before := e.queries.Load()
	if got := get(`mutation { createCustomer(input: {name: "Via GET"}) { id } }`); got.Status == 200 && got.Data != nil && dig(got.Data, "createCustomer") != nil {
		t.Errorf("GET ran a mutation: %d %s", got.Status, got.Raw)
	} else if len(got.Errors) == 0 || !strings.Contains(got.Errors[0].Message, "GET requests only allow query operations") {
		t.Errorf("GET mutation: %d %s", got.Status, got.Raw)
	}
	if n := e.queries.Load() - before; n > 1 {
		t.Errorf("GET mutation ran %d statements", n)
	}
	for _, ct := range []string{"application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", ""} {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", strings.NewReader(`query={ me { userId } }`))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		if got := e.send(platAdm, req); got.Status != http.StatusUnsupportedMediaType || len(got.Errors) != 1 {
			t.Errorf("POST %q: %d %s", ct, got.Status, got.Raw)
		}
	}
	req, _ := http.NewRequest(http.MethodPut, e.srv.URL+"/graphql", strings.NewReader(`{}`))
	if got := e.send(platAdm, req); got.Status != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d %s", got.Status, got.Raw)
	}
	req, _ = http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", strings.NewReader(`{"query": "{ me { userId } }"}`))
	req.Header.Set("Content-Type", "application/json")
	if got := e.send("", req); got.Status != http.StatusUnauthorized {
		t.Errorf("no credentials: %d %s", got.Status, got.Raw)
	}
	big := `{"query": "{ me { userId } }", "variables": {"x": "` + strings.Repeat("a", 1<<20) + `"}}`
	req, _ = http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	if got := e.send(platAdm, req); got.Status == 200 && len(got.Errors) == 0 {
		t.Errorf("a body over 1 MiB was accepted: %d", got.Status)
	}
}

// TestStandardErrors: unknown fields and wrong variable types answer the
// standard GraphQL errors; introspection is off unless the playground is
// on, the federation SDL is served either way.
func TestStandardErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, query, code, msg string
		vars                   map[string]any
	}{
		{"UnknownField", `{ me { nope } }`, "GRAPHQL_VALIDATION_FAILED", `Cannot query field "nope"`, nil},
		{"WrongVariableType", `query($id: ID!) { customer(id: $id) { id } }`, "GRAPHQL_VALIDATION_FAILED", "", map[string]any{"id": map[string]any{"x": 1}}},
		{"MissingVariable", `query($id: ID!) { customer(id: $id) { id } }`, "GRAPHQL_VALIDATION_FAILED", "", nil},
		{"Syntax", `{ me { userId `, "GRAPHQL_PARSE_FAILED", "", nil},
		{"Introspection", `{ __schema { types { name } } }`, "INTROSPECTION_DISABLED", "introspection is disabled", nil},
		{"BadInput", `{ customers(first: 0) { items { id } } }`, "BAD_USER_INPUT", "first must be a whole number from 1 to 1000", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := e.gql(platAdm, tc.query, tc.vars)
			if len(got.Errors) == 0 {
				t.Fatalf("no error: %s", got.Raw)
			}
			if tc.code != "" && got.Errors[0].code() != tc.code {
				t.Errorf("code = %q, want %q: %s", got.Errors[0].code(), tc.code, got.Raw)
			}
			if !strings.Contains(got.Errors[0].Message, tc.msg) {
				t.Errorf("message %q, want it to contain %q", got.Errors[0].Message, tc.msg)
			}
		})
	}
	got := e.gql(platAdm, `{ _service { sdl } }`, nil)
	if sdl, _ := dig(got.Data, "_service", "sdl").(string); !strings.Contains(sdl, `type Customer @key(fields: "id")`) {
		t.Errorf("_service sdl not served: %s", got.Raw)
	}
}

// TestPlayground: with the playground on (D-playground), a browser's GET
// gets GraphiQL without credentials and introspection answers; with it off
// (the default of production roles) neither does.
// spec: D-playground
func TestPlayground(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{true, false} {
		e := newEnv(t, func(c *graph.Config) { c.Playground = on })
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/graphql", nil)
		req.Header.Set("Accept", "text/html")
		got := e.send("", req)
		page := got.Status == 200 && strings.Contains(string(got.Raw), "GraphiQL")
		if page != on {
			t.Errorf("playground %v: GET answered %d %.100s", on, got.Status, got.Raw)
		}
		intro := e.gql(platAdm, `{ __schema { queryType { name } } }`, nil)
		if (dig(intro.Data, "__schema", "queryType", "name") == "Query") != on {
			t.Errorf("playground %v: introspection %s", on, intro.Raw)
		}
	}
}

// An _entities call is priced per representation and capped: thousands of
// representations (a 19 MB answer from one small request) are refused
// before any resolver runs, and so is a smaller batch whose total cost
// passes the complexity limit. A federation router's usual batch passes.
// attack: entities-flood
func TestAttackEntitiesFlood(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reps := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"__typename": "Customer", "id": fmt.Sprintf("c-%d", i)}
		}
		return out
	}
	const q = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { id name usage(first: 100) { items { id units } } } } }`
	for _, tc := range []struct {
		name  string
		n     int
		query string
		code  string
	}{
		{"Flood", 14_000, `query($r: [_Any!]!) { _entities(representations: $r) { __typename } }`, graph.CodeEntitiesLimit},
		{"PricedPerRepresentation", 500, q, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"OK/RouterBatch", 50, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { id name } } }`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.queries.Load()
			got := e.gql(platAdm, tc.query, map[string]any{"r": reps(tc.n)})
			ran := e.queries.Load() - before
			if tc.code == "" {
				if len(got.Errors) > 0 {
					t.Fatalf("refused: %.300s", got.Raw)
				}
				return
			}
			if len(got.Errors) != 1 || got.Errors[0].code() != tc.code || got.Data != nil {
				t.Fatalf("%d representations: %d %.300s, want %s", tc.n, got.Status, got.Raw, tc.code)
			}
			if ran > 1 {
				t.Errorf("%d SQL statements ran for a refused operation", ran)
			}
		})
	}
}

// A body over the limit is refused with 413 whatever its framing: with a
// Content-Length, and chunked (no length known up front).
// attack: graphql-chunked-body
func TestAttackGraphQLChunkedBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := `{"query": "{ me { userId } }", "variables": {"x": "` + strings.Repeat("a", 2<<20) + `"}}`
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			body = struct{ io.Reader }{strings.NewReader(big)} // hides the length: sent chunked
		}
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", body)
		req.Header.Set("Content-Type", "application/json")
		got := e.send(platAdm, req)
		if got.Status != http.StatusRequestEntityTooLarge || len(got.Errors) != 1 || got.Errors[0].code() != graph.CodeTooLarge {
			t.Errorf("2 MiB body (chunked %v): %d %.200s, want 413 %s", chunked, got.Status, got.Raw, graph.CodeTooLarge)
		}
	}
}
