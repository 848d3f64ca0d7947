package adminhttp

import (
	"fmt"
	"testing"

	"github.com/platform/platform/internal/authz"
)

// Only platform_admin suspends, reactivates or deletes a customer's owner
// (D-owner-protect): every other role that may suspend or remove users of
// the customer gets 403, audited, and the owner stays as it was; the same
// roles still act on the customer's other users.
//
// attack: suspend-the-owner
func TestAttackOwnerProtected(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, role := range []authz.Role{authz.AccountManager, authz.QAAdmin, authz.Admin, authz.PlatformAdmin} {
		t.Run(role.String(), func(t *testing.T) {
			cust := e.mustCustomer()
			owner := e.mustUser(authz.Owner, cust)
			plain := e.mustUser(authz.Viewer, cust)
			home := ""
			if role.Portal() {
				home = cust
			}
			caller := e.mustUser(role, home)
			if role.Scoped() {
				e.mustGrant(caller, false, cust)
			}
			// the owner signs in, so that a suspension shows on its next request
			if r := e.do(owner, "GET", "/me/permissions", nil); r.Status != 200 {
				t.Fatalf("owner = %d %s", r.Status, r.Body)
			}
			want := 403
			if role == authz.PlatformAdmin {
				want = 200
			}
			for _, rq := range [][2]string{{"POST", "/users/%s/suspend"}, {"POST", "/users/%s/reactivate"}} {
				if r := e.do(caller, rq[0], fmt.Sprintf(rq[1], owner), nil); r.Status != want {
					t.Errorf("%s %s of the owner = %d, want %d: %s", role, rq[1], r.Status, want, r.Body)
				}
				// the owner's colleague is fair game for every one of these roles
				if r := e.do(caller, rq[0], fmt.Sprintf(rq[1], plain), nil); r.Status != 200 {
					t.Errorf("%s %s of a viewer = %d: %s", role, rq[1], r.Status, r.Body)
				}
			}
			if role != authz.PlatformAdmin {
				if r := e.do(owner, "GET", "/me/permissions", nil); r.Status != 200 {
					t.Errorf("the refused suspension still signed the owner out: %d", r.Status)
				}
				if got := e.do(caller, "GET", "/audit-log?limit=5", nil).json(t); !containsReason(got, authz.ReasonOwnerProtected) {
					t.Errorf("refusal not audited: %v", got)
				}
			}
			wantDelete := 403
			if role == authz.PlatformAdmin {
				wantDelete = 204
			}
			if r := e.do(caller, "DELETE", "/users/"+owner, nil); r.Status != wantDelete {
				t.Errorf("%s DELETE the owner = %d, want %d: %s", role, r.Status, wantDelete, r.Body)
			}
			if role != authz.PlatformAdmin {
				if r := e.do(owner, "GET", "/me/permissions", nil); r.Status != 200 {
					t.Errorf("the owner after a refused deletion = %d", r.Status)
				}
				if u := e.do(caller, "GET", "/users/"+owner, nil).json(t); u["role"] != "owner" || u["status"] != "active" {
					t.Errorf("owner after refusals = %v", u)
				}
			} else if r := e.do(owner, "GET", "/me/permissions", nil); r.Status != 401 {
				t.Errorf("a deleted owner's next request = %d, want 401", r.Status)
			}
		})
	}
}

func containsReason(page map[string]any, reason string) bool {
	items, _ := page["items"].([]any)
	for _, it := range items {
		if ev, _ := it.(map[string]any); ev["reason"] == reason {
			return true
		}
	}
	return false
}
