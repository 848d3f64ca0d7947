package graph_test

import (
	"slices"
	"testing"
)

// The owner's protection holds through GraphQL as through REST (one service
// method): an account manager of the owner's customer may suspend its users
// but not the owner (FORBIDDEN, nothing changes); platform_admin may.
//
// spec: R5.7-matrix
func TestOwnerProtectedThroughGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const suspend = `mutation($id: ID!) { suspendUser(id: $id) { id status } }`
	r := e.gql(acctMgr, suspend, map[string]any{"id": ownerA})
	if !slices.Equal(r.codes(), []string{"FORBIDDEN"}) || r.Data["suspendUser"] != nil {
		t.Fatalf("account manager suspending the owner = %v %s", r.codes(), r.Raw)
	}
	if me := e.gql(ownerA, `{ me { role } }`, nil); len(me.Errors) > 0 {
		t.Fatalf("the owner after the refused suspension: %s", me.Raw)
	}
	if r := e.gql(acctMgr, suspend, map[string]any{"id": viewerA}); len(r.Errors) > 0 {
		t.Fatalf("account manager suspending a viewer: %s", r.Raw)
	}
	r = e.gql(platAdm, suspend, map[string]any{"id": ownerA})
	if len(r.Errors) > 0 || r.Data["suspendUser"].(map[string]any)["status"] != "suspended" {
		t.Fatalf("platform_admin suspending the owner: %s", r.Raw)
	}
	if me := e.gql(ownerA, `{ me { role } }`, nil); me.Status != 401 {
		t.Fatalf("the suspended owner's next request = %d %s, want 401", me.Status, me.Raw)
	}
}
