package graph_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// mustTenants adds n tenants over n/10 new customers, each customer granted
// to the account manager and the qa_admin.
func (e *env) mustTenants(n int) {
	e.t.Helper()
	for i := 0; i < n; i++ {
		cust := fmt.Sprintf("cust-bulk-%03d", i/10)
		if i%10 == 0 {
			org := "org-" + cust
			if err := e.st.CreateOrganization(ctx, &platform.Organization{ID: org, Name: cust, CreatedAt: t0}); err != nil {
				e.t.Fatal(err)
			}
			if err := e.st.CreateCustomer(ctx, &platform.Customer{ID: cust, Name: "Bulk " + cust, OrgID: org, CreatedAt: t0}); err != nil {
				e.t.Fatal(err)
			}
			for _, u := range []string{acctMgr, qaAdm} {
				if err := e.st.PutGrant(ctx, false, &store.Grant{GranteeID: u, TargetID: cust, GrantedAt: t0}); err != nil {
					e.t.Fatal(err)
				}
			}
		}
		if err := e.st.CreateTenant(ctx, &store.Tenant{ID: fmt.Sprintf("ten-bulk-%03d", i), CustomerID: cust,
			Name: fmt.Sprintf("Bulk %03d", i), CreatedAt: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// tenantsWithCustomerAndGrants is the N+1 probe: a page of tenants, each
// with its customer and the customer's grants.
const tenantsWithCustomerAndGrants = `query($n: Int!) { tenants(first: $n) { items { id name
	customer { id name grants { granteeId grantedAt } } } nextCursor } }`

// TestNoNPlusOne: a page of tenants with their customers and the customers'
// grants costs a constant number of SQL statements, whatever the page
// size: answered in place 3 (the caller, the tenants, their customers with
// their grants), through the executor's loaders at most 4 (the customers
// and their grants apart).
func TestNoNPlusOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mustTenants(100)
	count := func(user string, n int) (int64, gqlResponse) {
		before := e.queries.Load()
		got := e.gql(user, tenantsWithCustomerAndGrants, map[string]any{"n": n})
		return e.queries.Load() - before, got
	}
	for _, n := range []int{10, 50, 100} {
		ran, got := count(platAdm, n)
		if len(got.Errors) > 0 {
			t.Fatalf("errors: %s", got.Raw)
		}
		items := dig(got.Data, "tenants", "items").([]any)
		if len(items) != n {
			t.Fatalf("%d tenants, want %d", len(items), n)
		}
		grants := 0
		for _, it := range items {
			if dig(it, "customer", "id") == nil {
				t.Fatalf("tenant %v without customer", dig(it, "id"))
			}
			gs, _ := dig(it, "customer", "grants").([]any)
			grants += len(gs)
		}
		if grants == 0 {
			t.Fatalf("no grants loaded: %s", got.Raw)
		}
		if ran > 3 {
			t.Errorf("%d tenants with customers and grants: %d SQL statements, want at most 3", n, ran)
		}
		t.Logf("%d tenants: %d statements", n, ran)
	}
	// A role whose grants field is refused: each grants field is null with
	// its FORBIDDEN error, and the denial is audited once for the page, not
	// once per customer.
	ran, got := count(acctMgr, 100)
	if len(got.Errors) != 100 {
		t.Fatalf("%d errors, want one per grants field", len(got.Errors))
	}
	for _, er := range got.Errors {
		if er.code() != "FORBIDDEN" {
			t.Fatalf("error %+v, want FORBIDDEN", er)
		}
	}
	if ran > 4 {
		t.Errorf("account manager: %d SQL statements, want at most 4", ran)
	}
}
