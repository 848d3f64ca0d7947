package authz

import "testing"

// A user holds, for each action, the most any of its own role and its
// groups' roles holds: every cell of the matrix for a member whose group
// binds a role is the better of the two roles' cells.
//
// spec: R5.7-matrix
func TestDecideGroupRolesUnion(t *testing.T) {
	t.Parallel()
	c := MustSpecCatalog(t)
	pairs := [][2]Role{{Member, Admin}, {Viewer, Billing}, {Reader, FinanceAdmin}, {InfraOps, ComplianceAdmin}}
	for _, pr := range pairs {
		for _, a := range Actions() {
			for _, write := range []bool{false, true} {
				own, grp := decide(c, inScope(pr[0]), a, inC1, write), decide(c, inScope(pr[1]), a, inC1, write)
				p := inScope(pr[0])
				p.GroupRoles = []Role{pr[1]}
				got := decide(c, p, a, inC1, write)
				if got.Allowed != (own.Allowed || grp.Allowed) {
					t.Errorf("%s+%s %s write=%v: %+v; own %+v, group %+v", pr[0], pr[1], a, write, got, own, grp)
				}
				if got.Allowed && got.Access != max(own.Access, grp.Access) {
					t.Errorf("%s+%s %s: access %s, want the better of %s and %s", pr[0], pr[1], a, got.Access, own.Access, grp.Access)
				}
				if want := max(c.Access(pr[0], a), c.Access(pr[1], a)); c.AccessOf(&p, a) != want {
					t.Errorf("%s+%s %s: AccessOf = %s, want %s", pr[0], pr[1], a, c.AccessOf(&p, a), want)
				}
			}
		}
	}
}

// A scoped role from a group makes the whole principal scoped by its
// grants: an unscoped own role lends the group's role no reach beyond the
// granted customers, and its own reads narrow to them too.
//
// spec: R5.7-strict
func TestDecideGroupScopedRole(t *testing.T) {
	t.Parallel()
	c := MustSpecCatalog(t)
	p := Principal{UserID: "u1", Role: Reader, GroupRoles: []Role{AccountManager}, CustomerGrants: []string{"c1"}}
	sc := ResolveScope(p)
	if sc.Mode != Strict || !sc.HasCustomer("c1") || sc.HasCustomer("c2") {
		t.Fatalf("scope = %+v, want strict on c1", sc)
	}
	for _, a := range Actions() {
		if c.AccessOf(&p, a) == AccessNone {
			continue
		}
		if d := c.Decide(&p, &sc, a, Resource{CustomerID: "c2"}, false); d.Allowed {
			t.Errorf("%s on an ungranted customer: %+v", a, d)
		}
	}
	// Without a group, the reader is unscoped.
	if sc := ResolveScope(Principal{UserID: "u1", Role: Reader}); sc.Mode != Unscoped {
		t.Errorf("reader's scope = %+v", sc)
	}
}

// Owner protection does not move to a group's role: a resource that is a
// customer's owner account stays platform_admin's alone, and transferring
// ownership stays closed to every portal role but owner.
//
// spec: R4.6-owner-transfer
func TestDecideGroupRolesKeepOwnerRules(t *testing.T) {
	t.Parallel()
	c := permissive()
	p := Principal{UserID: "u1", Role: Member, CustomerID: "c1", GroupRoles: []Role{Admin, Billing, Viewer}}
	for _, a := range Actions() {
		if d := decide(c, p, a, Resource{CustomerID: "c1", Owner: true}, true); d.Allowed {
			t.Errorf("%s on the owner account through a group: %+v", a, d)
		}
	}
	if d := decide(c, p, TransferOwnership, Resource{CustomerID: "c1"}, true); d.Allowed {
		t.Errorf("transfer through a group: %+v", d)
	}
}
