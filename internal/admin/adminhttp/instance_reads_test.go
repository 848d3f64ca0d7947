package adminhttp

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/authz"
)

// TestScopedRolesReadInstances: account_manager and qa_admin list and read
// the instances of their scope (D-instance-reads), filtered in SQL:
// account_manager its customers' instances, qa_admin its instance grants
// on its customers; an instance outside the scope is 403 (strict scope), a
// missing one too; the connection is not part of what they read, and every
// instance write and the connection routes stay refused (R4.6-infra).
//
// spec: R4.6-infra, R4.6-id-scope, R5.7-strict, R5.7-and
func TestScopedRolesReadInstances(t *testing.T) {
	e := newEnv(t)
	acme, globex, initech := e.mustCustomer(), e.mustCustomer(), e.mustCustomer()
	a1, a2, g1, i1 := e.mustInstance(acme), e.mustInstance(acme), e.mustInstance(globex), e.mustInstance(initech)
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, acme)
	e.mustGrant(am, false, globex)
	qa := e.mustUser(authz.QAAdmin, "")
	e.mustGrant(qa, false, acme)
	e.mustGrant(qa, true, a2)
	e.mustGrant(qa, true, i1) // an instance grant on a customer it is not granted: the AND of the axes leaves it out
	amNone, qaNone := e.mustUser(authz.AccountManager, ""), e.mustUser(authz.QAAdmin, "")
	e.mustGrant(qaNone, false, acme) // a customer, no instance
	plat := e.mustUser(authz.PlatformAdmin, "")

	list := func(user, query string) ([]string, []map[string]json.RawMessage) {
		t.Helper()
		r := e.do(user, http.MethodGet, "/instances"+query, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET /instances%s as %s = %d: %s", query, user, r.Status, r.Body)
		}
		var p struct{ Items []map[string]json.RawMessage }
		if err := json.Unmarshal(r.Body, &p); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, it := range p.Items {
			var id string
			_ = json.Unmarshal(it["id"], &id)
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids, p.Items
	}
	sorted := func(ids ...string) []string { slices.Sort(ids); return ids }
	for _, tc := range []struct {
		name, user, query string
		want              []string
	}{
		{"AccountManager", am, "", sorted(a1, a2, g1)},
		{"AccountManagerOneCustomer", am, "?customerId=" + globex, []string{g1}},
		{"AccountManagerOtherCustomer", am, "?customerId=" + initech, nil},
		{"QAAdmin", qa, "", []string{a2}},
		{"AccountManagerWithoutGrants", amNone, "", nil},
		{"QAAdminWithoutInstanceGrants", qaNone, "", nil},
		{"PlatformAdmin", plat, "", sorted(a1, a2, g1, i1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, items := list(tc.user, tc.query)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("instances (-want +got):\n%s", diff)
			}
			for _, it := range items {
				if _, ok := it["connection"]; ok != (tc.user == plat) {
					t.Errorf("connection shown = %v to %s", ok, tc.name)
				}
			}
		})
	}
	for _, tc := range []struct {
		user, id string
		want     int
	}{
		{am, a1, 200}, {am, g1, 200}, {am, i1, 403}, {am, "00000000-0000-4000-8000-00000000dead", 403},
		{qa, a2, 200}, {qa, a1, 403}, {qa, i1, 403}, {qa, g1, 403},
	} {
		r := e.do(tc.user, http.MethodGet, "/instances/"+tc.id, nil)
		if r.Status != tc.want {
			t.Errorf("GET /instances/%s = %d, want %d: %s", tc.id, r.Status, tc.want, r.Body)
		}
		if r.Status == 200 {
			if _, ok := r.json(t)["connection"]; ok {
				t.Errorf("GET /instances/%s shows the connection to a scoped role: %s", tc.id, r.Body)
			}
		}
	}
	// writes and the connection stay manage_instances' (R4.6-infra), in scope too
	for _, user := range []string{am, qa} {
		for _, rq := range []struct{ method, path string }{
			{http.MethodPost, "/instances"}, {http.MethodPut, "/instances/" + a2}, {http.MethodDelete, "/instances/" + a2},
			{http.MethodGet, "/instances/" + a2 + "/connection"}, {http.MethodPut, "/instances/" + a2 + "/connection"},
			{http.MethodPost, "/instances/" + a2 + "/connection/rotate"}, {http.MethodPost, "/instances/" + a2 + "/rotate-secret"},
			{http.MethodPost, "/instances/" + a2 + "/resolve-database-uri"},
		} {
			body := map[string]any{"customerId": acme, "name": "X", "url": "https://x.example"}
			if r := e.do(user, rq.method, rq.path, body); r.Status != http.StatusForbidden {
				t.Errorf("%s %s = %d, want 403: %s", rq.method, rq.path, r.Status, r.Body)
			}
		}
	}
	if n := e.apps.n; n != 0 {
		t.Errorf("refused writes registered %d applications", n)
	}
}
