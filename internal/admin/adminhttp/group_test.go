package adminhttp

import (
	"fmt"
	"testing"

	"github.com/platform/platform/internal/authz"
)

// status is the status of a request, failing the test when it is not want.
func (e *env) wantStatus(t *testing.T, want int, caller, method, path string, body any) response {
	t.Helper()
	r := e.do(caller, method, path, body)
	if r.Status != want {
		t.Errorf("%s %s = %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return r
}

// A user's permissions are its own role's and its groups' together, and a
// change of membership takes effect at the user's next request: a member
// put in a group bound to admin manages the customer's users at once, and
// no longer once it leaves; its own role stays member throughout. Every
// write shows in the audit log.
//
// spec: R5.7-matrix
func TestGroupRoleFollowsMembership(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	admin := e.mustUser(authz.Admin, cust)
	member := e.mustUser(0, cust)
	users := "/users?customerId=" + cust

	e.wantStatus(t, 403, member, "GET", users, nil)
	g := e.wantStatus(t, 201, admin, "POST", "/customers/"+cust+"/groups", map[string]any{"name": "Support", "role": "admin"}).json(t)
	gid := fmt.Sprint(g["id"])
	if g["customerId"] != cust || g["role"] != "admin" || g["name"] != "Support" {
		t.Fatalf("group = %v", g)
	}
	e.wantStatus(t, 409, admin, "POST", "/customers/"+cust+"/groups", map[string]any{"name": "Support"})
	e.wantStatus(t, 400, admin, "POST", "/customers/"+cust+"/groups", map[string]any{"name": " "})

	e.wantStatus(t, 200, admin, "PUT", "/groups/"+gid+"/members/"+member, nil)
	e.wantStatus(t, 200, member, "GET", users, nil)
	perms := e.wantStatus(t, 200, member, "GET", "/me/permissions", nil).json(t)
	if perms["role"] != "member" {
		t.Errorf("own role = %v, want member", perms["role"])
	}
	list := e.wantStatus(t, 200, admin, "GET", "/groups/"+gid+"/members", nil).json(t)
	if items, _ := list["items"].([]any); len(items) != 1 || items[0].(map[string]any)["userId"] != member {
		t.Errorf("members = %v", list)
	}

	// Rebinding the group to viewer takes the users list away again.
	e.wantStatus(t, 200, admin, "PATCH", "/groups/"+gid, map[string]any{"role": "viewer"})
	e.wantStatus(t, 403, member, "GET", users, nil)
	e.wantStatus(t, 200, admin, "PATCH", "/groups/"+gid, map[string]any{"role": "admin"})
	e.wantStatus(t, 204, admin, "DELETE", "/groups/"+gid+"/members/"+member, nil)
	e.wantStatus(t, 403, member, "GET", users, nil)
	e.wantStatus(t, 404, admin, "DELETE", "/groups/"+gid+"/members/"+member, nil)

	e.wantStatus(t, 200, admin, "PUT", "/groups/"+gid+"/members/"+member, nil)
	e.wantStatus(t, 204, admin, "DELETE", "/groups/"+gid, nil)
	e.wantStatus(t, 403, member, "GET", users, nil)

	events := e.wantStatus(t, 200, admin, "GET", "/audit-log?limit=20", nil).json(t)
	for _, op := range []string{"group.create", "group.member_add", "group.update", "group.member_remove", "group.delete"} {
		if !containsOperation(events, op) {
			t.Errorf("no audit event of %s: %v", op, events)
		}
	}
}

// containsOperation reports whether an audit-log page has an event of op.
func containsOperation(page map[string]any, op string) bool {
	items, _ := page["items"].([]any)
	for _, it := range items {
		if m, _ := it.(map[string]any); fmt.Sprint(m["operation"]) == op {
			return true
		}
	}
	return false
}

// A caller binds to a group only a role whose every permission it holds
// itself, never owner, and only of the group's kind: a QA admin (who
// manages the users of its customers) may not make a group of admins, a
// customer's admin may not bind owner or an internal role, and the refusal
// changes nothing.
//
// attack: group-role-beyond-granter
func TestAttackGroupRoleBeyondGranter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	qa := e.mustUser(authz.QAAdmin, "")
	e.mustGrant(qa, false, cust)
	admin := e.mustUser(authz.Admin, cust)
	create := "/customers/" + cust + "/groups"

	e.wantStatus(t, 403, qa, "POST", create, map[string]any{"name": "Admins", "role": "admin"})
	e.wantStatus(t, 403, qa, "POST", create, map[string]any{"name": "Billing", "role": "billing"})
	g := fmt.Sprint(e.wantStatus(t, 201, qa, "POST", create, map[string]any{"name": "Viewers", "role": "viewer"}).json(t)["id"])
	e.wantStatus(t, 403, qa, "PATCH", "/groups/"+g, map[string]any{"role": "admin"})
	// a group of admins the QA admin may not grant is one it may not take away either
	ga := fmt.Sprint(e.wantStatus(t, 201, admin, "POST", create, map[string]any{"name": "Admins", "role": "admin"}).json(t)["id"])
	e.wantStatus(t, 403, qa, "PATCH", "/groups/"+ga, map[string]any{"role": "viewer"})
	e.wantStatus(t, 403, qa, "DELETE", "/groups/"+ga, nil)

	for _, role := range []string{"owner", "platform_admin", "account_manager", "nobody"} {
		e.wantStatus(t, 400, admin, "POST", create, map[string]any{"name": "G " + role, "role": role})
		e.wantStatus(t, 400, admin, "PATCH", "/groups/"+g, map[string]any{"role": role})
	}
	// internal groups take internal roles only
	pa := e.mustUser(authz.PlatformAdmin, "")
	e.wantStatus(t, 400, pa, "POST", "/internal-groups", map[string]any{"name": "Owners", "role": "owner"})
	e.wantStatus(t, 400, pa, "POST", "/internal-groups", map[string]any{"name": "Admins", "role": "admin"})

	if got := e.wantStatus(t, 200, admin, "GET", "/groups/"+g, nil).json(t); got["role"] != "viewer" {
		t.Errorf("refused changes changed the group: %v", got)
	}
	if got := e.wantStatus(t, 200, admin, "GET", "/groups/"+ga, nil).json(t); got["role"] != "admin" {
		t.Errorf("refused changes changed the group: %v", got)
	}
}

// No group makes or unmakes a customer's owner: owner cannot be bound; an
// owner in a group bound to viewer keeps every owner permission and leaving
// it changes nothing; an admin by a group may not suspend the owner or
// transfer ownership.
//
// attack: group-owner
func TestAttackGroupOwner(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	owner := e.mustUser(authz.Owner, cust)
	admin := e.mustUser(authz.Admin, cust)
	member := e.mustUser(0, cust)
	create := "/customers/" + cust + "/groups"

	e.wantStatus(t, 400, admin, "POST", create, map[string]any{"name": "Owners", "role": "owner"})
	e.wantStatus(t, 400, owner, "POST", create, map[string]any{"name": "Owners", "role": "owner"})

	viewers := fmt.Sprint(e.wantStatus(t, 201, owner, "POST", create, map[string]any{"name": "Viewers", "role": "viewer"}).json(t)["id"])
	before := e.wantStatus(t, 200, owner, "GET", "/me/permissions", nil).Body
	e.wantStatus(t, 200, admin, "PUT", "/groups/"+viewers+"/members/"+owner, nil)
	if after := e.wantStatus(t, 200, owner, "GET", "/me/permissions", nil).Body; string(after) != string(before) {
		t.Errorf("a group changed the owner's permissions:\n%s\n%s", before, after)
	}
	e.wantStatus(t, 204, admin, "DELETE", "/groups/"+viewers+"/members/"+owner, nil)
	if after := e.wantStatus(t, 200, owner, "GET", "/me/permissions", nil).Body; string(after) != string(before) {
		t.Errorf("leaving a group changed the owner's permissions:\n%s\n%s", before, after)
	}

	admins := fmt.Sprint(e.wantStatus(t, 201, owner, "POST", create, map[string]any{"name": "Admins", "role": "admin"}).json(t)["id"])
	e.wantStatus(t, 200, owner, "PUT", "/groups/"+admins+"/members/"+member, nil)
	e.wantStatus(t, 403, member, "POST", "/users/"+owner+"/suspend", nil)
	e.wantStatus(t, 403, member, "DELETE", "/users/"+owner, nil)
	e.wantStatus(t, 403, member, "POST", "/customers/"+cust+"/transfer-ownership", map[string]any{"userId": member})
	if perms := e.wantStatus(t, 200, owner, "GET", "/me/permissions", nil).json(t); perms["role"] != "owner" {
		t.Errorf("owner's role = %v", perms["role"])
	}
}

// A group's manager reads, adds and removes the group's members and does
// nothing else: not the group's name, role or managers, not another
// group's members, not the customer's users; a manager need not be a
// member.
//
// attack: group-manager-beyond-membership
func TestAttackGroupManagerBeyondMembership(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cust := e.mustCustomer()
	mgr := e.mustUser(0, cust) // a member by default
	u, v := e.mustUser(0, cust), e.mustUser(0, cust)
	g, other := e.mustGroup(cust, "admin"), e.mustGroup(cust, "viewer")
	e.mustGroupMember(true, g, mgr)

	e.wantStatus(t, 200, mgr, "PUT", "/groups/"+g+"/members/"+u, nil)
	e.wantStatus(t, 200, mgr, "GET", "/groups/"+g+"/members", nil)
	e.wantStatus(t, 204, mgr, "DELETE", "/groups/"+g+"/members/"+u, nil)

	e.wantStatus(t, 403, mgr, "GET", "/groups/"+g, nil)
	e.wantStatus(t, 403, mgr, "PATCH", "/groups/"+g, map[string]any{"name": "Mine"})
	e.wantStatus(t, 403, mgr, "PATCH", "/groups/"+g, map[string]any{"role": "viewer"})
	e.wantStatus(t, 403, mgr, "DELETE", "/groups/"+g, nil)
	e.wantStatus(t, 403, mgr, "PUT", "/groups/"+g+"/managers/"+v, nil)
	e.wantStatus(t, 403, mgr, "GET", "/groups/"+g+"/managers", nil)
	e.wantStatus(t, 403, mgr, "PUT", "/groups/"+other+"/members/"+v, nil)
	e.wantStatus(t, 403, mgr, "GET", "/groups/"+other+"/members", nil)
	e.wantStatus(t, 403, mgr, "GET", "/users?customerId="+cust, nil)
	e.wantStatus(t, 403, mgr, "PATCH", "/users/"+v, map[string]any{"role": "admin"})
	e.wantStatus(t, 403, mgr, "POST", "/customers/"+cust+"/groups", map[string]any{"name": "New"})
	// Managing a group bound to admin is not being an admin: the manager
	// may not put itself in (it is a member of its customer, so it may), but
	// membership is all it changes.
	if perms := e.wantStatus(t, 200, mgr, "GET", "/me/permissions", nil).json(t); perms["role"] != "member" {
		t.Errorf("manager's role = %v", perms["role"])
	}
}

// A group holds only users of its own organization: a customer's admin
// cannot put another customer's user (or an internal user) in its group,
// nor reach another customer's group; an internal group takes no
// customer's user.
//
// attack: group-cross-customer-member
func TestAttackGroupCrossCustomerMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.mustCustomer(), e.mustCustomer()
	adminA := e.mustUser(authz.Admin, a)
	userB := e.mustUser(authz.Viewer, b)
	staff := e.mustUser(authz.Reader, "")
	ga, gb := e.mustGroup(a, "admin"), e.mustGroup(b, "viewer")

	e.wantStatus(t, 404, adminA, "PUT", "/groups/"+ga+"/members/"+userB, nil)
	e.wantStatus(t, 404, adminA, "PUT", "/groups/"+ga+"/managers/"+userB, nil)
	e.wantStatus(t, 404, adminA, "PUT", "/groups/"+ga+"/members/"+staff, nil)
	e.wantStatus(t, 404, adminA, "PUT", "/groups/"+gb+"/members/"+userB, nil)
	e.wantStatus(t, 404, adminA, "GET", "/groups/"+gb, nil)
	e.wantStatus(t, 404, adminA, "GET", "/customers/"+b+"/groups", nil)
	// the customer's group is not an internal group, and the reverse
	pa := e.mustUser(authz.PlatformAdmin, "")
	e.wantStatus(t, 404, pa, "GET", "/internal-groups/"+ga, nil)
	gi := e.mustGroup("", "reader")
	e.wantStatus(t, 404, pa, "GET", "/groups/"+gi, nil)
	e.wantStatus(t, 404, pa, "PUT", "/internal-groups/"+gi+"/members/"+userB, nil)

	// userB holds nothing of customer A's group
	if users := e.do(userB, "GET", "/users?customerId="+a, nil); users.Status == 200 {
		t.Errorf("the other customer's user reached customer A's users: %s", users.Body)
	}
	if items, _ := e.wantStatus(t, 200, adminA, "GET", "/groups/"+ga+"/members", nil).json(t)["items"].([]any); len(items) != 0 {
		t.Errorf("members of A's group = %v", items)
	}
}

// An internal group's grant gives its members the customer by membership
// (account_manager by a group reaches the granted customer and no other),
// and no granter grants a customer outside its own reach: a platform_admin
// looking through focus mode at one customer gets 404 for another, a reader
// 403; a refused grant grants nothing.
//
// attack: group-grant-outside-power
func TestAttackGroupGrantOutsidePower(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.mustCustomer(), e.mustCustomer()
	pa := e.mustUser(authz.PlatformAdmin, "")
	am := e.mustUser(0, "") // an internal user whose role is its group's
	g := fmt.Sprint(e.wantStatus(t, 201, pa, "POST", "/internal-groups", map[string]any{"name": "EMEA account managers", "role": "account_manager"}).json(t)["id"])
	e.wantStatus(t, 200, pa, "PUT", "/internal-groups/"+g+"/members/"+am, nil)
	e.wantStatus(t, 201, pa, "POST", "/internal-groups/"+g+"/grants", map[string]any{"customerId": a})

	e.wantStatus(t, 200, am, "GET", "/customers/"+a, nil)
	e.wantStatus(t, 403, am, "GET", "/customers/"+b, nil)
	perms := e.wantStatus(t, 200, am, "GET", "/me/permissions", nil).json(t)
	if sc, _ := perms["scope"].(map[string]any); fmt.Sprint(sc["customerIds"]) != "["+a+"]" || perms["role"] != "account_manager" {
		t.Errorf("permissions through the group = %v", perms)
	}

	focused := e.mustUser(authz.PlatformAdmin, "")
	e.mustFocus(focused, a)
	e.wantStatus(t, 404, focused, "POST", "/internal-groups/"+g+"/grants", map[string]any{"customerId": b})
	reader := e.mustUser(authz.Reader, "")
	e.wantStatus(t, 403, reader, "POST", "/internal-groups/"+g+"/grants", map[string]any{"customerId": b})
	e.wantStatus(t, 403, am, "POST", "/internal-groups/"+g+"/grants", map[string]any{"customerId": b})
	e.wantStatus(t, 403, am, "GET", "/customers/"+b, nil)

	grants := e.wantStatus(t, 200, pa, "GET", "/internal-groups/"+g+"/grants", nil).json(t)
	if items, _ := grants["items"].([]any); len(items) != 1 {
		t.Errorf("grants = %v", grants)
	}
	// Leaving the group takes the customer away at the next request.
	e.wantStatus(t, 204, pa, "DELETE", "/internal-groups/"+g+"/members/"+am, nil)
	if r := e.do(am, "GET", "/customers/"+a, nil); r.Status == 200 {
		t.Errorf("a former member still reaches the group's customer")
	}
}
