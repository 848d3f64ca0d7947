package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testAccess covers what authorization reads and writes: the principal in
// one statement, grants and their cascade, focus mode, subscriptions, the
// audit log and the catalog table.
func testAccess(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "cust-1", "cust-2", "cust-3")
	mustInstance(t, st, "inst-1", "cust-1", "i", "https://i.example")
	mustOrg(t, st, "org-admin")
	mustUser(t, st, "qa", "org-admin", "qa@platform.example")
	if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "qa", Role: "qa_admin", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	grant := MustGrant(t, st, "qa")

	t.Run("PrincipalWithoutRole", func(t *testing.T) {
		mustUser(t, st, "nobody", "org-admin", "nobody@platform.example")
		p, role, err := st.Principal(ctx, "nobody", MustGrant(t, st, "nobody"), ts)
		if err != nil || role != "" || p.CustomerID != "" {
			t.Errorf("principal = %q %+v, %v; want no role, no customer", role, p, err)
		}
	})

	// spec: R2.6-instance-grant, R2.6-resolver
	t.Run("Grants", func(t *testing.T) {
		for _, c := range []string{"cust-2", "cust-1", "cust-1"} { // granting twice keeps one grant
			if err := st.PutGrant(ctx, false, &store.Grant{GranteeID: "qa", TargetID: c, GrantedBy: "admin", GrantedAt: ts}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.PutGrant(ctx, true, &store.Grant{GranteeID: "qa", TargetID: "inst-1", GrantedAt: ts}); err != nil {
			t.Fatal(err)
		}
		err := st.PutGrant(ctx, false, &store.Grant{GranteeID: "qa", TargetID: "missing", GrantedAt: ts})
		wantCode(t, err, platform.ENOTFOUND)

		gs, err := st.Grants(ctx, false, "", "qa")
		if err != nil {
			t.Fatal(err)
		}
		want := []store.Grant{
			{GranteeType: "user", GranteeID: "qa", TargetID: "cust-1", GrantedBy: "admin", GrantedAt: ts},
			{GranteeType: "user", GranteeID: "qa", TargetID: "cust-2", GrantedBy: "admin", GrantedAt: ts},
		}
		if diff := cmp.Diff(want, gs, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
			t.Errorf("grants (-want +got):\n%s", diff)
		}

		p, role, err := st.Principal(ctx, "qa", grant, ts)
		if err != nil {
			t.Fatal(err)
		}
		if role != "qa_admin" || !slices.Equal(p.CustomerGrants, []string{"cust-1", "cust-2"}) ||
			!slices.Equal(p.InstanceGrants, []string{"inst-1"}) || p.FocusCustomerID != "" {
			t.Errorf("principal = %q %+v", role, p)
		}
	})

	// A subscription is stored, and the principal is the same with it as
	// without: the statement that loads the caller does not read it.
	// spec: R6-subscription
	t.Run("FocusAndSubscriptions", func(t *testing.T) {
		if err := st.SetFocus(ctx, "qa", "cust-2", ts, ts.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		before, _, err := st.Principal(ctx, "qa", grant, ts.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range []string{"worker.failed", "cust-3", "qa_admin"} {
			if err := st.Subscribe(ctx, "qa", ev, ts); err != nil {
				t.Fatal(err)
			}
		}
		if evs, err := st.Subscriptions(ctx, "qa"); err != nil || len(evs) != 3 {
			t.Fatalf("subscriptions = %v, %v", evs, err)
		}
		p, _, err := st.Principal(ctx, "qa", grant, ts.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if p.FocusCustomerID != "cust-2" {
			t.Errorf("principal = %+v", p)
		}
		if diff := cmp.Diff(before, p); diff != "" {
			t.Errorf("principal changed by subscriptions (-before +after):\n%s", diff)
		}
		p, _, _ = st.Principal(ctx, "qa", grant, ts.Add(2*time.Hour)) // focus expired
		if p.FocusCustomerID != "" {
			t.Errorf("expired focus still applies: %q", p.FocusCustomerID)
		}
		wantCode(t, st.Unsubscribe(ctx, "qa", "other"), platform.ENOTFOUND)
		if err := st.ClearFocus(ctx, "qa"); err != nil {
			t.Fatal(err)
		}
	})

	// spec: R2.6-cascade
	t.Run("CascadeOnCustomerRemoval", func(t *testing.T) {
		if _, err := st.Conn().Exec(ctx, `DELETE FROM customers WHERE id = $1`, "cust-1"); err != nil {
			t.Fatal(err)
		}
		p, _, err := st.Principal(ctx, "qa", grant, ts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.CustomerGrants, []string{"cust-2"}) || len(p.InstanceGrants) != 0 {
			t.Errorf("after removing cust-1: customer grants %v, instance grants %v", p.CustomerGrants, p.InstanceGrants)
		}
		wantCode(t, st.DeleteGrant(ctx, false, "qa", "cust-1"), platform.ENOTFOUND)
		if err := st.DeleteGrant(ctx, false, "qa", "cust-2"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("AuditLog", func(t *testing.T) {
		for i, c := range []string{"cust-2", "", "cust-3"} {
			e := &store.AuditEvent{ID: string(rune('a' + i)), At: ts.Add(time.Duration(i) * time.Second), ActorID: "qa",
				CustomerID: c, Action: "manage_tenant", Resource: "tenants/t", Decision: "denied", Reason: "r", Status: 403, RequestID: "req"}
			if err := st.AppendAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		ids := func(q store.AuditQuery) []string {
			t.Helper()
			es, _, err := st.AuditEvents(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			return keys(es, func(e store.AuditEvent) string { return e.ID })
		}
		if got := ids(store.AuditQuery{Scope: authz.Filter{All: true}}); !slices.Equal(got, []string{"c", "b", "a"}) {
			t.Errorf("unscoped = %v", got)
		}
		if got := ids(store.AuditQuery{Scope: authz.Filter{CustomerIDs: []string{"cust-2"}}}); !slices.Equal(got, []string{"a"}) {
			t.Errorf("scoped to cust-2 = %v", got)
		}
		if got := ids(store.AuditQuery{}); len(got) != 0 {
			t.Errorf("empty scope sees %v", got)
		}
		if got := ids(store.AuditQuery{Scope: authz.Filter{All: true}, Cursor: store.EncodeCursor(ts.Add(2*time.Second).UTC().Format(time.RFC3339Nano), "c"), Limit: 1}); !slices.Equal(got, []string{"b"}) {
			t.Errorf("page after c = %v", got)
		}
	})

	// spec: R5.7-catalog
	t.Run("CatalogTable", func(t *testing.T) {
		entries, err := st.RolePermissions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := authz.NewCatalog(entries); err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(authz.SpecMatrix()) {
			t.Errorf("role_permissions has %d rows, the spec matrix %d", len(entries), len(authz.SpecMatrix()))
		}
	})
}
