package data_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// dataActions are the catalog's actions the data API serves.
var dataActions = map[string]bool{authz.ReadTenantData.String(): true, authz.UploadCxData.String(): true}

// matrixRow is one row of the admin API's expected.csv: the answer the spec's
// matrix and scope rules give a role in a scope situation for an action.
type matrixRow struct{ role, scope, action, access, read, write string }

// dataMatrix reads the rows of internal/admin/adminhttp/testdata/expected.csv for the
// data API's actions: the same expectations the admin routes are held to.
func dataMatrix(t *testing.T) []matrixRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "admin", "adminhttp", "testdata", "expected.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []matrixRow
	for _, row := range rows[1:] {
		if dataActions[row[2]] {
			out = append(out, matrixRow{row[0], row[1], row[2], row[3], row[4], row[5]})
		}
	}
	// every role in each of its situations (the admin matrix test's scopesOf:
	// 5 unscoped internal roles × 3, account_manager 4, qa_admin 5, 5 portal
	// roles × 2), for both actions
	if want := 2 * (5*3 + 4 + 5 + 5*2); len(out) != want {
		t.Fatalf("expected.csv has %d rows of the data API's actions, want %d (run go test ./internal/admin/adminhttp -run TestMatrixTable -update)", len(out), want)
	}
	return out
}

// dataWorld is one caller in one scope situation with tenant data of its
// customer (on a granted and an ungranted instance) and of another customer.
type dataWorld struct {
	caller string
	// target is the tenant the situation's request acts on, with its
	// schedule, and the id of the one record of its master "Gauge".
	target, schedule, record string
}

var worldSeq atomic.Int64

// newDataWorld builds the situation of row (the scopes of the admin API's
// matrix test): scoped roles are granted Home (qa_admin also Home's first
// instance), focus mode lenses on Home, a portal role lives in Home; the
// target is Home's tenant on the granted instance when in scope, Other's
// tenant when out, Home's tenant on the ungranted instance for instance_out.
func newDataWorld(t *testing.T, e *env, row matrixRow) dataWorld {
	t.Helper()
	n := worldSeq.Add(1)
	id := func(kind string) string { return fmt.Sprintf("mx%d-%s", n, kind) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	role, err := authz.ParseRole(row.role)
	must(err)
	home, other := id("home"), id("other")
	instances := map[string]string{}
	tenants := map[string]string{}
	for _, c := range []string{home, other} {
		must(e.st.CreateOrganization(ctx, &platform.Organization{ID: "org-" + c, Name: c, CreatedAt: t0}))
		must(e.st.CreateCustomer(ctx, &platform.Customer{ID: c, Name: c, OrgID: "org-" + c, CreatedAt: t0}))
		for i := 1; i <= 2; i++ {
			in := fmt.Sprintf("%s-inst%d", c, i)
			must(e.st.CreateInstance(ctx, &platform.Instance{ID: in, CustomerID: c, Name: in, URL: "https://" + in + ".example", CreatedAt: t0},
				&platform.InstanceConnection{InstanceID: in, OIDCClientID: "client-" + in, UpdatedAt: t0}))
			instances[fmt.Sprintf("%s/%d", c, i)] = in
			ten := in + "-tenant"
			must(e.st.CreateTenant(ctx, &store.Tenant{ID: ten, CustomerID: c, InstanceID: in, Name: ten, CreatedAt: t0}))
			tenants[fmt.Sprintf("%s/%d", c, i)] = ten
			must(e.st.CreateMaster(ctx, &store.Master{ID: ten + "-m", TenantID: ten, Name: "Gauge", CreatedAt: t0,
				Fields: []store.MasterField{{Key: "code", Type: store.FieldString}}}))
			must(e.st.InsertMasterRecords(ctx, []store.MasterRecord{{ID: ten + "-r", MasterID: ten + "-m", TenantID: ten,
				Slug: "r", RefID: "R", CustomFields: []byte(`{"code": "x"}`), CreatedBy: "seed", CreatedAt: t0}}))
			must(e.st.CreateSchedule(ctx, &store.Schedule{ID: ten + "-s", TenantID: ten, Name: "s", CreatedAt: t0}))
		}
	}
	caller := id("caller")
	org, customer := "org-platform", ""
	if role.Portal() {
		org, customer = "org-"+home, home
	}
	must(e.st.CreateUser(ctx, &platform.User{ID: caller, OrgID: org, Email: caller + "@example.com", Name: caller, CreatedAt: t0, UpdatedAt: t0}))
	must(e.st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: caller, Role: role.String(), CustomerID: customer, CreatedAt: t0}))
	if role.Scoped() {
		must(e.st.PutGrant(ctx, false, &store.Grant{GranteeID: caller, TargetID: home, GrantedAt: t0}))
		if role.InstanceScoped() {
			must(e.st.PutGrant(ctx, true, &store.Grant{GranteeID: caller, TargetID: instances[home+"/1"], GrantedAt: t0}))
		}
	}
	if strings.HasPrefix(row.scope, "focus") {
		must(e.st.SetFocus(ctx, caller, home, time.Now().Add(-time.Minute), time.Now().Add(time.Hour)))
	}
	target := tenants[home+"/1"]
	switch row.scope {
	case "out", "focus_out", "other":
		target = tenants[other+"/1"]
	case "instance_out":
		target = tenants[home+"/2"]
	}
	return dataWorld{caller: caller, target: target, schedule: target + "-s", record: target + "-r"}
}

// The capability-matrix test of the data API (R5.7-matrix, D-data-access):
// every role in every scope situation of the admin API's matrix test, for
// the catalog's data actions, through real HTTP, against the same
// expected.csv. Reading: where the matrix allows, the target tenant's
// records list and the tenant is among the caller's tenants; where the scope
// hides it, the listing answers as for an unknown master (R7.2-master) and
// the tenant is not listed, since lists never refuse for scope. Uploading:
// the expected status exactly, and for a schedule that does not exist the
// answer an existing one outside the scope gets.
//
// spec: R5.7-matrix, R5.7-and, R5.7-strict, R5.7-soft, R5.7-no-infra
// spec: R7.2-master
func TestDataMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, row := range dataMatrix(t) {
		t.Run(row.role+"/"+row.scope+"/"+row.action, func(t *testing.T) {
			w := newDataWorld(t, e, row)
			switch row.action {
			case authz.ReadTenantData.String():
				list := e.get(t, "/api/v1/master-record/Gauge?tenantID="+w.target, asUser(w.caller))
				mine := e.get(t, "/api/v1/me/tenants", asUser(w.caller))
				switch {
				case row.access == "none":
					wantError(t, list, http.StatusForbidden, "/api/v1/master-record/Gauge")
					wantError(t, mine, http.StatusForbidden, "/api/v1/me/tenants")
				case row.read == "200":
					if list.status != 200 || !strings.Contains(string(list.body), `"_id":"`+w.record+`"`) {
						t.Fatalf("listing = %d %.300s, want the target's record", list.status, list.body)
					}
					if mine.status != 200 || !strings.Contains(string(mine.body), `"id":"`+w.target+`"`) {
						t.Fatalf("my tenants = %d %.300s, want the target", mine.status, mine.body)
					}
				default: // outside the scope: not there
					m := wantError(t, list, http.StatusInternalServerError, "/api/v1/master-record/Gauge")
					if !strings.Contains(detail(m), "Gauge") {
						t.Errorf("detail %q does not name the master", detail(m))
					}
					if mine.status != 200 || strings.Contains(string(mine.body), w.target) {
						t.Fatalf("my tenants = %d %.300s, must not show %s", mine.status, mine.body, w.target)
					}
				}
			case authz.UploadCxData.String():
				body := upload(w.schedule, map[string]string{"ID": "N-1", "Name": "New row"})
				r := e.postJSON(t, "/api/v1/cx/upload?dryRun=true", body, asUser(w.caller))
				if fmt.Sprint(r.status) != row.write {
					t.Fatalf("upload = %d %.300s, want %s", r.status, r.body, row.write)
				}
				if row.write != "200" {
					wantError(t, r, r.status, "/api/v1/cx/upload")
				}
				missing := e.postJSON(t, "/api/v1/cx/upload?dryRun=true", upload(w.schedule+"-missing", map[string]string{"ID": "N-1", "Name": "x"}),
					asUser(w.caller))
				wantMissing := http.StatusNotFound
				if row.access != "full" {
					wantMissing = http.StatusForbidden
				}
				wantError(t, missing, wantMissing, "/api/v1/cx/upload")
			}
		})
	}
}
