package graph_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/platform/platform/graph"
)

// TestIntrospectionQueryPasses: graphql-js's standard introspection query
// (the one GraphiQL, Postman and codegen send; testdata/introspection.graphql,
// written by playground/vendor.mjs) answers the whole schema where the
// playground is on, while every limit still holds on real fields: a deep
// query over the schema's cycles, deep introspection through fields and
// types, and an over-long ofType chain are refused.
//
// spec: D-playground
func TestIntrospectionQueryPasses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *graph.Config) { c.Playground = true })
	q, err := os.ReadFile(filepath.Join("testdata", "introspection.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	got := e.gql(platAdm, string(q), nil)
	if len(got.Errors) > 0 {
		t.Fatalf("the standard introspection query is refused: %.500s", got.Raw)
	}
	types, _ := dig(got.Data, "__schema", "types").([]any)
	names := map[string]bool{}
	for _, ty := range types {
		names[dig(ty, "name").(string)] = true
	}
	for _, want := range []string{"Customer", "Tenant", "Me", "Webhook", "Mutation"} {
		if !names[want] {
			t.Errorf("introspection lacks %s (%d types)", want, len(types))
		}
	}

	// The same cycle walked deeper than MaxDepth on real fields.
	deep := "id"
	for range 6 {
		deep = "tenants { customer { " + deep + " } }"
	}
	deep = "{ customers { items { " + deep + " } } }"
	typeChain := "name"
	for range 6 {
		typeChain = "fields { type { " + typeChain + " } }"
	}
	ofType := "name"
	for range graph.MaxOfType + 1 {
		ofType = "ofType { " + ofType + " }"
	}
	for _, tc := range []struct{ name, query, code string }{
		{"real fields", deep, "DEPTH_LIMIT_EXCEEDED"},
		// gqlparser's own introspection rule refuses this first.
		{"introspection through fields and types", "{ __schema { types { " + typeChain + " } } }", "GRAPHQL_VALIDATION_FAILED"},
		{"an ofType chain past MaxOfType", `{ __type(name: "Customer") { fields { type { ` + ofType + ` } } } }`, "DEPTH_LIMIT_EXCEEDED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := e.gql(platAdm, tc.query, nil)
			if len(got.Errors) != 1 || got.Errors[0].code() != tc.code || got.Data != nil {
				t.Errorf("not refused for depth: %.300s", got.Raw)
			}
		})
	}
	ok := "name"
	for range graph.MaxOfType {
		ok = "ofType { " + ok + " }"
	}
	if got := e.gql(platAdm, `{ __type(name: "Customer") { fields { type { `+ok+` } } } }`, nil); len(got.Errors) > 0 {
		t.Errorf("an ofType chain of MaxOfType is refused: %.300s", got.Raw)
	}
}

// TestPlaygroundServedLocally: the playground page and every file it loads
// come from this host (no CDN), under a content security policy that
// allows nothing else; the console's page signs in through the console,
// the tenant's uses its cookie; the files are not served when the
// playground is off.
//
// spec: D-playground
func TestPlaygroundServedLocally(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   func(*graph.Config)
		signIn string
	}{
		{"console", func(c *graph.Config) { c.Playground = true }, "console"},
		{"tenant", func(c *graph.Config) { c.Playground = true; c.Admin = nil }, "cookie"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			resp, page := get(t, e.srv.URL+"/graphql", "text/html")
			if resp.StatusCode != 200 || !strings.Contains(page, `data-sign-in="`+tc.signIn+`"`) || !strings.Contains(page, "query Example") {
				t.Fatalf("page %d: %.300s", resp.StatusCode, page)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "connect-src 'self'") {
				t.Errorf("CSP %q", csp)
			}
			refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
			if len(refs) < 5 {
				t.Fatalf("page loads %d files", len(refs))
			}
			for _, ref := range refs {
				if !strings.HasPrefix(ref[1], "/") || strings.HasPrefix(ref[1], "//") {
					t.Errorf("page loads %s from elsewhere", ref[1])
					continue
				}
				if ref[1] == "/" {
					continue // the console's sign-in link
				}
				r, body := get(t, e.srv.URL+ref[1], "*/*")
				if r.StatusCode != 200 || len(body) == 0 {
					t.Errorf("%s: %d", ref[1], r.StatusCode)
				}
				if strings.HasSuffix(ref[1], ".js") && !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
					t.Errorf("%s served as %s", ref[1], r.Header.Get("Content-Type"))
				}
			}
			if r, _ := get(t, e.srv.URL+"/graphql/assets/../handler.go", "*/*"); r.StatusCode == 200 {
				t.Errorf("a path outside the assets is served")
			}
		})
	}
	off := newEnv(t)
	if r, _ := get(t, off.srv.URL+"/graphql/assets/graphiql.min.js", "*/*"); r.StatusCode == 200 {
		t.Errorf("assets served with the playground off")
	}
}

func get(t *testing.T, url, accept string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
