package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// TestMe: every caller reads who it is and the permissions its role holds,
// once, as GET /api/v1/me/permissions shows them.
//
// spec: R5.7-roles
func TestMe(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const q = `{ me { id userId email name role customerId permissions writable scope { source mode customerIds } } }`
	for _, tc := range []struct {
		user, role string
		customer   any
		has, lacks string // a permission held, one not held
		write      string // a permission held at full access ("" none checked)
	}{
		{platAdm, "platform_admin", nil, "CREATE_CUSTOMER", "", "CREATE_CUSTOMER"},
		{acctMgr, "account_manager", nil, "MANAGE_TENANT", "MANAGE_INSTANCES", ""},
		{ownerA, "owner", custAcme, "TRANSFER_OWNERSHIP", "CREATE_CUSTOMER", "TRANSFER_OWNERSHIP"},
		{viewerA, "viewer", custAcme, "VIEW_USAGE_UNITS", "VIEW_BILLED_UNITS", ""},
		{readerU, "reader", nil, "VIEW_AUDIT_LOG", "", ""},
	} {
		t.Run(tc.user, func(t *testing.T) {
			got := e.gql(tc.user, q, nil)
			if len(got.Errors) > 0 {
				t.Fatalf("errors: %s", got.Raw)
			}
			if dig(got.Data, "me", "id") != tc.user || dig(got.Data, "me", "email") != tc.user+"@example.com" ||
				dig(got.Data, "me", "name") != tc.user || dig(got.Data, "me", "role") != tc.role ||
				dig(got.Data, "me", "customerId") != tc.customer {
				t.Fatalf("me = %s", got.Raw)
			}
			perms := strs(dig(got.Data, "me", "permissions"))
			writable := strs(dig(got.Data, "me", "writable"))
			if !slices.Contains(perms, tc.has) || (tc.lacks != "" && slices.Contains(perms, tc.lacks)) {
				t.Errorf("permissions %v: want %s, not %q", perms, tc.has, tc.lacks)
			}
			if tc.write != "" && !slices.Contains(writable, tc.write) {
				t.Errorf("writable %v lacks %s", writable, tc.write)
			}
			if tc.role == "reader" && slices.Contains(writable, "VIEW_AUDIT_LOG") {
				t.Errorf("reader may write %v", writable)
			}
			for _, w := range writable {
				if !slices.Contains(perms, w) {
					t.Errorf("writable %s not among permissions", w)
				}
			}
		})
	}
	if got := e.gql("", q, nil); dig(got.Data, "me") != nil || !strings.Contains(string(got.Raw), "authentication is required") {
		t.Errorf("anonymous me answered: %s", got.Raw)
	}
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestParentChildEdges: customers with their tenants, instances and users,
// instances with their tenants, grants with their user, customer and
// instance, each edge filtered by the caller's scope and refused to roles
// that do not hold its action.
//
// spec: R5.7-strict, R5.7-no-infra
func TestParentChildEdges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const q = `{ customers(first: 10) { items { id tenants(first: 10) { id name } instances(first: 5) { id tenants(first: 10) { id } }
		users(first: 10) { id email customer { id } } } } }`
	got := e.gql(platAdm, q, nil)
	if len(got.Errors) > 0 {
		t.Fatalf("errors: %s", got.Raw)
	}
	byID := map[string]any{}
	for _, it := range dig(got.Data, "customers", "items").([]any) {
		byID[dig(it, "id").(string)] = it
	}
	acme := byID[custAcme]
	if n := len(dig(acme, "tenants").([]any)); n != 2 {
		t.Errorf("Acme has %d tenants, want 2: %s", n, got.Raw)
	}
	if dig(acme, "tenants", 0, "name") != "Harbor Campus" || dig(acme, "tenants", 1, "name") != "Inland Depot" {
		t.Errorf("Acme's tenants not by name: %v", dig(acme, "tenants"))
	}
	if n := len(dig(acme, "instances").([]any)); n != 2 {
		t.Errorf("Acme has %d instances, want 2", n)
	}
	if dig(acme, "instances", 0, "tenants", 0, "id") != tenAcme {
		t.Errorf("instance %v's tenants = %v", dig(acme, "instances", 0, "id"), dig(acme, "instances", 0, "tenants"))
	}
	users := dig(acme, "users").([]any)
	if len(users) != 4 || dig(users[0], "customer", "id") != custAcme {
		t.Errorf("Acme's users = %v", users)
	}
	globex := byID[custGlobex]
	if n := len(dig(globex, "tenants").([]any)); n != 1 || len(dig(globex, "instances").([]any)) != 0 {
		t.Errorf("Globex = %v", globex)
	}

	// An account manager sees only its customer, and its instances (to
	// create tenants on, D-instance-reads) without their connection.
	got = e.gql(acctMgr, `{ customers { items { id tenants { id } instances { id } } } }`, nil)
	items := dig(got.Data, "customers", "items").([]any)
	if len(items) != 1 || dig(items[0], "id") != custAcme || len(dig(items[0], "tenants").([]any)) != 2 {
		t.Fatalf("account manager's customers: %s", got.Raw)
	}
	if ids := idsOf(dig(items[0], "instances")); !slices.Equal(ids, []string{instAcme1, instAcme2}) || len(got.Errors) > 0 {
		t.Errorf("account manager's instances of Acme = %v: %s", ids, got.Raw)
	}
	got = e.gql(acctMgr, `{ customers { items { instances { connection { oidcClientId } } } } }`, nil)
	if !slices.Contains(got.codes(), "FORBIDDEN") || dig(got.Data, "customers", "items", 0, "instances", 0, "connection") != nil {
		t.Errorf("account manager read an instance's connection: %s", got.Raw)
	}
	// A qa_admin granted one instance sees the tenants of that instance
	// only (and those on none), never the other instance's.
	got = e.gql(qaAdm, `query($id: ID!) { customer(id: $id) { tenants { id } } }`, map[string]any{"id": custAcme})
	if ids := idsOf(dig(got.Data, "customer", "tenants")); !slices.Equal(ids, []string{tenAcme}) {
		t.Errorf("qa_admin's tenants of Acme = %v (%s)", ids, got.Raw)
	}
	// A viewer may not list users.
	got = e.gql(viewerA, `query($id: ID!) { customer(id: $id) { id users { id } } }`, map[string]any{"id": custAcme})
	if dig(got.Data, "customer", "id") != custAcme || dig(got.Data, "customer", "users") != nil || !slices.Contains(got.codes(), "FORBIDDEN") {
		t.Errorf("viewer's users: %s", got.Raw)
	}

	got = e.gql(platAdm, `{ grants { granteeId customerId instanceId user { email role } customer { name } instance { id } } }`, nil)
	if len(got.Errors) > 0 {
		t.Fatalf("grants: %s", got.Raw)
	}
	var customerGrants, instanceGrants int
	for _, g := range dig(got.Data, "grants").([]any) {
		if dig(g, "user", "email") != dig(g, "granteeId").(string)+"@example.com" {
			t.Errorf("grant's user = %v", g)
		}
		switch {
		case dig(g, "customerId") != nil && dig(g, "customer", "name") != nil && dig(g, "instance") == nil:
			customerGrants++
		case dig(g, "instanceId") != nil && dig(g, "instance", "id") == dig(g, "instanceId") && dig(g, "customer") == nil:
			instanceGrants++
		default:
			t.Errorf("grant %v", g)
		}
	}
	if customerGrants != 2 || instanceGrants != 1 {
		t.Errorf("%d customer and %d instance grants", customerGrants, instanceGrants)
	}
}

func idsOf(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, it := range list {
		out = append(out, dig(it, "id").(string))
	}
	return out
}

// TestEdgesNoNPlusOne: a page of customers with their tenants, instances,
// users and grants costs a constant number of SQL statements whatever the
// page size: the caller, the customers, and one per edge.
func TestEdgesNoNPlusOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mustTenants(100)
	for i := 0; i < 10; i++ {
		cust := fmt.Sprintf("cust-bulk-%03d", i)
		id := fmt.Sprintf("inst-bulk-%03d", i)
		if err := e.st.CreateInstance(ctx, &platform.Instance{ID: id, CustomerID: cust, Name: id, URL: "https://" + id + ".example", CreatedAt: t0},
			&platform.InstanceConnection{InstanceID: id, OIDCClientID: "client-" + id, OIDCRedirectURI: "https://x", IDPAppID: "app-" + id, UpdatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		if err := e.st.PutGrant(ctx, true, &store.Grant{GranteeID: qaAdm, TargetID: id, GrantedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	const q = `query($n: Int!) { customers(first: $n) { items { id tenants(first: 20) { id } instances(first: 5) { id tenants(first: 20) { id } }
		users(first: 20) { id } grants { granteeId } } } }`
	for _, n := range []int{3, 12} {
		before := e.queries.Load()
		got := e.gql(platAdm, q, map[string]any{"n": n})
		ran := e.queries.Load() - before
		if len(got.Errors) > 0 {
			t.Fatalf("errors: %s", got.Raw)
		}
		tenants := 0
		for _, it := range dig(got.Data, "customers", "items").([]any) {
			tenants += len(dig(it, "tenants").([]any))
		}
		if tenants == 0 {
			t.Fatalf("no tenants loaded: %s", got.Raw)
		}
		// caller, customers, tenants, instances, the instances' tenants, users, grants
		if ran > 7 {
			t.Errorf("%d customers with their edges: %d SQL statements, want at most 7", n, ran)
		}
		t.Logf("%d customers: %d statements", n, ran)
	}

	before := e.queries.Load()
	got := e.gql(platAdm, `{ grants { user { id } customer { id } instance { id } } }`, nil)
	// caller, customer grants, instance grants, users, customers, instances
	if ran := e.queries.Load() - before; len(got.Errors) > 0 || ran > 6 {
		t.Errorf("grants with their user, customer and instance: %d statements (want at most 6): %s", ran, got.Raw)
	}
}
