package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/platform/platform/internal/store"
)

// refusingAudit is a database connection whose audit inserts fail while
// refuse is set, as a full disk or a connection lost at that moment would
// fail them; every other statement goes through.
type refusingAudit struct {
	store.Conn
	refuse *atomic.Bool
}

var errAuditRefused = errors.New("audit insert refused by the test")

func refusesAudit(refuse *atomic.Bool, q string) bool {
	return refuse.Load() && strings.HasPrefix(strings.TrimSpace(q), "INSERT INTO audit_log")
}

func (c *refusingAudit) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	if refusesAudit(c.refuse, q) {
		return 0, errAuditRefused
	}
	return c.Conn.Exec(ctx, q, args...)
}

func (c *refusingAudit) InTx(ctx context.Context, fn func(tx store.DB) error) error {
	return c.Conn.InTx(ctx, func(tx store.DB) error { return fn(&refusingAuditTx{DB: tx, refuse: c.refuse}) })
}

type refusingAuditTx struct {
	store.DB
	refuse *atomic.Bool
}

func (c *refusingAuditTx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	if refusesAudit(c.refuse, q) {
		return 0, errAuditRefused
	}
	return c.DB.Exec(ctx, q, args...)
}

// withRequestID sends a REST request (path under the server, body JSON or
// nil) or, with a query, a GraphQL operation as userID under requestID.
func (e *env) withRequestID(requestID, userID, method, path string, body any) (int, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Request-ID", requestID)
	req.Header.Set(testUserHeader, userID)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// auditEvent is an audit_log row without its id and time.
type auditEvent struct {
	Action, Operation, Resource, CustomerID, ActorID, Decision, Reason string
	Status                                                             int
}

// auditOf reads the audit events of one request.
func (e *env) auditOf(requestID string) []auditEvent {
	e.t.Helper()
	rows, err := e.st.Conn().Query(ctx, `SELECT action, operation, resource, COALESCE(customer_id, ''), actor_id, decision,
		reason, status FROM audit_log WHERE request_id = $1 ORDER BY at, id`, requestID)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []auditEvent
	for rows.Next() {
		var a auditEvent
		if err := rows.Scan(&a.Action, &a.Operation, &a.Resource, &a.CustomerID, &a.ActorID, &a.Decision, &a.Reason, &a.Status); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *env) tenantName(id string) string {
	e.t.Helper()
	tn, err := e.st.Tenant(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return tn.Name
}

// A write whose audit event cannot be recorded does not happen: the audit
// insert is refused (as a full disk or a connection lost at that moment
// would refuse it), and the write through REST or GraphQL answers an error
// and leaves nothing behind, so no change is made without its record and
// no customer's webhook misses the event of a change that was made.
// attack: write-without-audit
func TestAttackWriteWithoutAudit(t *testing.T) {
	t.Parallel()
	refuse := &atomic.Bool{}
	e := newEnvOn(t, func(c store.Conn) store.Conn { return &refusingAudit{Conn: c, refuse: refuse} })
	before := e.tenantName(tenAcme)
	const rename = `mutation($id: ID!) { updateTenant(id: $id, input: {name: "Renamed unrecorded"}) { name } }`
	const create = `mutation { createCustomer(input: {name: "Unrecorded Ltd"}) { id } }`

	refuse.Store(true)
	status, body := e.withRequestID("rest-refused", ownerA, http.MethodPatch, "/api/v1/tenants/"+tenAcme,
		map[string]any{"name": "Renamed unrecorded"})
	if status != http.StatusInternalServerError {
		t.Errorf("REST rename with its audit refused = %d %s, want 500", status, body)
	}
	got := e.gql(ownerA, rename, map[string]any{"id": tenAcme})
	if codes := got.codes(); len(codes) != 1 || codes[0] != "INTERNAL_SERVER_ERROR" || dig(got.Data, "updateTenant") != nil {
		t.Errorf("GraphQL rename with its audit refused: %s", got.Raw)
	}
	if got := e.gql(platAdm, create, nil); len(got.Errors) == 0 {
		t.Errorf("GraphQL create with its audit refused: %s", got.Raw)
	}
	refuse.Store(false)

	if name := e.tenantName(tenAcme); name != before {
		t.Errorf("tenant renamed to %q without an audit event", name)
	}
	var n int
	if err := e.st.Conn().QueryRow(ctx, `SELECT COUNT(*) FROM customers WHERE name = $1`, "Unrecorded Ltd").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d customers created without an audit event", n)
	}
	// the control: with the audit log writable the same rename happens, recorded once
	if got := e.gql(ownerA, rename, map[string]any{"id": tenAcme}); len(got.Errors) > 0 {
		t.Fatalf("rename: %s", got.Raw)
	}
	if name := e.tenantName(tenAcme); name != "Renamed unrecorded" {
		t.Errorf("tenant name %q after the rename", name)
	}
}

// TestWriteAuditedAlikeFromRESTAndGraphQL: the same write through REST and
// through GraphQL leaves exactly one audit event each, of one shape (the
// action, the operation, the resource as type/id, the customer, the actor,
// the decision, the status), under the request's id (D-audit-events).
func TestWriteAuditedAlikeFromRESTAndGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name                   string
		method, path           string
		body                   any
		query                  string
		vars                   map[string]any
		action, operation, res string
	}{
		{name: "rename", method: http.MethodPatch, path: "/api/v1/tenants/" + tenAcme, body: map[string]any{"name": "Harbor"},
			query: `mutation($id: ID!) { updateTenant(id: $id, input: {name: "Harbor"}) { id } }`, vars: map[string]any{"id": tenAcme},
			action: "manage_tenant", operation: "tenant.update", res: "tenants/" + tenAcme},
		{name: "settings", method: http.MethodPut, path: "/api/v1/tenants/" + tenAcme + "/settings", body: map[string]any{"theme": "dark"},
			query: `mutation($id: ID!) { putTenantSettings(id: $id, settings: {theme: "dark"}) }`, vars: map[string]any{"id": tenAcme},
			action: "manage_tenant", operation: "tenant.settings_put", res: "tenants/" + tenAcme},
		{name: "member", method: http.MethodPut, path: "/api/v1/tenants/" + tenAcme + "/members/" + memberA, body: map[string]any{"role": "viewer"},
			query: `mutation($id: ID!, $u: ID!) { putTenantMember(id: $id, userId: $u, role: "viewer") { userId } }`,
			vars:  map[string]any{"id": tenAcme, "u": memberA}, action: "manage_tenant", operation: "tenant.member_put",
			res: "tenants/" + tenAcme + "/members/" + memberA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := e.withRequestID("rest-"+tc.name, ownerA, tc.method, tc.path, tc.body)
			if status != http.StatusOK {
				t.Fatalf("REST = %d %s", status, body)
			}
			status, body = e.withRequestID("gql-"+tc.name, ownerA, http.MethodPost, "/graphql", map[string]any{"query": tc.query,
				"variables": tc.vars})
			if status != http.StatusOK || strings.Contains(string(body), `"errors"`) {
				t.Fatalf("GraphQL = %d %s", status, body)
			}
			want := auditEvent{Action: tc.action, Operation: tc.operation, Resource: tc.res, CustomerID: custAcme, ActorID: ownerA,
				Decision: "allowed", Reason: "allowed", Status: 200}
			for _, rid := range []string{"rest-" + tc.name, "gql-" + tc.name} {
				got := e.auditOf(rid)
				if len(got) != 1 || got[0] != want {
					t.Errorf("%s: audit events %+v, want exactly %+v", rid, got, want)
				}
			}
		})
	}
}
