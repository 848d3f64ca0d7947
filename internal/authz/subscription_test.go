package authz

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A principal with notification subscriptions, including event types that
// look like actions or roles, gets exactly the decisions it gets without them.
//
// spec: R6-subscription
func TestSubscriptionGrantsNothing(t *testing.T) {
	c := MustSpecCatalog(t)
	var subs []Subscription
	for _, ev := range []string{"worker_failed", "create_customer", "manage_system_workers", "platform_admin", "c2", "*"} {
		subs = append(subs, Subscription{UserID: "u1", EventType: ev})
	}
	resources := []Resource{{}, {CustomerID: "c1"}, {CustomerID: "c2"}, {CustomerID: "c1", InstanceID: "i1"}, {CustomerID: "c1", InstanceID: "i2"}}
	for _, r := range Roles() {
		for _, focus := range []string{"", "c1", "c2"} {
			without := inScope(r)
			without.FocusCustomerID = focus
			with := without
			with.Subscriptions = subs
			if diff := cmp.Diff(ResolveScope(without), ResolveScope(with)); diff != "" {
				t.Errorf("%s focus=%q: scope (-without +with):\n%s", r, focus, diff)
			}
			for _, a := range Actions() {
				for _, res := range resources {
					for _, write := range []bool{false, true} {
						if diff := cmp.Diff(decide(c, without, a, res, write), decide(c, with, a, res, write)); diff != "" {
							t.Errorf("%s focus=%q %s %+v write=%v (-without +with):\n%s", r, focus, a, res, write, diff)
						}
					}
				}
			}
		}
	}
}
