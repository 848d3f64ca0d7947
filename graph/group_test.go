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

// A provider's just-in-time groups through GraphQL (D-jit-groups): the
// mapping given as entries, a group by its name or id, is answered sorted
// by value; a patch replaces it and an empty claim turns it off; a
// value given twice, a mapping without a claim and a group of another
// customer are refused, leaving the provider as it was.
//
// spec: D-jit-groups
func TestJITGroupsThroughGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.gql(ownerA, `mutation($c: ID!) { createGroup(customerId: $c, input: {name: "Engineers", role: "viewer"}) { id } }`,
		map[string]any{"c": custAcme})
	if len(r.Errors) > 0 {
		t.Fatalf("createGroup: %s", r.Raw)
	}
	g := r.Data["createGroup"].(map[string]any)["id"].(string)
	const fields = `id groupsClaim groupMapping { value group }`
	r = e.gql(ownerA, `mutation($c: ID!) { createIdentityProvider(customerId: $c, input: {name: "Entra", issuer: "https://login.acme.example",
		clientId: "abc", clientSecret: "s3cret", groupsClaim: "groups", groupMapping: [{value: "eng", group: "Engineers"}]}) { `+fields+` } }`,
		map[string]any{"c": custAcme})
	if len(r.Errors) > 0 {
		t.Fatalf("createIdentityProvider: %s", r.Raw)
	}
	p := r.Data["createIdentityProvider"].(map[string]any)
	m := p["groupMapping"].([]any)
	if p["groupsClaim"] != "groups" || len(m) != 1 || m[0].(map[string]any)["value"] != "eng" || m[0].(map[string]any)["group"] != "Engineers" {
		t.Fatalf("provider = %v", p)
	}
	id := p["id"].(string)
	const patch = `mutation($id: ID!, $in: IdentityProviderPatch!) { updateIdentityProvider(id: $id, input: $in) { ` + fields + ` } }`
	for name, in := range map[string]map[string]any{
		"a value twice":             {"groupMapping": []any{map[string]any{"value": "x", "group": g}, map[string]any{"value": "x", "group": g}}},
		"a mapping without a claim": {"groupsClaim": "", "groupMapping": []any{map[string]any{"value": "x", "group": g}}},
		"another customer's group":  {"groupMapping": []any{map[string]any{"value": "x", "group": "no-such-group"}}},
		"a claim that is no name":   {"groupsClaim": "groups; drop"},
	} {
		if r := e.gql(ownerA, patch, map[string]any{"id": id, "in": in}); len(r.Errors) == 0 {
			t.Errorf("%s: accepted %s", name, r.Raw)
		}
	}
	r = e.gql(ownerA, patch, map[string]any{"id": id, "in": map[string]any{"groupMapping": []any{
		map[string]any{"value": "z", "group": g}, map[string]any{"value": "a", "group": g}}}})
	if len(r.Errors) > 0 {
		t.Fatalf("replace: %s", r.Raw)
	}
	m = r.Data["updateIdentityProvider"].(map[string]any)["groupMapping"].([]any)
	if len(m) != 2 || m[0].(map[string]any)["value"] != "a" || m[1].(map[string]any)["value"] != "z" {
		t.Fatalf("replaced mapping = %v", m)
	}
	r = e.gql(ownerA, patch, map[string]any{"id": id, "in": map[string]any{"groupsClaim": "", "groupMapping": []any{}}})
	if len(r.Errors) > 0 {
		t.Fatalf("off: %s", r.Raw)
	}
	if p := r.Data["updateIdentityProvider"].(map[string]any); p["groupsClaim"] != "" || len(p["groupMapping"].([]any)) != 0 {
		t.Fatalf("turned off = %v", p)
	}
}
