package graph_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/graph"
)

// TestFederationComposition composes the subgraph with a federation
// toolchain no one here wrote (@theguild/federation-composition) and runs
// queries through Hive Gateway (@graphql-hive/gateway) against the live
// subgraph; the answers must equal the subgraph's own. It needs Node and
// the node_modules .ci/run installs with npm ci from the committed lock file:
// without them it is skipped, except under CI=true, where it must run.
func TestFederationComposition(t *testing.T) {
	t.Parallel()
	node, dir := federationToolchain(t)
	e := newEnv(t)
	sdl, _ := dig(e.gql(platAdm, `{ _service { sdl } }`, nil).Data, "_service", "sdl").(string)
	queries := []struct {
		user, query string
	}{
		{platAdm, `{ tenants(first: 10) { items { id name customer { id name } instance { id url } } } }`},
		{viewerA, `{ usage { items { customerId period units billedAmount } } }`},
		{billingA, `{ usage { items { customerId period units billedAmount } } }`},
		{acctMgr, `{ customer(id: "cust-globex") { id } }`},
	}
	// One gateway run (starting Node and composing is most of the cost), each
	// query with its user's header, which the gateway passes on.
	var in []any
	for _, q := range queries {
		in = append(in, map[string]any{"query": q.query, "headers": map[string]string{strings.ToLower(testUserHeader): q.user}})
	}
	res := runGateway(t, node, dir, map[string]any{"sdl": sdl, "url": e.srv.URL + "/graphql", "queries": in})
	if !strings.Contains(res.Supergraph, "join__type(graph: PLATFORM, key: \"id\")") {
		t.Errorf("supergraph without the subgraph's entity keys")
	}
	if len(res.Results) != len(queries) {
		t.Fatalf("gateway answered %d queries, want %d", len(res.Results), len(queries))
	}
	for i, q := range queries {
		direct := e.gql(q.user, q.query, nil)
		via := res.Results[i]
		if diff := cmp.Diff(direct.Data, via["data"]); diff != "" {
			t.Errorf("%s: gateway and subgraph differ (-subgraph +gateway):\n%s", q.user, diff)
		}
		if len(direct.Errors) > 0 {
			errs, _ := via["errors"].([]any)
			if len(errs) != len(direct.Errors) || dig(errs, 0, "extensions", "code") != direct.Errors[0].code() {
				t.Errorf("%s: errors through the gateway %v, direct %s", q.user, via["errors"], direct.Raw)
			}
		}
	}
}

// TestFederationDemandControl: the cost directives of the SDL reach the
// supergraph, and a router that enforces them (Hive Gateway's demand
// control, with the endpoint's limit) refuses the nested users query of
// TestAttackNestedEdges before it reaches the subgraph, and passes the
// same walk asked with first: 5, which the subgraph answers.
func TestFederationDemandControl(t *testing.T) {
	t.Parallel()
	node, dir := federationToolchain(t)
	e := newEnv(t)
	e.mustCustomerUsers(30)
	sdl, _ := dig(e.gql(platAdm, `{ _service { sdl } }`, nil).Data, "_service", "sdl").(string)
	const few = `{ customer(id: "cust-acme") { users(first: 5) { email customer { users(first: 5) { email } } } } }`
	before := e.queries.Load()
	direct := e.gql(ownerA, few, nil)
	statements := e.queries.Load() - before
	before = e.queries.Load()
	res := runGateway(t, node, dir, map[string]any{
		"sdl": sdl, "url": e.srv.URL + "/graphql", "maxCost": graph.MaxComplexity,
		"headers": map[string]string{strings.ToLower(testUserHeader): ownerA},
		"queries": []any{map[string]any{"query": nestedUsers}, map[string]any{"query": few}},
	})
	for _, want := range []string{`@link(url: "https://specs.apollo.dev/cost/v0.1"`,
		`users(first: Int = 100): [CustomerUser!] @listSize(`, `billingSetup: BillingSetup @cost(weight: 100)`} {
		if !strings.Contains(res.Supergraph, want) {
			t.Errorf("the supergraph lacks %s", want)
		}
	}
	refused := res.Results[0]
	if code := dig(refused, "errors", 0, "extensions", "code"); code != "COST_ESTIMATED_TOO_EXPENSIVE" || dig(refused, "data", "customer") != nil {
		t.Errorf("nested users through the gateway: %v", refused)
	}
	if ran := e.queries.Load() - before; ran != statements {
		t.Errorf("%d SQL statements at the subgraph for the two queries, %d for the small walk alone: the refused query reached it", ran, statements)
	}
	if diff := cmp.Diff(direct.Data, res.Results[1]["data"]); diff != "" || len(direct.Errors) > 0 {
		t.Errorf("first: 5 through the gateway (-subgraph +gateway):\n%s", diff)
	}
	if est, _ := dig(res.Results[1], "extensions", "cost", "estimated").(float64); est <= 0 || est > graph.MaxComplexity {
		t.Errorf("the gateway's estimate of the small walk: %v", res.Results[1]["extensions"])
	}
}

// federationToolchain returns node and graph/router, whose Node project
// (the router's packages) holds the federation tests' driver,
// federation-test.mjs (gatewayToolchain).
func federationToolchain(t *testing.T) (node, dir string) {
	t.Helper()
	return gatewayToolchain(t, "router")
}

// gatewayToolchain returns node and dir, a Node project with Hive Gateway
// whose node_modules .ci/run installs (npm ci from the committed lock
// file). Without them the test skips, except under CI=true, where it must
// run.
func gatewayToolchain(t *testing.T, dir string) (node, _ string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@graphql-hive", "gateway"))
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v: the tests with Hive Gateway must run in CI (.ci/run installs %s with npm ci)", err, dir)
		}
		t.Skipf("%v: run npm ci in %s", err, dir)
	}
	return node, dir
}

// gatewayResult is what federation-test.mjs answers.
type gatewayResult struct {
	CompositionErrors []string         `json:"compositionErrors"`
	Supergraph        string           `json:"supergraph"`
	Results           []map[string]any `json:"results"`
}

// runGateway composes the SDL of in and runs its queries through Hive
// Gateway (federation-test.mjs); composition errors fail the test.
func runGateway(t *testing.T, node, dir string, in map[string]any) gatewayResult {
	t.Helper()
	b, _ := json.Marshal(in)
	cmd := exec.Command(node, "federation-test.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gateway: %v\n%s", err, stderr.String())
	}
	var res gatewayResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("gateway output: %v\n%s\n%s", err, out, stderr.String())
	}
	if len(res.CompositionErrors) > 0 {
		t.Fatalf("composition failed:\n%s", strings.Join(res.CompositionErrors, "\n"))
	}
	return res
}

// TestEntities: the batched entity resolvers answer _entities in order,
// null for what the caller may not see, one batch per type.
func TestEntities(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const q = `query($r: [_Any!]!) { _entities(representations: $r) {
		... on Customer { id name } ... on Tenant { id name } ... on Instance { id url } ... on MasterRecord { id slug } } }`
	reps := []any{
		map[string]any{"__typename": "Customer", "id": custAcme},
		map[string]any{"__typename": "Customer", "id": custGlobex},
		map[string]any{"__typename": "Tenant", "id": tenAcme},
		map[string]any{"__typename": "Tenant", "id": tenGlobex},
		map[string]any{"__typename": "Instance", "id": instAcme1},
		map[string]any{"__typename": "MasterRecord", "id": "B2"},
		map[string]any{"__typename": "MasterRecord", "id": "G1"},
		map[string]any{"__typename": "Customer", "id": "cust-nope"},
	}
	before := e.queries.Load()
	got := e.gql(ownerA, q, map[string]any{"r": reps})
	ran := e.queries.Load() - before
	want := []any{
		map[string]any{"id": custAcme, "name": "Acme"}, nil,
		map[string]any{"id": tenAcme, "name": "Harbor Campus"}, nil,
		nil, // instances are internal infrastructure: null for a customer's owner
		map[string]any{"id": "B2", "slug": "bB2"}, nil, nil,
	}
	ents, _ := got.Data["_entities"].([]any)
	if len(ents) != len(reps) {
		t.Fatalf("%d entities for %d representations: %s", len(ents), len(reps), got.Raw)
	}
	for i := range want {
		if diff := cmp.Diff(want[i], ents[i]); diff != "" {
			t.Errorf("entity %d (-want +got):\n%s", i, diff)
		}
	}
	if ran > 5 { // the caller, then one batch per type
		t.Errorf("%d SQL statements for 4 types of entities", ran)
	}
	got = e.gql(platAdm, q, map[string]any{"r": reps[4:5]})
	if dig(got.Data, "_entities", 0, "url") != "https://inst-acme-1.example" {
		t.Errorf("instance entity for platform_admin: %s", got.Raw)
	}
}
