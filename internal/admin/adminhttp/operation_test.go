package adminhttp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// TestRoutesPerformDeclaredOperations: every route performs an operation
// internal/admin declares, unchanged (a route cannot decide on an action of
// its own), a GET never writes and a write is never a GET, and a route
// whose operation acts on a customer's resource named by {id} finds that
// resource before it decides.
//
// spec: R5.7-matrix
func TestRoutesPerformDeclaredOperations(t *testing.T) {
	t.Parallel()
	declared := map[string]admin.Operation{}
	for _, op := range admin.Operations() {
		declared[op.Name] = op
	}
	for _, rt := range New(new(admin.Service), nil).Routes() { // the table only: no method is called
		key := rt.Method + " " + rt.Pattern
		op, ok := declared[rt.Op.Name]
		switch {
		case !ok:
			t.Errorf("route %s performs %q, which internal/admin does not declare", key, rt.Op.Name)
		case op != rt.Op:
			t.Errorf("route %s performs %+v, not the declared %+v", key, rt.Op, op)
		}
		if (rt.Method == http.MethodGet) == rt.Op.Write {
			t.Errorf("route %s: method %s with an operation that writes=%v", key, rt.Method, rt.Op.Write)
		}
		hasID := strings.Contains(rt.Pattern, "{id}")
		if rt.Locate != nil && !hasID {
			t.Errorf("route %s locates a resource but names no {id}", key)
		}
		if hasID && rt.Locate == nil && (rt.Op.Target == admin.TargetCustomer || rt.Op.Target == admin.TargetInstance) {
			t.Errorf("route %s acts on a %s's {id} but locates none to decide on", key, rt.Op.Target)
		}
	}
}

// auditRow is an audit_log row as the test reads it, and the event it
// is in the audit trail's schema.
type auditRow struct {
	Action, Operation, Resource, CustomerID, ActorID, Decision, RequestID string
	Status                                                                int
	Event                                                                 audit.Event
}

// auditRows reads the audit events of one request.
func auditRows(t testing.TB, st *store.Store, requestID string) []auditRow {
	t.Helper()
	var evs []store.AuditEvent
	for cursor := ""; ; {
		page, next, err := st.AuditEvents(context.Background(), store.AuditQuery{Scope: authz.Filter{All: true}, Limit: 500, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, page...)
		if cursor = next; cursor == "" {
			break
		}
	}
	var out []auditRow
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.RequestID == requestID {
			out = append(out, auditRow{Action: e.Action, Operation: e.Operation, Resource: e.Resource, CustomerID: e.CustomerID,
				ActorID: e.ActorID, Decision: e.Decision, RequestID: e.RequestID, Status: e.Status, Event: audit.FromRow(&e)})
		}
	}
	return out
}

// TestEveryWriteAuditedOnce sends every writing route as platform_admin
// and finds exactly one audit event of the request: allowed, of the route's
// operation and action, by the caller, naming what it acted on; a write
// refused before the service records a denial and no allowed event. Every
// route's service method records its own write (D-audit-events).
func TestEveryWriteAuditedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := 0
	for _, rt := range loadRoutes(t) {
		if !rt.Write {
			continue
		}
		role, scope := authz.PlatformAdmin, scopeAny
		if e.acc.Catalog().Access(role, rt.Action) == authz.AccessNone {
			role, scope = authz.Owner, scopeOwn // the customer's own decision (allow_impersonation)
		}
		w := newWorld(e, role, scope)
		req := fixtures[rt.Fixture](t, w, rt)
		n++
		rid := fmt.Sprintf("write-%03d", n)
		resp := e.doWithID(rid, req.caller(w), rt.Method, req.path(rt.Pattern), req.Body)
		if resp.Status < 200 || resp.Status > 299 {
			t.Errorf("%s as %s = %d: %s", rt, role, resp.Status, resp.Body)
			continue
		}
		rows := auditRows(t, e.st, rid)
		if len(rows) != 1 {
			t.Errorf("%s: %d audit events, want 1: %+v", rt, len(rows), rows)
			continue
		}
		got := rows[0]
		if got.Decision != "allowed" || got.Operation != rt.Operation || got.Action != rt.Action.String() ||
			got.ActorID != req.caller(w) || got.Status != 200 || got.Resource == "" || strings.Contains(got.Resource, "{") {
			t.Errorf("%s: audit event %+v", rt, got)
		}
		// every write, whatever its operation, in the audit trail's schema:
		// an admin.write of API Activity whose activity its operation's
		// verb names, by the caller as it was, on what its resource names
		ev := got.Event
		if ev.Kind != "admin.write" || ev.ClassUID != 6003 || ev.CategoryUID != 6 || ev.Activity == "" || ev.ActivityID == 99 ||
			ev.TypeUID != 600300+ev.ActivityID || ev.Outcome != "success" || ev.Actor.Role != role.String() ||
			ev.Actor.Email == "" || ev.Target.Type == "" || ev.Target.ID == "" || !strings.Contains(ev.Resource, ev.Target.ID) {
			t.Errorf("%s: in the audit trail's schema %+v", rt, ev)
		}
	}
	if n < 70 {
		t.Fatalf("%d writing routes sent; the table lost its writes", n)
	}

	// refused: a denial, and nothing allowed
	w := newWorld(e, authz.Viewer, scopeOwn)
	tenant := e.mustTenant(w.Home, "")
	resp := e.doWithID("write-refused", w.Caller, http.MethodPatch, "/tenants/"+tenant, map[string]any{"name": "Renamed"})
	rows := auditRows(t, e.st, "write-refused")
	if resp.Status != http.StatusForbidden || len(rows) != 1 || rows[0].Decision != "denied" || rows[0].Operation != "" {
		t.Errorf("a refused write = %d, audit %+v; want 403 and one denial", resp.Status, rows)
	}
}
