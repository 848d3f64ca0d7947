package storetest

import (
	"slices"
	"testing"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testGroups covers groups: their rows, members and managers (users of the
// group's organization only), a user's groups, the directory's list of a
// user's groups, group grants and what removing a group, moving a user and
// removing an internal user take with them.
func testGroups(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "cust-1", "cust-2")
	mustOrg(t, st, "org-admin")
	mustUser(t, st, "ann", "org-cust-1", "ann@one.example")
	mustUser(t, st, "bob", "org-cust-1", "bob@one.example")
	mustUser(t, st, "eve", "org-cust-2", "eve@two.example")
	mustUser(t, st, "am", "org-admin", "am@platform.example")

	mk := func(id, org, name, role, ext string) *platform.Group {
		t.Helper()
		g := &platform.Group{ID: id, OrgID: org, Name: name, Role: role, ExternalID: ext, CreatedAt: ts, UpdatedAt: ts}
		if err := st.CreateGroup(ctx, g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	mk("g-ops", "org-cust-1", "Ops", "admin", "ext-ops")
	mk("g-fin", "org-cust-1", "Finance", "billing", "")
	mk("g-two", "org-cust-2", "Ops", "viewer", "ext-ops") // names and external ids are per organization
	mk("g-emea", "org-admin", "EMEA account managers", "account_manager", "")

	t.Run("Rows", func(t *testing.T) {
		wantCode(t, st.CreateGroup(ctx, &platform.Group{ID: "g-x", OrgID: "org-cust-1", Name: "Ops", CreatedAt: ts, UpdatedAt: ts}), platform.ECONFLICT)
		wantCode(t, st.CreateGroup(ctx, &platform.Group{ID: "g-y", OrgID: "org-cust-1", Name: "Other", ExternalID: "ext-ops", CreatedAt: ts, UpdatedAt: ts}), platform.ECONFLICT)
		// Two groups without an external id do not collide.
		mk("g-a", "org-cust-1", "A", "", "")

		g, err := st.Group(ctx, "g-ops")
		if err != nil || g.Name != "Ops" || g.Role != "admin" || g.OrgID != "org-cust-1" || g.ExternalID != "ext-ops" || !g.CreatedAt.Equal(ts) {
			t.Errorf("group = %+v, %v", g, err)
		}
		_, err = st.Group(ctx, "missing")
		wantCode(t, err, platform.ENOTFOUND)
		if g, err := st.GroupByExternalID(ctx, "org-cust-2", "ext-ops"); err != nil || g.ID != "g-two" {
			t.Errorf("by external id = %+v, %v", g, err)
		}
		_, err = st.GroupByExternalID(ctx, "org-cust-1", "")
		wantCode(t, err, platform.ENOTFOUND)

		page, next, err := st.ListGroups(ctx, "org-cust-1", store.PageQuery{Limit: 2})
		if err != nil || len(page) != 2 || page[0].ID != "g-a" || page[1].ID != "g-fin" || next == "" {
			t.Fatalf("first page = %+v %q, %v", page, next, err)
		}
		page, next, err = st.ListGroups(ctx, "org-cust-1", store.PageQuery{Limit: 2, Cursor: next})
		if err != nil || len(page) != 1 || page[0].ID != "g-ops" || next != "" {
			t.Errorf("second page = %+v %q, %v", page, next, err)
		}

		later := ts.Add(1e9)
		g, err = st.UpdateGroup(ctx, "g-a", func(g *platform.Group) error {
			g.Name, g.Role, g.ExternalID, g.OrgID, g.UpdatedAt = "Auditors", "viewer", "ext-a", "org-cust-2", later
			return nil
		})
		if err != nil || g.Name != "Auditors" {
			t.Fatalf("update = %+v, %v", g, err)
		}
		if g, _ := st.Group(ctx, "g-a"); g.Name != "Auditors" || g.Role != "viewer" || g.ExternalID != "ext-a" || g.OrgID != "org-cust-1" || !g.UpdatedAt.Equal(later) {
			t.Errorf("updated group = %+v (the organization stays)", g)
		}
		_, err = st.UpdateGroup(ctx, "g-a", func(g *platform.Group) error { g.Name = "Finance"; return nil })
		wantCode(t, err, platform.ECONFLICT)
		_, err = st.UpdateGroup(ctx, "missing", func(*platform.Group) error { return nil })
		wantCode(t, err, platform.ENOTFOUND)
	})

	t.Run("Members", func(t *testing.T) {
		for _, u := range []string{"bob", "ann"} {
			if added, err := st.AddGroupMember(ctx, false, "g-ops", u, ts); err != nil || !added {
				t.Fatalf("add %s = %v, %v", u, added, err)
			}
		}
		if added, err := st.AddGroupMember(ctx, false, "g-ops", "ann", ts); err != nil || added {
			t.Errorf("adding twice = %v, %v; want not added, no error", added, err)
		}
		// A group never holds another organization's user.
		_, err := st.AddGroupMember(ctx, false, "g-ops", "eve", ts)
		wantCode(t, err, platform.ENOTFOUND)
		_, err = st.AddGroupMember(ctx, false, "g-ops", "am", ts)
		wantCode(t, err, platform.ENOTFOUND)
		_, err = st.AddGroupMember(ctx, false, "missing", "ann", ts)
		wantCode(t, err, platform.ENOTFOUND)
		if _, err := st.AddGroupMember(ctx, false, "g-fin", "ann", ts); err != nil {
			t.Fatal(err)
		}
		// A manager is kept apart from the members and need not be one.
		if added, err := st.AddGroupMember(ctx, true, "g-fin", "bob", ts); err != nil || !added {
			t.Fatalf("add manager = %v, %v", added, err)
		}
		_, err = st.AddGroupMember(ctx, true, "g-fin", "eve", ts)
		wantCode(t, err, platform.ENOTFOUND)

		ms, next, err := st.GroupMembers(ctx, false, "g-ops", store.PageQuery{Limit: 1})
		if err != nil || len(ms) != 1 || ms[0].UserID != "ann" || ms[0].Email != "ann@one.example" || next == "" {
			t.Fatalf("members page = %+v %q, %v", ms, next, err)
		}
		ms, next, err = st.GroupMembers(ctx, false, "g-ops", store.PageQuery{Cursor: next})
		if err != nil || len(ms) != 1 || ms[0].UserID != "bob" || next != "" {
			t.Errorf("members second page = %+v %q, %v", ms, next, err)
		}
		if ms, _, _ := st.GroupMembers(ctx, true, "g-fin", store.PageQuery{}); len(ms) != 1 || ms[0].UserID != "bob" {
			t.Errorf("managers = %+v", ms)
		}
		if ms, _, _ := st.GroupMembers(ctx, false, "g-fin", store.PageQuery{}); len(ms) != 1 || ms[0].UserID != "ann" {
			t.Errorf("members of g-fin = %+v (the manager is not one)", ms)
		}

		if gs := groupIDs(t)(st.UserGroups(ctx, "ann")); !slices.Equal(gs, []string{"g-fin", "g-ops"}) {
			t.Errorf("ann's groups = %v", gs)
		}
		if gs := groupIDs(t)(st.ManagedGroups(ctx, "bob")); !slices.Equal(gs, []string{"g-fin"}) {
			t.Errorf("bob manages %v", gs)
		}

		wantCode(t, st.RemoveGroupMember(ctx, false, "g-ops", "eve"), platform.ENOTFOUND)
		if err := st.RemoveGroupMember(ctx, false, "g-ops", "bob"); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.RemoveGroupMember(ctx, false, "g-ops", "bob"), platform.ENOTFOUND)
		wantCode(t, st.RemoveGroupMember(ctx, true, "g-fin", "ann"), platform.ENOTFOUND)
	})

	t.Run("SetUserGroups", func(t *testing.T) {
		// ann is in g-fin and g-ops; the directory lists g-ops and g-a, and
		// names a group of another organization and one that is not.
		joined, left, err := st.SetUserGroups(ctx, "ann", []string{"g-ops", "g-a", "g-two", "missing"}, ts)
		if err != nil || !slices.Equal(joined, []string{"g-a"}) || !slices.Equal(left, []string{"g-fin"}) {
			t.Fatalf("set = joined %v left %v, %v", joined, left, err)
		}
		if gs := groupIDs(t)(st.UserGroups(ctx, "ann")); !slices.Equal(gs, []string{"g-a", "g-ops"}) {
			t.Errorf("ann's groups = %v", gs)
		}
		joined, left, err = st.SetUserGroups(ctx, "ann", []string{"g-a", "g-ops"}, ts)
		if err != nil || len(joined) != 0 || len(left) != 0 {
			t.Errorf("set again = joined %v left %v, %v; want no change", joined, left, err)
		}
		joined, left, err = st.SetUserGroups(ctx, "ann", nil, ts)
		if err != nil || len(joined) != 0 || !slices.Equal(left, []string{"g-a", "g-ops"}) {
			t.Errorf("set none = joined %v left %v, %v", joined, left, err)
		}
	})

	t.Run("SyncUserGroups", func(t *testing.T) {
		// bob is in g-fin (not managed); the provider manages g-ops and g-a.
		if _, err := st.AddGroupMember(ctx, false, "g-fin", "bob", ts); err != nil {
			t.Fatal(err)
		}
		joined, left, err := st.SyncUserGroups(ctx, "bob", []string{"g-ops", "g-a", "g-two"}, []string{"g-ops", "g-two"}, ts)
		if err != nil || !slices.Equal(joined, []string{"g-ops"}) || len(left) != 0 {
			t.Fatalf("sync = joined %v left %v, %v (another organization's group is never joined)", joined, left, err)
		}
		joined, left, err = st.SyncUserGroups(ctx, "bob", []string{"g-ops", "g-a"}, []string{"g-a"}, ts)
		if err != nil || !slices.Equal(joined, []string{"g-a"}) || !slices.Equal(left, []string{"g-ops"}) {
			t.Fatalf("sync again = joined %v left %v, %v", joined, left, err)
		}
		if gs := groupIDs(t)(st.UserGroups(ctx, "bob")); !slices.Equal(gs, []string{"g-a", "g-fin"}) {
			t.Errorf("bob's groups = %v (the unmanaged g-fin stays)", gs)
		}
		named, err := st.GroupsNamed(ctx, "org-cust-1", []string{"Finance", "g-a", "Ops"})
		if err != nil || len(named) != 3 {
			t.Errorf("groups named = %+v, %v", named, err)
		}
		if named, _ := st.GroupsNamed(ctx, "org-cust-2", []string{"Finance", "g-a"}); len(named) != 0 {
			t.Errorf("another organization's groups by name or id = %+v", named)
		}
		for _, g := range []string{"g-a", "g-fin"} {
			if err := st.RemoveGroupMember(ctx, false, g, "bob"); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("GroupGrants", func(t *testing.T) {
		if err := st.PutGrant(ctx, false, &store.Grant{GranteeType: store.GranteeGroup, GranteeID: "g-emea", TargetID: "cust-2", GrantedBy: "admin", GrantedAt: ts}); err != nil {
			t.Fatal(err)
		}
		if err := st.PutGrant(ctx, false, &store.Grant{GranteeType: store.GranteeGroup, GranteeID: "g-emea", TargetID: "cust-1", GrantedAt: ts}); err != nil {
			t.Fatal(err)
		}
		gs, err := st.GroupGrants(ctx, false, "g-emea")
		if err != nil || len(gs) != 2 || gs[0].TargetID != "cust-1" || gs[1].GranteeType != "group" || gs[1].GrantedBy != "admin" {
			t.Fatalf("group grants = %+v, %v", gs, err)
		}
		// A user's grant of the same id is another grant.
		wantCode(t, st.DeleteGrant(ctx, false, "g-emea", "cust-1"), platform.ENOTFOUND)
		if err := st.DeleteGroupGrant(ctx, false, "g-emea", "cust-1"); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.DeleteGroupGrant(ctx, false, "g-emea", "cust-1"), platform.ENOTFOUND)
	})

	// spec: R2.6-resolver
	t.Run("Principal", func(t *testing.T) {
		// ann (no console role) is in g-ops (admin) and g-fin (billing);
		// am's group g-emea (account_manager) is granted cust-1 and cust-2,
		// am itself cust-2.
		for _, g := range []string{"g-ops", "g-fin"} {
			if _, err := st.AddGroupMember(ctx, false, g, "ann", ts); err != nil {
				t.Fatal(err)
			}
		}
		p, role, err := st.Principal(ctx, "ann", MustGrant(t, st, "ann"), ts)
		if err != nil || role != "" || p.CustomerID != "cust-1" || !slices.Equal(p.GroupRoles, []authz.Role{authz.Admin, authz.Billing}) {
			t.Errorf("ann's principal = %q %+v, %v", role, p, err)
		}
		if _, err := st.AddGroupMember(ctx, false, "g-emea", "am", ts); err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"cust-1", "cust-2"} {
			if err := st.PutGrant(ctx, false, &store.Grant{GranteeType: store.GranteeGroup, GranteeID: "g-emea", TargetID: c, GrantedAt: ts}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.PutGrant(ctx, false, &store.Grant{GranteeID: "am", TargetID: "cust-2", GrantedAt: ts}); err != nil {
			t.Fatal(err)
		}
		p, _, err = st.Principal(ctx, "am", MustGrant(t, st, "am"), ts)
		if err != nil || !slices.Equal(p.CustomerGrants, []string{"cust-1", "cust-2"}) || !slices.Equal(p.GroupRoles, []authz.Role{authz.AccountManager}) {
			t.Errorf("am's principal = %+v, %v", p, err)
		}
		// An owner's role is owner whatever its groups.
		if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "ann", Role: "owner", CustomerID: "cust-1", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		if p, role, err := st.Principal(ctx, "ann", MustGrant(t, st, "ann"), ts); err != nil || role != "owner" || len(p.GroupRoles) != 0 {
			t.Errorf("owner's principal = %q %+v, %v", role, p, err)
		}
		if err := st.RemoveGroupMember(ctx, false, "g-emea", "am"); err != nil {
			t.Fatal(err)
		}
		// Leaving the group takes its role and grants at the next load.
		if p, _, err := st.Principal(ctx, "am", MustGrant(t, st, "am"), ts); err != nil || !slices.Equal(p.CustomerGrants, []string{"cust-2"}) || len(p.GroupRoles) != 0 {
			t.Errorf("am's principal after leaving = %+v, %v", p, err)
		}
	})

	t.Run("Removal", func(t *testing.T) {
		// Removing a group removes its members, managers and grants.
		if _, err := st.AddGroupMember(ctx, false, "g-emea", "am", ts); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteGroup(ctx, "g-emea"); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.DeleteGroup(ctx, "g-emea"), platform.ENOTFOUND)
		if gs, err := st.GroupGrants(ctx, false, "g-emea"); err != nil || len(gs) != 0 {
			t.Errorf("grants of a removed group = %+v, %v", gs, err)
		}
		if gs := groupIDs(t)(st.UserGroups(ctx, "am")); len(gs) != 0 {
			t.Errorf("am's groups after removal = %v", gs)
		}

		// An internal user removed leaves its groups.
		mk("g-int", "org-admin", "Readers", "reader", "")
		if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "am", Role: "account_manager", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddGroupMember(ctx, false, "g-int", "am", ts); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddGroupMember(ctx, true, "g-int", "am", ts); err != nil {
			t.Fatal(err)
		}
		if err := st.RemoveInternalUser(ctx, "am", ts); err != nil {
			t.Fatal(err)
		}
		if gs := groupIDs(t)(st.UserGroups(ctx, "am")); len(gs) != 0 {
			t.Errorf("removed internal user's groups = %v", gs)
		}
		if gs := groupIDs(t)(st.ManagedGroups(ctx, "am")); len(gs) != 0 {
			t.Errorf("removed internal user manages %v", gs)
		}

		// A user moved to another organization leaves the groups of the first.
		if _, err := st.AddGroupMember(ctx, false, "g-fin", "bob", ts); err != nil {
			t.Fatal(err)
		}
		if err := st.MoveUser(ctx, "bob", "org-cust-2", "cust-2", ts); err != nil {
			t.Fatal(err)
		}
		if gs := groupIDs(t)(st.UserGroups(ctx, "bob")); len(gs) != 0 {
			t.Errorf("moved user's groups = %v", gs)
		}
		if gs := groupIDs(t)(st.ManagedGroups(ctx, "bob")); len(gs) != 0 {
			t.Errorf("moved user manages %v", gs)
		}
	})
}

// groupIDs returns the ids of a list of groups, failing the test on error.
func groupIDs(t *testing.T) func([]platform.Group, error) []string {
	return func(gs []platform.Group, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		return ids
	}
}
