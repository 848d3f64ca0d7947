package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testOverview: the overview's counts within a scope, each by its list's
// condition: a scope of one customer counts that customer's only, an
// instance scope its instance's tenants (and those on none), no scope
// nothing; pending are users without a credential, locked those whose
// lockout has not ended.
func testOverview(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "ov-a", "ov-b")
	mustInstance(t, st, "ov-i", "ov-a", "Prod", "https://prod.example")
	for _, tn := range []store.Tenant{{ID: "ov-t1", CustomerID: "ov-a", InstanceID: "ov-i", Name: "One"}, {ID: "ov-t2", CustomerID: "ov-a", Name: "Two"},
		{ID: "ov-t3", CustomerID: "ov-b", Name: "Three"}} {
		tn.CreatedAt = ts
		if err := st.CreateTenant(ctx, &tn); err != nil {
			t.Fatal(err)
		}
	}
	user := func(id, customer string, password bool) {
		t.Helper()
		u := &platform.User{ID: id, OrgID: "org-" + customer, Email: id + "@example.com", Name: id, CreatedAt: ts, UpdatedAt: ts}
		if password {
			u.PasswordHash = "$argon2id$x"
		}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	user("ov-active", "ov-a", true)
	user("ov-invited", "ov-a", false)
	user("ov-locked", "ov-a", true)
	user("ov-was-locked", "ov-a", true)
	user("ov-other", "ov-b", false)
	if _, err := st.RecordLoginFailure(ctx, "ov-locked", 1, ts.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordLoginFailure(ctx, "ov-was-locked", 1, ts.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    authz.Filter
		want store.Counts
	}{
		{"all", authz.Filter{All: true}, store.Counts{Customers: 2, Tenants: 3, Users: 5, PendingInvitations: 2, LockedUsers: 1}},
		{"one customer", authz.Filter{CustomerIDs: []string{"ov-a"}}, store.Counts{Customers: 1, Tenants: 2, Users: 4, PendingInvitations: 1, LockedUsers: 1}},
		{"an instance", authz.Filter{CustomerIDs: []string{"ov-a"}, InstanceScoped: true, InstanceIDs: []string{"ov-i"}},
			store.Counts{Customers: 1, Tenants: 2, Users: 4, PendingInvitations: 1, LockedUsers: 1}},
		{"no instance", authz.Filter{CustomerIDs: []string{"ov-a"}, InstanceScoped: true},
			store.Counts{Customers: 1, Tenants: 1, Users: 4, PendingInvitations: 1, LockedUsers: 1}},
		{"nothing", authz.Filter{}, store.Counts{}},
	} {
		got, err := st.Counts(ctx, tc.f, ts)
		wantSame(t, tc.name, tc.want, got, err)
	}
}

// testBriefReads: a Brief read answers the rows, the order and the cursor
// of a Full one, with only the identity and names filled in (D-graphql-page).
func testBriefReads(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "b-1", "b-2")
	mustInstance(t, st, "b-inst", "b-1", "i", "https://i.example")
	for i, name := range []string{"Delta", "alpha", "Charlie", "bravo"} {
		tn := store.Tenant{ID: "bt-" + name, CustomerID: []string{"b-1", "b-2"}[i%2], Name: name,
			Settings: json.RawMessage(`{"k":1}`), CreatedAt: ts}
		if i == 0 {
			tn.InstanceID = "b-inst"
		}
		if err := st.CreateTenant(ctx, &tn); err != nil {
			t.Fatal(err)
		}
	}
	brief := func(ts []store.Tenant) []store.Tenant {
		out := make([]store.Tenant, len(ts))
		for i, t := range ts {
			out[i] = store.Tenant{ID: t.ID, CustomerID: t.CustomerID, InstanceID: t.InstanceID, Name: t.Name}
		}
		return out
	}
	q := store.TenantQuery{Scope: authz.Filter{All: true}, Page: store.PageQuery{Limit: 3}}
	for page := 0; page < 2; page++ {
		full, next, err := st.ListTenants(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if full[0].CreatedAt.IsZero() || len(full[0].Settings) == 0 {
			t.Fatalf("a full read left the times or settings out: %+v", full[0])
		}
		bq := q
		bq.Detail = store.Brief
		got, briefNext, err := st.ListTenants(ctx, bq)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(brief(full), got); d != "" || briefNext != next {
			t.Fatalf("page %d: brief read (-want +got):\n%s\ncursor %q, full %q", page, d, briefNext, next)
		}
		q.Page.Cursor = next
	}

	// two grantees of b-1 (one with no granter), none of b-2
	mustOrg(t, st, "b-admin")
	for _, u := range []string{"b-qa", "b-am"} {
		mustUser(t, st, u, "b-admin", u+"@platform.example")
		if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: u, Role: "qa_admin", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []store.Grant{{GranteeID: "b-qa", TargetID: "b-1", GrantedBy: "b-am", GrantedAt: ts},
		{GranteeID: "b-am", TargetID: "b-1", GrantedAt: ts.Add(time.Hour)}} {
		if err := st.PutGrant(ctx, false, &g); err != nil {
			t.Fatal(err)
		}
	}
	ids := []string{"b-2", "b-1", "b-none"}
	wantGrants, err := st.GrantsByCustomerIDs(ctx, ids)
	if err != nil || len(wantGrants) != 2 {
		t.Fatalf("grants = %+v, %v", wantGrants, err)
	}
	byID := func(cs []platform.Customer) map[string]platform.Customer {
		m := map[string]platform.Customer{}
		for _, c := range cs {
			m[c.ID] = c
		}
		return m
	}
	for _, d := range []store.Detail{store.Full, store.Brief} {
		cs, err := st.CustomersByIDs(ctx, ids, d)
		if err != nil {
			t.Fatal(err)
		}
		joined, gs, err := st.CustomersWithGrants(ctx, ids, d)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(byID(cs), byID(joined)); diff != "" || len(joined) != 2 {
			t.Errorf("detail %d: customers with grants (-by ids +joined):\n%s", d, diff)
		}
		if diff := cmp.Diff(wantGrants, gs); diff != "" {
			t.Errorf("detail %d: grants (-by customer ids +joined):\n%s", d, diff)
		}
	}

	full, err := st.CustomersByIDs(ctx, ids, store.Full)
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.CustomersByIDs(ctx, ids, store.Brief)
	if err != nil {
		t.Fatal(err)
	}
	want := byID(full)
	for id, c := range want {
		if c.CreatedAt.IsZero() {
			t.Fatalf("a full read left the times out: %+v", c)
		}
		want[id] = platform.Customer{ID: c.ID, Name: c.Name, OrgID: c.OrgID}
	}
	if d := cmp.Diff(want, byID(got)); d != "" || len(got) != 2 {
		t.Fatalf("brief customers (-want +got):\n%s", d)
	}
}
