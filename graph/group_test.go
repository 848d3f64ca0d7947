package graph_test

import (
	"slices"
	"testing"
)

// Groups through GraphQL answer as through REST (one service method each):
// the owner makes a group of admins and puts a member in it, who then reads
// the customer's users at its next request; the member made manager of a
// group adds and removes its members and is refused everything else; owner
// is never bound; another customer's user is no member.
//
// spec: R5.7-matrix
func TestGroupsThroughGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const users = `query($c: ID) { users(customerId: $c) { items { id } } }`
	if r := e.gql(memberA, users, map[string]any{"c": custAcme}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Fatalf("member reading users before = %v %s", r.codes(), r.Raw)
	}
	r := e.gql(ownerA, `mutation($c: ID!) { createGroup(customerId: $c, input: {name: "Admins", role: "admin"}) { id customerId role } }`,
		map[string]any{"c": custAcme})
	if len(r.Errors) > 0 {
		t.Fatalf("createGroup: %s", r.Raw)
	}
	g := r.Data["createGroup"].(map[string]any)["id"].(string)
	const add = `mutation($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }`
	if r := e.gql(ownerA, add, map[string]any{"g": g, "u": memberA}); len(r.Errors) > 0 {
		t.Fatalf("addGroupMember: %s", r.Raw)
	}
	if r := e.gql(memberA, users, map[string]any{"c": custAcme}); len(r.Errors) > 0 {
		t.Fatalf("member in a group of admins reading users: %s", r.Raw)
	}
	if r := e.gql(ownerA, add, map[string]any{"g": g, "u": ownerG}); !slices.Equal(r.codes(), []string{"NOT_FOUND"}) {
		t.Errorf("another customer's user in the group = %v %s", r.codes(), r.Raw)
	}
	r = e.gql(ownerA, `mutation($c: ID!) { createGroup(customerId: $c, input: {name: "Owners", role: "owner"}) { id } }`,
		map[string]any{"c": custAcme})
	if !slices.Equal(r.codes(), []string{"BAD_USER_INPUT"}) && !slices.Equal(r.codes(), []string{"INVALID"}) {
		t.Errorf("binding owner = %v %s", r.codes(), r.Raw)
	}

	// A manager of a group of viewers: membership and nothing else.
	r = e.gql(ownerA, `mutation($c: ID!) { createGroup(customerId: $c, input: {name: "Viewers", role: "viewer"}) { id } }`,
		map[string]any{"c": custAcme})
	v := r.Data["createGroup"].(map[string]any)["id"].(string)
	if r := e.gql(ownerA, `mutation($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }`,
		map[string]any{"g": v, "u": billingA}); len(r.Errors) > 0 {
		t.Fatalf("addGroupManager: %s", r.Raw)
	}
	if r := e.gql(billingA, add, map[string]any{"g": v, "u": viewerA}); len(r.Errors) > 0 {
		t.Fatalf("manager adding a member: %s", r.Raw)
	}
	if r := e.gql(billingA, `query($g: ID!) { groupMembers(groupId: $g) { items { userId } } }`, map[string]any{"g": v}); len(r.Errors) > 0 {
		t.Fatalf("manager reading members: %s", r.Raw)
	}
	for _, q := range []string{
		`mutation($g: ID!) { updateGroup(id: $g, input: {role: "admin"}) { id } }`,
		`mutation($g: ID!) { deleteGroup(id: $g) }`,
		`query($g: ID!) { group(id: $g) { id } }`,
		`query($g: ID!) { groupManagers(groupId: $g) { items { userId } } }`,
	} {
		if r := e.gql(billingA, q, map[string]any{"g": v}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
			t.Errorf("manager: %s = %v %s", q, r.codes(), r.Raw)
		}
	}
	if r := e.gql(billingA, add, map[string]any{"g": g, "u": viewerA}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Errorf("manager adding to another group = %v %s", r.codes(), r.Raw)
	}
	if r := e.gql(billingA, `mutation($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }`,
		map[string]any{"g": v, "u": viewerA}); len(r.Errors) > 0 {
		t.Fatalf("manager removing a member: %s", r.Raw)
	}
}
