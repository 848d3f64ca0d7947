package graph_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestOverview: the overview's counts are what the caller's lists hold,
// scoped the same way: all for platform_admin, the granted customer's for
// an account manager, the own customer's for a portal role; a count whose
// list the role may not read is null (a viewer's and an infrastructure
// role's users; infra_ops reads tenants, for their migrations), and the
// pending and locked users are the lists' invited and locked ones. The
// attacker is a scoped or portal role counting what lies outside its
// scope (other customers' tenants and users, their locked accounts).
//
// spec: R5.7-and
// attack: overview-counts-outside-scope
func TestOverview(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// one locked user of Acme, so the count is not zero by accident
	if _, err := e.st.RecordLoginFailure(context.Background(), memberA, 1, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	const q = `{ overview { customers tenants users pendingInvitations lockedUsers } }`
	count := func(user, list string) any {
		got := e.gql(user, `{ `+list+`(first: 1000) { items { id } } }`, nil)
		if len(got.Errors) > 0 {
			return nil
		}
		return float64(len(dig(got.Data, list, "items").([]any)))
	}
	status := func(user, want string) any {
		got := e.gql(user, `{ users(first: 1000) { items { status } } }`, nil)
		if len(got.Errors) > 0 {
			return nil
		}
		n := 0
		for _, u := range dig(got.Data, "users", "items").([]any) {
			if u.(map[string]any)["status"] == want {
				n++
			}
		}
		return float64(n)
	}
	for _, tc := range []struct {
		user              string
		customers, users  float64
		noTenants, noUser bool
	}{
		{user: platAdm, customers: 2}, {user: acctMgr, customers: 1}, {user: ownerA, customers: 1},
		{user: viewerA, customers: 1, noUser: true}, {user: infraOps, customers: 2, noUser: true},
	} {
		t.Run(tc.user, func(t *testing.T) {
			got := e.gql(tc.user, q, nil)
			if len(got.Errors) > 0 {
				t.Fatalf("errors: %s", got.Raw)
			}
			o := func(k string) any { return dig(got.Data, "overview", k) }
			if o("customers") != tc.customers || o("customers") != count(tc.user, "customers") {
				t.Errorf("customers %v, list %v, want %v", o("customers"), count(tc.user, "customers"), tc.customers)
			}
			if o("tenants") != count(tc.user, "tenants") || (o("tenants") == nil) != tc.noTenants {
				t.Errorf("tenants %v, list %v", o("tenants"), count(tc.user, "tenants"))
			}
			if o("users") != count(tc.user, "users") || (o("users") == nil) != tc.noUser {
				t.Errorf("users %v, list %v", o("users"), count(tc.user, "users"))
			}
			if o("pendingInvitations") != status(tc.user, "invited") || o("lockedUsers") != status(tc.user, "locked") {
				t.Errorf("pending %v locked %v, lists %v %v", o("pendingInvitations"), o("lockedUsers"), status(tc.user, "invited"), status(tc.user, "locked"))
			}
			if !tc.noUser && o("lockedUsers") != float64(1) {
				t.Errorf("locked users %v, want the one locked member", o("lockedUsers"))
			}
		})
	}
	// signed out: nothing
	if got := e.gql("", q, nil); dig(got.Data, "overview") != nil || !strings.Contains(string(got.Raw), "authentication is required") {
		t.Errorf("anonymous overview: %s", got.Raw)
	}
}
