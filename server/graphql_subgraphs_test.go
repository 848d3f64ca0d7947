package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/web"
)

// graphqlCode is the code of the first error of a GraphQL answer.
func graphqlCode(a answer) any {
	errs, _ := a.body["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	e, _ := errs[0].(map[string]any)
	return dig(e, "extensions", "code")
}

// A console whose /graphql executes only the console app's registered
// operations (GRAPHQL_TRUSTED_DOCUMENTS, the default outside ROLE=all)
// refuses the text of any other operation with DOCUMENT_NOT_TRUSTED, and a
// hash that names no registered document with PERSISTED_QUERY_NOT_FOUND,
// before anything runs (a refused mutation writes nothing); the app's own
// operation sent by its hash answers, and a registered hash sent with
// another text executes the registered document, not the text. ROLE=all's
// endpoint (development, the playground) keeps arbitrary operations.
//
// attack: untrusted-document
func TestAttackUntrustedDocument(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	trusted := roleReplica(t, m, RoleConsole, func(c *Config) { c.GraphQLTrustedDocuments, c.GraphQLPlayground = true, false })
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	docs, err := web.ConsoleDocuments()
	if err != nil {
		t.Fatal(err)
	}
	var meHash string
	for h, doc := range docs {
		if strings.HasPrefix(doc, "query Me ") {
			meHash = h
		}
	}
	if meHash == "" {
		t.Fatal("the console app registers no Me query")
	}
	customers := func() int {
		var n int
		if err := m.Store.Conn().QueryRow(context.Background(), `SELECT COUNT(*) FROM customers`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := customers()
	for name, body := range map[string]map[string]any{
		"a query":    {"query": "{ me { userId role } }"},
		"a mutation": {"query": `mutation { createCustomer(input: {name: "Untrusted Ltd"}) { id } }`},
	} {
		a := call(t, nil, http.MethodPost, trusted+"/graphql", admin.AccessToken, body)
		if graphqlCode(a) != "DOCUMENT_NOT_TRUSTED" || a.body["data"] != nil {
			t.Errorf("%s not registered: %d %v", name, a.status, a.body)
		}
	}
	if n := customers(); n != before {
		t.Fatalf("a refused mutation created a customer (%d, was %d)", n, before)
	}
	byHash := func(hash, query string) answer {
		body := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}}
		if query != "" {
			body["query"] = query
		}
		return call(t, nil, http.MethodPost, trusted+"/graphql", admin.AccessToken, body)
	}
	if a := byHash(meHash, ""); a.status != 200 || dig(a.body, "data", "me", "role") != "platform_admin" {
		t.Errorf("the app's Me query by its hash: %d %v", a.status, a.body)
	}
	if a := byHash(meHash, `{ customers { items { id name } } }`); dig(a.body, "data", "me", "role") != "platform_admin" || dig(a.body, "data", "customers") != nil {
		t.Errorf("a registered hash with another text: %d %v", a.status, a.body)
	}
	if a := byHash(strings.Repeat("0", 64), `{ me { role } }`); graphqlCode(a) != "PERSISTED_QUERY_NOT_FOUND" || a.body["data"] != nil {
		t.Errorf("an unknown hash: %d %v", a.status, a.body)
	}
	if a := call(t, nil, http.MethodPost, m.Config.ConsoleURL+"/graphql", admin.AccessToken, map[string]any{"query": "{ me { role } }"}); a.status != 200 || dig(a.body, "data", "me", "role") != "platform_admin" {
		t.Errorf("ROLE=all's endpoint with an operation of its own: %d %v", a.status, a.body)
	}
}

// The data subgraph behind a router (GRAPHQL_CONSOLE_TOKENS) accepts the
// console's access token at the tenant role's /graphql, which the router
// forwards, and answers it with the caller's own scope; the data API's
// REST routes still refuse that token, and a tenant role without the
// setting refuses it at /graphql too (TestAttackIDTokenAsBearer).
//
// attack: console-token-at-data-api
func TestAttackConsoleTokenBehindRouter(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	routed := roleReplica(t, m, RoleTenant, func(c *Config) { c.GraphQLConsoleTokens = true })
	bob := signIn(t, m, "bob@acme.example")
	records := map[string]any{"query": `{ masterRecords(master: "Building", pageSize: 1) { total } }`}
	a := call(t, nil, http.MethodPost, routed+"/graphql", bob.console.AccessToken, records)
	if a.status != 200 || dig(a.body, "data", "masterRecords", "total") == nil {
		t.Errorf("console token at the routed data subgraph: %d %v", a.status, a.body)
	}
	if direct := call(t, nil, http.MethodPost, routed+"/graphql", bob.tenant.AccessToken, records); dig(direct.body, "data", "masterRecords", "total") != dig(a.body, "data", "masterRecords", "total") {
		t.Errorf("the console token read %v, the instance token %v", a.body, direct.body)
	}
	for name, a := range map[string]answer{
		"REST data API":                call(t, nil, http.MethodGet, routed+"/api/v1/me/tenants", bob.console.AccessToken, nil),
		"REST master records":          call(t, nil, http.MethodGet, routed+"/api/v1/master-record/Building", bob.console.AccessToken, nil),
		"/graphql without the setting": call(t, nil, http.MethodPost, m.Config.InstanceURL+"/graphql", bob.console.AccessToken, records),
	} {
		if a.status != http.StatusUnauthorized {
			t.Errorf("console token at %s: %d %v", name, a.status, a.body)
		}
	}
}

// The console's GraphQL and REST answers and the tenant role's data API
// answers are gzip-compressed for a client that accepts gzip, from 1 KiB
// on (D-compression); a smaller answer is sent as it is.
func TestAPIAnswersCompressed(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "admin@platform.example")
	bob := signIn(t, m, "bob@acme.example")
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	ask := func(method, url, token, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept-Encoding", "gzip")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for name, c := range map[string]struct {
		resp *http.Response
		gzip bool
	}{
		"GraphQL customers": {ask(http.MethodPost, m.Config.ConsoleURL+"/graphql", admin.AccessToken,
			`{"query":"{ a: customers { items { id name orgId createdAt updatedAt } } b: customers { items { id name orgId createdAt updatedAt } } }"}`), true},
		"REST permissions": {ask(http.MethodGet, m.Config.ConsoleURL+"/api/v1/me/permissions", admin.AccessToken, ""), true},
		"data API records": {ask(http.MethodGet, m.Config.InstanceURL+"/api/v1/master-record/Building", bob.tenant.AccessToken, ""), true},
		"GraphQL small":    {ask(http.MethodPost, m.Config.ConsoleURL+"/graphql", admin.AccessToken, `{"query":"{ me { role } }"}`), false},
	} {
		if got := c.resp.Header.Get("Content-Encoding") == "gzip"; c.resp.StatusCode != 200 || got != c.gzip {
			t.Errorf("%s: %d, Content-Encoding %q, %d bytes", name, c.resp.StatusCode, c.resp.Header.Get("Content-Encoding"), c.resp.ContentLength)
		}
	}
}
