package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// mustGrantees grants Acme to n more internal users (readers).
func (e *env) mustGrantees(n int) {
	e.t.Helper()
	for i := range n {
		id := fmt.Sprintf("u-grantee-%03d", i)
		if err := e.st.CreateUser(ctx, &platform.User{ID: id, OrgID: adminOrg, Email: id + "@example.com", Name: id,
			PasswordHash: "$argon2id$x", CreatedAt: t0, UpdatedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
		if err := e.st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: "reader", CreatedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
		if err := e.st.PutGrant(ctx, false, &store.Grant{GranteeID: id, TargetID: custAcme, GrantedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// A list longer than the schema assumes slips past the static price:
// Customer.grants is priced at ten, and a customer granted to 150 internal
// users, walked grants → customer → grants, costs 222 but produces 46,000
// objects. The operation is aborted at MaxObjects with one
// OBJECT_LIMIT_EXCEEDED error and no data; the tenants page answered in
// place (D-graphql-page) counts its objects the same way and leaves such a
// page to the executor, which aborts it.
// attack: graphql-object-flood
func TestAttackObjectFlood(t *testing.T) {
	// serial: graph.CountPages counts the pages every test of the binary serves
	e := newEnv(t)
	e.mustGrantees(150) // Acme: 152 grants with the fixtures'
	const q = `{ customer(id: "cust-acme") { grants { customer { grants { customer { id } } } } } }`
	if cost, err := graph.OperationCost(q, nil); err != nil || cost > graph.MaxComplexity {
		t.Fatalf("cost %d (%v): the query must pass the static price", cost, err)
	}
	got := e.gql(platAdm, q, nil)
	if len(got.Errors) != 1 || got.Errors[0].code() != graph.CodeObjectLimit || got.Data != nil {
		t.Fatalf("want one %s and no data, got %d bytes: %.400s", graph.CodeObjectLimit, len(got.Raw), got.Raw)
	}
	produced, _ := dig(got.Errors[0].Extensions, "objects", "produced").(float64)
	// Past the cap, and short of the whole answer's 46,513 objects: the
	// fields already running when the cap was reached count too.
	if produced <= graph.MaxObjects || produced >= 46_513 || dig(got.Errors[0].Extensions, "objects", "max") != float64(graph.MaxObjects) {
		t.Errorf("extensions.objects = %v, want produced past %d", got.Errors[0].Extensions["objects"], graph.MaxObjects)
	}
	if got.Errors[0].Extensions["requestId"] == nil {
		t.Errorf("no request id: %s", got.Raw)
	}
	// Without the second walk it is 305 objects: answered.
	got = e.gql(platAdm, `{ customer(id: "cust-acme") { grants { customer { id } } } }`, nil)
	if grants, _ := dig(got.Data, "customer", "grants").([]any); len(got.Errors) > 0 || len(grants) != 152 {
		t.Errorf("152 grants with their customer: %.300s", got.Raw)
	}

	// The tenants page: 140 tenants of Acme, each with its customer's 152
	// grants, is 21,561 objects.
	for i := range 140 {
		if err := e.st.CreateTenant(ctx, &store.Tenant{ID: fmt.Sprintf("ten-acme-bulk-%03d", i), CustomerID: custAcme,
			Name: fmt.Sprintf("Acme %03d", i), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	pages := graph.CountPages(t)
	const page = `{ tenants(customerId: "cust-acme", first: 140) { items { id customer { id grants { granteeId } } } } }`
	for _, path := range []string{"/graphql", "/graphql-executor"} {
		got := e.post(path, platAdm, map[string]any{"query": page})
		if len(got.Errors) != 1 || got.Errors[0].code() != graph.CodeObjectLimit || got.Data != nil {
			t.Errorf("%s: want one %s and no data: %.300s", path, graph.CodeObjectLimit, got.Raw)
		}
	}
	if pages.Load() != 0 {
		t.Errorf("the fast path answered a page over the object limit")
	}
	// A page of 100 tenants, 15,401 objects, is answered in place.
	got = e.post("/graphql", platAdm, map[string]any{"query": `{ tenants(customerId: "cust-acme", first: 100) { items { id customer { id grants { granteeId } } } } }`})
	if len(got.Errors) > 0 || pages.Load() != 1 || len(dig(got.Data, "tenants", "items").([]any)) != 100 {
		t.Errorf("a page of 15,401 objects: fast path %d, %.300s", pages.Load(), got.Raw)
	}
}

// The executor went on resolving a query after its client had gone and
// past the request's deadline, so a client could leave work behind that
// no one would read. A resolver counts the calls: the request is cancelled
// while the users of the 30 users' customer are being resolved (from the
// request's loaders, without SQL), and none of the 900 users' customers is
// resolved afterwards.
// attack: graphql-outlives-request
func TestAttackCancelledRequestStops(t *testing.T) {
	t.Parallel()
	var (
		mu      sync.Mutex
		calls   = map[string]int{}
		hold    atomic.Bool
		reached = make(chan struct{}, 1)
		served  = make(chan struct{}, 4)
	)
	e := newEnv(t, func(c *graph.Config) {
		c.Observe = func(ctx context.Context) {
			fc := graphql.GetFieldContext(ctx)
			if !fc.IsResolver {
				return
			}
			mu.Lock()
			calls[fc.Object+"."+fc.Field.Name]++
			mu.Unlock()
			mu.Lock()
			nested := fc.Object == "Customer" && fc.Field.Name == "users" && calls["Customer.users"] > 1
			mu.Unlock()
			if hold.Load() && nested {
				select {
				case reached <- struct{}{}:
				default:
				}
				select { // held until the request ends (bounded, should it never)
				case <-ctx.Done():
				case <-time.After(10 * time.Second):
				}
			}
		}
		auth := c.Auth
		c.Auth = func(h http.Handler) http.Handler {
			inner := auth(h)
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer func() { served <- struct{}{} }()
				inner.ServeHTTP(w, r)
			})
		}
	})
	e.mustCustomerUsers(30)
	const q = `{ customer(id: "cust-acme") { users(first: 30) { customer { users(first: 30) { customer { id } } } } } }`
	count := func() (customers, all int) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range calls {
			all += n
		}
		customers = calls["CustomerUser.customer"]
		clear(calls)
		return customers, all
	}

	got := e.gql(ownerA, q, nil)
	<-served
	fullCustomers, full := count()
	if len(got.Errors) > 0 || fullCustomers != 930 {
		t.Fatalf("the full answer: %d CustomerUser.customer resolved, want 930: %.300s", fullCustomers, got.Raw)
	}

	hold.Store(true)
	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body, _ := json.Marshal(map[string]any{"query": q})
	req, _ := http.NewRequestWithContext(cctx, http.MethodPost, e.srv.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(testUserHeader, ownerA)
	go func() {
		if resp, err := e.srv.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-reached:
	case <-time.After(10 * time.Second):
		t.Fatal("the customer's users were never resolved")
	}
	cancel() // the client gives up
	select {
	case <-served:
	case <-time.After(30 * time.Second):
		t.Fatal("the request was still running")
	}
	// at most the 30 users' own customers: those the executor had not
	// started when the client left may never run, and none of the 900
	// nested users' customers may
	customers, all := count()
	if customers < 1 || customers > 30 || all >= full {
		t.Errorf("after the client went away: %d CustomerUser.customer (want 1 to 30: none of the 900 nested) and %d resolvers of the full answer's %d",
			customers, all, full)
	}
}

// TestObjectLimitKeepsMutations: a mutation whose answer runs over the
// object budget keeps what it did, with the fields left unresolved as
// OBJECT_LIMIT_EXCEEDED errors; a query over it answers one error and no
// data.
func TestObjectLimitKeepsMutations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *graph.Config) { c.MaxObjects = 3 })
	got := e.gql(platAdm, `mutation { updateCustomer(id: "cust-acme", input: {name: "Acme Renamed"}) {
		id name grants { customer { id } } } }`, nil)
	if dig(got.Data, "updateCustomer", "name") != "Acme Renamed" || len(got.Errors) == 0 {
		t.Fatalf("mutation over the budget: %s", got.Raw)
	}
	for _, err := range got.Errors {
		if err.code() != graph.CodeObjectLimit {
			t.Errorf("error %v, want %s", err, graph.CodeObjectLimit)
		}
	}
	if c, err := e.st.Customer(ctx, custAcme); err != nil || c.Name != "Acme Renamed" {
		t.Errorf("stored customer %v (%v)", c, err)
	}

	got = e.gql(platAdm, `{ customer(id: "cust-acme") { id grants { customer { id } } } }`, nil)
	if len(got.Errors) != 1 || got.Errors[0].code() != graph.CodeObjectLimit || got.Data != nil {
		t.Errorf("query over the budget: %s", got.Raw)
	}
	got = e.gql(platAdm, `{ customer(id: "cust-acme") { id grants { granteeId } } }`, nil)
	if len(got.Errors) > 0 {
		t.Errorf("three objects: %s", got.Raw)
	}
}
