package storetest

import (
	"testing"
	"time"

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
	if err := st.CreateInstance(ctx, &platform.Instance{ID: "ov-i", CustomerID: "ov-a", Name: "Prod", URL: "https://prod.example", CreatedAt: ts},
		&platform.InstanceConnection{InstanceID: "ov-i", OIDCClientID: "client-ov-i", UpdatedAt: ts}); err != nil {
		t.Fatal(err)
	}
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
