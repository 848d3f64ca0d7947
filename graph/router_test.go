package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/testkit"
)

// crossSubgraphs asks one tenant's console fields (name, customer) and its
// data subgraph's (master records, cx schedules) in one request.
const crossSubgraphs = `query($id: ID!) { tenant(id: $id) { id name customer { name }
	masterRecords(master: "Building", pageSize: 3, sort: "slug") { total rows { id slug customFields } }
	cxSchedules { id name rowCount } } }`

// TestRouter runs the router as people run it (graph/router: Hive Gateway
// started with node from its committed lock file, its configuration and the
// committed supergraph) in front of the console subgraph and the data
// subgraph of a live platform; the caller's Authorization goes through to
// both. A query across both subgraphs answers through the router what the
// whole graph answers at ROLE=all's one endpoint, for a caller who may read
// the tenant and for one who may not; the router refuses, from the
// supergraph's @cost and @listSize, an operation over the budget before any
// subgraph runs a statement of it.
func TestRouter(t *testing.T) {
	t.Parallel()
	node, dir := routerToolchain(t)
	e := newEnv(t)
	router := startRouter(t, node, dir, e.srv.URL+"/graphql-console", e.srv.URL+"/graphql-data")

	for _, c := range []struct {
		user, query string
		vars        map[string]any
	}{
		{ownerA, crossSubgraphs, map[string]any{"id": tenAcme}},
		{acctMgr, crossSubgraphs, map[string]any{"id": tenAcme}},
		{ownerG, crossSubgraphs, map[string]any{"id": tenAcme}}, // another customer's tenant: NOT_FOUND
		{platAdm, `{ tenants(first: 10) { items { id name cxSchedules { id }
			masterRecords(master: "Building", pageSize: 1) { total } } } }`, nil},
	} {
		via := postRouter(t, router, c.user, map[string]any{"query": c.query, "variables": c.vars})
		whole := e.gql(c.user, c.query, c.vars)
		if diff := cmp.Diff(whole.Data, via["data"]); diff != "" {
			t.Errorf("%s: the router and the whole graph differ (-whole +router):\n%s\nrouter: %v", c.user, diff, via)
		}
		if len(whole.Errors) > 0 {
			errs, _ := via["errors"].([]any)
			if len(errs) == 0 || dig(errs, 0, "extensions", "code") != whole.Errors[0].code() {
				t.Errorf("%s: errors through the router %v, at the whole graph %s", c.user, via["errors"], whole.Raw)
			}
		}
	}
	got := postRouter(t, router, ownerA, map[string]any{"query": crossSubgraphs, "variables": map[string]any{"id": tenAcme}})
	if dig(got, "data", "tenant", "customer", "name") != "Acme" || dig(got, "data", "tenant", "masterRecords", "total") == nil ||
		dig(got, "data", "tenant", "cxSchedules", 0, "id") != schAcme {
		t.Errorf("the tenant across both subgraphs: %v", got)
	}
	if dig(got, "data", "tenant", "masterRecords", "total").(float64) < 3 {
		t.Errorf("Acme's buildings: %v", got)
	}
	if got := postRouter(t, router, "", map[string]any{"query": crossSubgraphs, "variables": map[string]any{"id": tenAcme}}); dig(got, "data", "tenant") != nil {
		t.Errorf("without credentials through the router: %v", got)
	}

	// Demand control: the nested users walk (TestAttackNestedEdges), and a
	// page of 1,000 tenants each with its members and its records. Hive
	// Gateway prices each subgraph request it plans: the console's part of
	// the second is over the budget.
	before := e.queries.Load()
	for _, q := range []string{nestedUsers,
		`{ tenants(first: 1000) { items { members { userId } masterRecords(master: "Building", pageSize: 1000) { rows { id } } } } }`} {
		got := postRouter(t, router, platAdm, map[string]any{"query": q})
		if code := dig(got, "errors", 0, "extensions", "code"); code != "COST_ESTIMATED_TOO_EXPENSIVE" || strings.Contains(fmt.Sprint(got["data"]), "userId") {
			t.Errorf("%.60s: through the router %v, want COST_ESTIMATED_TOO_EXPENSIVE", q, got)
		}
	}
	if ran := e.queries.Load() - before; ran != 0 {
		t.Errorf("the refused operations ran %d SQL statements at the subgraphs", ran)
	}
	// The entities of the subgraphs are the router's to ask, not a client's.
	if got := postRouter(t, router, platAdm, map[string]any{"query": `{ _entities(representations: [{__typename: "Tenant", id: "ten-acme"}]) { ... on Tenant { cxSchedules { id } } } }`}); dig(got, "data") != nil || dig(got, "errors", 0) == nil {
		t.Errorf("_entities through the router: %v", got)
	}
}

// TestRouterTrustedDocuments: a router started with
// ROUTER_TRUSTED_DOCUMENTS=true executes the console app's registered
// operations by their hash (the manifest its build writes) and refuses any
// other before a subgraph is asked.
//
// spec: D-trusted-documents
func TestRouterTrustedDocuments(t *testing.T) {
	t.Parallel()
	node, dir := routerToolchain(t)
	e := newEnv(t)
	router := startRouter(t, node, dir, e.srv.URL+"/graphql-console", e.srv.URL+"/graphql-data", "ROUTER_TRUSTED_DOCUMENTS=true")
	b, err := os.ReadFile(filepath.Join("..", "internal", "web", "console", "dist", "persisted-documents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]string
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	var me string
	for h, doc := range manifest {
		if strings.HasPrefix(doc, "query Me ") {
			me = h
		}
	}
	before := e.queries.Load()
	refused := postRouter(t, router, ownerA, map[string]any{"query": `{ me { role } }`})
	if refused["data"] != nil || dig(refused, "errors", 0, "message") == nil {
		t.Errorf("an operation of its own through the trusting router: %v", refused)
	}
	if ran := e.queries.Load() - before; ran != 0 {
		t.Errorf("the refused operation ran %d SQL statements", ran)
	}
	for _, hash := range []string{me, strings.TrimPrefix(me, "sha256:")} {
		got := postRouter(t, router, ownerA, map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}})
		if dig(got, "data", "me", "role") != "owner" {
			t.Errorf("the app's Me query by its hash %.20s: %v", hash, got)
		}
	}
}

// TestAttackEntityReference: a router, or anyone who reaches the data
// subgraph, resolves a Tenant by reference (_entities) with the caller's
// credentials; the data subgraph decides on the caller's scope as its own
// queries do, so a reference to another customer's tenant resolves to
// null and reaches none of its master records or schedules, and the
// console subgraph's Tenant references keep the console's rule.
//
// attack: subgraph-entity-reference
func TestAttackEntityReference(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const q = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Tenant { id
		masterRecords(master: "Building") { total rows { id } } cxSchedules { id name } } } }`
	reps := map[string]any{"r": []any{map[string]any{"__typename": "Tenant", "id": tenAcme}, map[string]any{"__typename": "Tenant", "id": tenGlobex}}}
	own := e.gqlAt("/graphql-data", ownerA, q, reps)
	if dig(own.Data, "_entities", 0, "cxSchedules", 0, "id") != schAcme || dig(own.Data, "_entities", 0, "masterRecords", "total") == nil {
		t.Errorf("Acme's owner, Acme's tenant: %s", own.Raw)
	}
	if dig(own.Data, "_entities", 1) != nil {
		t.Errorf("Acme's owner resolved Globex's tenant in the data subgraph: %s", own.Raw)
	}
	if other := e.gqlAt("/graphql-data", ownerG, q, reps); dig(other.Data, "_entities", 0) != nil || dig(other.Data, "_entities", 1, "id") != tenGlobex {
		t.Errorf("Globex's owner: %s", other.Raw)
	}
	if strict := e.gqlAt("/graphql-data", acctMgr, q, reps); dig(strict.Data, "_entities", 0, "id") != tenAcme || dig(strict.Data, "_entities", 1) != nil {
		t.Errorf("the account manager granted Acme: %s", strict.Raw)
	}
	if anon := e.gqlAt("/graphql-data", "", q, reps); anon.Status != http.StatusUnauthorized || strings.Contains(string(anon.Raw), schAcme) {
		t.Errorf("without credentials: %d %s", anon.Status, anon.Raw)
	}
	const consoleQ = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Tenant { id name } } }`
	if got := e.gqlAt("/graphql-console", ownerA, consoleQ, reps); dig(got.Data, "_entities", 0, "name") == nil || dig(got.Data, "_entities", 1) != nil {
		t.Errorf("the console subgraph's Tenant references: %s", got.Raw)
	}
}

// TestSubgraphsServeTheirOwnFields: each role's endpoint knows only its
// subgraph's fields (a field of the other is a validation error, never an
// answer that it is served elsewhere); the whole graph knows both.
//
// spec: D-graphql-subgraphs
func TestSubgraphsServeTheirOwnFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	records := `{ masterRecords(master: "Building") { total } }`
	customers := `{ customers { items { id } } }`
	for _, c := range []struct {
		path, query string
		served      bool
	}{
		{"/graphql-console", customers, true}, {"/graphql-console", records, false},
		{"/graphql-data", records, true}, {"/graphql-data", customers, false},
		{"/graphql", records, true}, {"/graphql", customers, true},
	} {
		got := e.gqlAt(c.path, platAdm, c.query, nil)
		if c.served && (len(got.Errors) > 0 || got.Data == nil) {
			t.Errorf("%s %s: %s", c.path, c.query, got.Raw)
		}
		if !c.served && (len(got.Errors) == 0 || got.Errors[0].code() != "GRAPHQL_VALIDATION_FAILED") {
			t.Errorf("%s %s: %s, want a validation error", c.path, c.query, got.Raw)
		}
		if strings.Contains(string(got.Raw), "served by") {
			t.Errorf("%s %s: %s", c.path, c.query, got.Raw)
		}
	}
}

// routerToolchain returns node and graph/router (gatewayToolchain).
func routerToolchain(t *testing.T) (node, dir string) {
	t.Helper()
	return gatewayToolchain(t, "router")
}

// routerStart bounds the wait for the router to answer: a bound against
// hanging, not a measure of speed. Node loads Hive Gateway's modules in a
// second or two on a quiet machine; CI runs both databases' tests at once
// on a machine other builds share.
const routerStart = 3 * time.Minute

// startRouter starts the router as `npm start` does in dir, in front of the
// two subgraphs, and returns its /graphql URL once it answers.
func startRouter(t *testing.T, node, dir, consoleURL, dataURL string, env ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, filepath.Join("node_modules", "@graphql-hive", "gateway", "dist", "bin.js"), "supergraph")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ROUTER_HOST=127.0.0.1", "ROUTER_PORT="+strconv.Itoa(port), "ROUTER_LOG_LEVEL=error",
		"CONSOLE_GRAPHQL_URL="+consoleURL, "TENANT_GRAPHQL_URL="+dataURL)
	cmd.Env = append(cmd.Env, env...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	client := &http.Client{Timeout: 5 * time.Second}
	if !testkit.EventuallyWithin(routerStart, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		resp, err := client.Get(base + "/healthcheck")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("the router did not answer within %s:\n%s", routerStart, log.String())
	}
	select {
	case <-exited:
		t.Fatalf("the router exited:\n%s", log.String())
	default:
	}
	return base + "/graphql"
}

// postRouter posts a GraphQL request to the router as user (its bearer
// token, which the router passes to the subgraphs).
func postRouter(t *testing.T, url, user string, body map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.Header.Set("Authorization", "Bearer "+user)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("router answer %d: %s", resp.StatusCode, raw)
	}
	return out
}
