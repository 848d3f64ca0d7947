package adminhttp

import (
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// The capability-matrix test (R5.7-matrix) runs every route of the admin
// API for every role in every scope situation through real HTTP, and
// compares the status with an expectation derived independently of Decide:
//
//   - internal/authz/testdata/matrix.csv: the spec's matrix, role × action →
//     full, read or none;
//   - the scope rules of R5.7-and to R5.7-soft written out below (expectedStatus);
//   - testdata/expected.csv: the two combined for every role × scope ×
//     action, generated with `go test ./internal/admin/adminhttp -run TestMatrixTable
//     -update` and checked in, so a reviewer reads the answers as a table;
//   - the route table: every route with the operation it performs
//     (admin.Operation, declared once in internal/admin: its action, whether
//     it writes, what it acts on), listed in testdata/routes.csv, which is
//     generated from the table with -update and checked in so that a
//     reviewer reads every route's decision as a table; routeFixtures names
//     the fixture that builds a request for each route (fixtures_test.go).
//
// Adding a route: add it to the route table with its operation (declare a
// new one in internal/admin/operations.go if none fits), name its fixture
// in routeFixtures and, when no existing fixture fits, register one with
// registerFixture in a fixtures_<domain>_test.go file, then rerun with
// -update. TestRouteTableCovered fails for a route without a fixture, and
// when routes.csv is not what the table declares.

var update = flag.Bool("update", false, "rewrite testdata/expected.csv and testdata/routes.csv")

// Scope situations of a caller and the target of its request.
const (
	scopeAny         = "any"          // an unscoped internal role, any customer
	scopeIn          = "in"           // a scoped role, a granted customer (and instance)
	scopeOut         = "out"          // a scoped role, a customer it is not granted
	scopeInstanceOut = "instance_out" // qa_admin: a granted customer, an instance it is not granted
	scopeFocusIn     = "focus_in"     // focus mode, the focused customer
	scopeFocusOut    = "focus_out"    // focus mode, another customer
	scopeOwn         = "own"          // a customer role, its own customer
	scopeOther       = "other"        // a customer role, another customer
)

// scopesOf lists the situations a role is tested in.
func scopesOf(r authz.Role) []string {
	switch {
	case r.Portal():
		return []string{scopeOwn, scopeOther}
	case r == authz.QAAdmin:
		return []string{scopeIn, scopeOut, scopeInstanceOut, scopeFocusIn, scopeFocusOut}
	case r == authz.AccountManager:
		return []string{scopeIn, scopeOut, scopeFocusIn, scopeFocusOut}
	}
	return []string{scopeAny, scopeFocusIn, scopeFocusOut}
}

// expectedStatus is the answer of R5.7-matrix for a request that acts on a
// customer's resource (and, for instance, on an instance of it): the
// matrix cell decides full/read/none (403 when it does not hold), then the
// scope: a customer role sees only its own customer (404 otherwise, so
// nothing of another customer shows), strict scope (account_manager and
// qa_admin by their grants; qa_admin also by instance grants, AND) answers
// 403 outside, focus mode answers 404 outside (R5.7-strict, R5.7-soft,
// R5.7-and, R7.2-status).
func expectedStatus(role authz.Role, scope, access string, write bool) int {
	if access == "none" || (write && access != "full") {
		return 403
	}
	switch scope {
	case scopeOther:
		return 404
	case scopeFocusOut:
		return 404
	case scopeOut:
		return 403
	case scopeInstanceOut:
		if role.InstanceScoped() {
			return 403
		}
	}
	return 200
}

// specMatrix reads internal/authz/testdata/matrix.csv: role → action → access.
func specMatrix(t testing.TB) map[string]map[string]string {
	t.Helper()
	rows := readCSV(t, filepath.Join("..", "..", "authz", "testdata", "matrix.csv"))
	m := map[string]map[string]string{}
	for _, r := range rows[1:] {
		if m[r[0]] == nil {
			m[r[0]] = map[string]string{}
		}
		m[r[0]][r[1]] = r[2]
	}
	return m
}

func readCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	r.TrimLeadingSpace = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// expectationRows builds expected.csv from the spec's matrix and the scope rules.
func expectationRows(t testing.TB) [][]string {
	m := specMatrix(t)
	out := [][]string{{"role", "scope", "action", "access", "read", "write"}}
	for _, role := range authz.Roles() {
		for _, scope := range scopesOf(role) {
			for _, act := range authz.Actions() {
				acc, ok := m[role.String()][act.String()]
				if !ok {
					t.Fatalf("matrix.csv has no cell for %s × %s", role, act)
				}
				out = append(out, []string{role.String(), scope, act.String(), acc,
					fmt.Sprint(expectedStatus(role, scope, acc, false)), fmt.Sprint(expectedStatus(role, scope, acc, true))})
			}
		}
	}
	return out
}

const expectedHeader = `# Expected answer of the admin API for every role × scope situation × action
# of the capability matrix (R5.7-matrix), for a request acting on a resource of
# the situation's customer (and instance). access is the matrix cell (full,
# read, none); read and write are the statuses of a reading and of a writing
# request. Generated from internal/authz/testdata/matrix.csv and the scope
# rules in matrix_test.go: go test ./internal/admin/adminhttp -run TestMatrixTable -update
`

// TestMatrixTable keeps testdata/expected.csv equal to what the spec's matrix
// and scope rules give, and checks that every cell of the matrix is in it.
//
// spec: R5.7-matrix
func TestMatrixTable(t *testing.T) {
	t.Parallel()
	want := expectationRows(t)
	path := filepath.Join("testdata", "expected.csv")
	if *update {
		var b strings.Builder
		b.WriteString(expectedHeader)
		w := csv.NewWriter(&b)
		if err := w.WriteAll(want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := readCSV(t, path)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("testdata/expected.csv is stale; rerun with -update (-want +got):\n%s", diff)
	}
	// every role × action of the matrix, in every situation of the role
	m := specMatrix(t)
	cells := 0
	for _, r := range got[1:] {
		if m[r[0]][r[2]] != r[3] {
			t.Errorf("%v: access differs from the spec's matrix (%s)", r, m[r[0]][r[2]])
		}
		cells++
	}
	wantCells := 0
	for _, role := range authz.Roles() {
		wantCells += len(scopesOf(role)) * len(authz.Actions())
	}
	if cells != wantCells {
		t.Fatalf("expected.csv has %d rows, want %d", cells, wantCells)
	}
}

// expectation is one row of expected.csv.
type expectation struct{ access, read, write string }

func loadExpectations(t testing.TB) map[[3]string]expectation {
	out := map[[3]string]expectation{}
	for _, r := range readCSV(t, filepath.Join("testdata", "expected.csv"))[1:] {
		out[[3]string{r[0], r[1], r[2]}] = expectation{r[3], r[4], r[5]}
	}
	return out
}

// Targets of a route (admin.Target, routes.csv): what its request acts on.
const (
	targetCustomer     = "customer"      // a resource of the situation's customer
	targetInstance     = "instance"      // a resource of the situation's customer and instance
	targetNone         = "none"          // no customer: lists (scope-filtered), creates of customers, internal users
	targetSelf         = "self"          // the caller itself
	targetSelfInternal = "self_internal" // the caller itself, internal roles only (focus mode)
)

// routeRow is one route of the table as the matrix sends it.
type routeRow struct {
	Method, Pattern string
	// Operation is the declared operation's name.
	Operation string
	Action    authz.Action
	// Or is the action a role that does not hold Action reads with
	// (D-instance-reads), written "action|or" in routes.csv; zero for none.
	Or      authz.Action
	Write   bool
	Fixture string
	Target  string
}

func (r routeRow) String() string { return r.Method + " " + r.Pattern }

// loadRoutes is the route table with each route's operation and fixture.
func loadRoutes(t testing.TB) []routeRow {
	t.Helper()
	var out []routeRow
	for _, rt := range New(new(admin.Service), nil).Routes() { // the table only: no method is called
		r := routeRow{Method: rt.Method, Pattern: rt.Pattern, Operation: rt.Op.Name, Action: rt.Op.Action, Or: rt.Op.Or,
			Write: rt.Op.Write, Fixture: routeFixtures[rt.Method+" "+rt.Pattern], Target: rt.Op.Target.String()}
		if r.Fixture == "" {
			t.Fatalf("route %s has no fixture in routeFixtures", r)
		}
		out = append(out, r)
	}
	return out
}

// routesCSV is testdata/routes.csv as the route table declares it.
func routesCSV(t testing.TB, rows []routeRow) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(routesHeader)
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"method", "pattern", "operation", "action", "write", "target"})
	for _, r := range rows {
		act := r.Action.String()
		if r.Or != 0 {
			act += "|" + r.Or.String()
		}
		_ = w.Write([]string{r.Method, r.Pattern, r.Operation, act, fmt.Sprint(r.Write), r.Target})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const routesHeader = `# Every route of the admin API (/api/v1) and the operation it performs, as
# internal/admin declares it: the capability-matrix action it needs, whether
# it asks for full access (write), and what the request acts on: customer,
# instance (customer and instance), none (lists, which are filtered by scope;
# creates that name no customer; internal users), self (the caller's own
# data), self_internal (the caller's own, internal roles only). An action
# written "action|or" is read with or by a role that does not hold action
# (D-tenant-reads, D-instance-reads). Generated from the route table, never
# edited by hand: go test ./internal/admin/adminhttp -run TestRouteTableCovered -update
`

// action is what rt is decided on for role: its action, or its Or when
// the role's cell of the action is none and its cell of the Or is not
// (D-tenant-reads, D-instance-reads).
func (rt routeRow) action(exp map[[3]string]expectation, role authz.Role) authz.Action {
	cell := func(a authz.Action) string {
		return exp[[3]string{role.String(), scopesOf(role)[0], a.String()}].access
	}
	if rt.Or != 0 && cell(rt.Action) == "none" && cell(rt.Or) != "none" {
		return rt.Or
	}
	return rt.Action
}

// want returns the expected status of rt for role in scope.
func (rt routeRow) want(exp map[[3]string]expectation, role authz.Role, scope string) string {
	act := rt.action(exp, role)
	switch rt.Target {
	case targetNone, targetSelf, targetSelfInternal:
		scope = scopesOf(role)[0] // the situation decides nothing: only the role's cell
		if rt.Target == targetSelfInternal && role.Portal() {
			return "403"
		}
	case targetCustomer:
		if scope == scopeInstanceOut {
			scope = scopeIn // the request names no instance
		}
	}
	e, ok := exp[[3]string{role.String(), scope, act.String()}]
	if !ok {
		panic(fmt.Sprintf("no expectation for %s %s %s", role, scope, act))
	}
	if rt.Write {
		return e.write
	}
	return e.read
}

// TestRouteTableCovered keeps testdata/routes.csv equal to what the route
// table declares, fails for a route without a fixture, and for an action of
// the matrix that no route tests.
//
// spec: R5.7-matrix
func TestRouteTableCovered(t *testing.T) {
	t.Parallel()
	rows := loadRoutes(t)
	listed := map[string]bool{}
	for _, r := range rows {
		if listed[r.String()] {
			t.Errorf("the route table has %s twice", r)
		}
		listed[r.String()] = true
		if fixtures[r.Fixture] == nil {
			t.Errorf("routeFixtures: %s uses fixture %q, which is not registered", r, r.Fixture)
		}
	}
	for key := range routeFixtures {
		if !listed[key] {
			t.Errorf("routeFixtures names %s, which the route table does not have", key)
		}
	}
	path := filepath.Join("testdata", "routes.csv")
	want := routesCSV(t, rows)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("testdata/routes.csv is not what the route table declares; rerun with -update (-want +got):\n%s", diff)
	}
	// Every action needs a writing route (full shows, read and none are
	// refused) and, when some role holds it read only, a reading route.
	m := specMatrix(t)
	pending := pendingActions(t)
	for _, act := range authz.Actions() {
		if pending[act.String()] {
			t.Logf("action %s: routes pending (testdata/pending_actions.txt)", act)
			continue
		}
		if dataActions[act] {
			continue // the data API's routes: internal/data's TestDataMatrix runs them against expected.csv
		}
		var reads, writes bool
		for _, r := range rows {
			if r.Action == act {
				reads, writes = reads || !r.Write, writes || r.Write
			}
		}
		readOnly := slices.ContainsFunc(authz.Roles(), func(role authz.Role) bool { return m[role.String()][act.String()] == "read" })
		if !writes && !viewActions[act] {
			t.Errorf("action %s has no writing route in routes.csv", act)
		}
		if (readOnly || viewActions[act]) && !reads {
			t.Errorf("action %s has no reading route in routes.csv", act)
		}
	}
}

// dataActions are served by the data API (internal/data), not by this route
// table; its matrix test sends its routes for every role and situation and
// reads its expectations from testdata/expected.csv too.
var dataActions = map[authz.Action]bool{authz.ReadTenantData: true, authz.UploadCxData: true}

// viewActions only read: their full access shows on a reading route.
var viewActions = map[authz.Action]bool{authz.ViewBilling: true, authz.ViewBilledUnits: true, authz.ViewUsageUnits: true,
	authz.ViewAuditLog: true}

// pendingActions are actions whose routes another change adds; the list
// shrinks to empty as they land.
func pendingActions(t testing.TB) map[string]bool {
	b, err := os.ReadFile(filepath.Join("testdata", "pending_actions.txt"))
	if os.IsNotExist(err) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out
}

// TestCapabilityMatrix sends every route of routes.csv as every role in
// every scope situation through the real handler and store, and compares
// the status with expected.csv: 2xx when allowed, exactly 403 or 404 when
// refused. Each refused request is also sent for an id that does not exist
// and must get the same status as an existing id would get outside scope,
// so a scoped caller cannot learn whether an id exists.
//
// spec: R5.7-matrix, R5.7-strict, R5.7-soft, R5.7-and, R5.7-am, R5.7-never, R5.7-no-tenant, R5.7-no-infra
// spec: R4.6-admin-only, R4.6-owner-transfer, R4.6-infra, R4.6-customer-side, R4.6-id-scope, R7.2-status
func TestCapabilityMatrix(t *testing.T) {
	t.Parallel()
	exp := loadExpectations(t)
	routes := loadRoutes(t)
	// Each role on its own environment (its own database): the roles run at
	// once and no role's writes reach another's requests.
	for _, role := range authz.Roles() {
		t.Run(role.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			requests := 0
			for _, scope := range scopesOf(role) {
				w := newWorld(e, role, scope)
				for _, rt := range routes {
					requests += checkCapability(t, e, exp, w, rt)
				}
			}
			t.Logf("%d requests", requests)
		})
	}
}

// checkCapability sends rt as w's caller and checks the answer against the
// matrix, then (for a route of one object) with an id that does not exist;
// it answers how many requests it sent.
func checkCapability(t *testing.T, e *env, exp map[[3]string]expectation, w *World, rt routeRow) int {
	t.Helper()
	role, scope := w.Role, w.Scope
	want := rt.want(exp, role, scope)
	req := fixtures[rt.Fixture](t, w, rt)
	path := req.path(rt.Pattern)
	resp := e.do(req.caller(w), rt.Method, path, req.Body)
	got := resp.Status
	ok := (want == "200" && got >= 200 && got < 300) || fmt.Sprint(got) == want
	if !ok {
		t.Errorf("%s as %s (%s): %s %s = %d, want %s\n%s", rt, role, scope, rt.Method, path, got, want, resp.Body)
	}
	if want != "200" && got >= 400 {
		checkErrorObject(t, resp, path)
	}
	if !strings.Contains(rt.Pattern, "{id}") || rt.Target == targetNone {
		return 1
	}
	// a missing id answers as an id out of scope would
	missing := missingStatus(exp, rt, role, scope)
	// An allowed request may have changed its world (deleted the caller's
	// customer, ended its focus mode): a new request from the fixture. A
	// refused one changed nothing, so its own request serves again.
	mreq := req
	if got < 400 {
		mreq = fixtures[rt.Fixture](t, w, rt)
	}
	mreq.Params = cloneParams(mreq.Params)
	mreq.Params["id"] = "00000000-0000-4000-8000-00000000dead"
	mresp := e.do(mreq.caller(w), rt.Method, mreq.path(rt.Pattern), mreq.Body)
	if fmt.Sprint(mresp.Status) != missing {
		t.Errorf("%s as %s (%s) with a missing id = %d, want %s\n%s", rt, role, scope, mresp.Status, missing, mresp.Body)
	}
	return 2
}

// missingStatus is the answer for an id that does not exist: 403 when the
// role does not hold the action (as for any id) or is strictly scoped (as
// for an id out of scope); 404 otherwise.
func missingStatus(exp map[[3]string]expectation, rt routeRow, role authz.Role, scope string) string {
	e := exp[[3]string{role.String(), scopesOf(role)[0], rt.action(exp, role).String()}]
	if e.access == "none" || (rt.Write && e.access != "full") {
		return "403"
	}
	if role.Scoped() && (scope == scopeIn || scope == scopeOut || scope == scopeInstanceOut) {
		return "403"
	}
	return "404"
}

func cloneParams(p map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		out[k] = v
	}
	return out
}

// checkErrorObject checks the 7.1 error object (R7.1-shape).
func checkErrorObject(t *testing.T, resp response, path string) {
	t.Helper()
	m := resp.json(t)
	errObj, _ := m["error"].(map[string]any)
	if fmt.Sprint(m["code"]) != fmt.Sprint(resp.Status) || m["path"] != "/api/v1"+strings.SplitN(path, "?", 2)[0] ||
		m["timestamp"] == nil || errObj == nil || errObj["summary"] == nil || errObj["detail"] == nil {
		t.Errorf("not a 7.1 error object: %s", resp.Body)
	}
}
