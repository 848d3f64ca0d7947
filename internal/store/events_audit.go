package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/authz"
)

// AuditEvent is one entry of the audit log.
type AuditEvent struct {
	ID         string
	At         time.Time
	ActorID    string
	CustomerID string
	Action     string
	// Operation is the declared administration operation of an allowed
	// write ("tenant.update"); "" for denials and other events.
	Operation string
	Resource  string
	Decision  string // allowed or denied
	Reason    string
	Status    int
	RequestID string
}

// auditColumns are the columns of audit_log (aliased a) in AuditEvent's order.
const auditColumns = `a.id, a.at, a.actor_id, COALESCE(a.customer_id, ''), a.action, a.operation, a.resource, a.decision,
	a.reason, a.status, a.request_id`

// auditDest is where a row of auditColumns is scanned to.
func auditDest(e *AuditEvent) []any {
	return []any{&e.ID, &e.At, &e.ActorID, &e.CustomerID, &e.Action, &e.Operation, &e.Resource, &e.Decision, &e.Reason,
		&e.Status, &e.RequestID}
}

// AppendAudit stores an audit event.
func (s *Events) AppendAudit(ctx context.Context, e *AuditEvent) error {
	_, err := s.db.Exec(ctx, `INSERT INTO audit_log (id, at, actor_id, customer_id, action, operation, resource, decision, reason,
		status, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, e.ID, e.At.UTC(), e.ActorID, nullString(e.CustomerID),
		e.Action, e.Operation, e.Resource, e.Decision, e.Reason, e.Status, e.RequestID)
	return wrap(err, "audit event")
}

// AuditQuery selects audit events, newest first: of ActorID when set,
// within Scope (events of no customer only when it lets everything
// through), one page of at most Limit (default 100, at most 1000) after
// Cursor (the previous page's next cursor).
type AuditQuery struct {
	Scope   authz.Filter
	ActorID string
	Limit   int
	Cursor  string
}

// AuditEvents lists one page of audit events, newest first, and the cursor
// of the next page ("" on the last). EINVALID for a malformed cursor.
func (s *Events) AuditEvents(ctx context.Context, q AuditQuery) ([]AuditEvent, string, error) {
	if err := checkNewestCursor(q.Cursor); err != nil || q.Scope.Empty() {
		return nil, "", err
	}
	args := []any{q.ActorID}
	cond := `($1 = '' OR actor_id = $1) AND ` + scopeCondition(&args, q.Scope, "customer_id", "")
	return newestPage(ctx, s.db, q.Cursor, q.Limit, `SELECT `+auditColumns+` FROM audit_log a`, cond, args, "at",
		func(r Row) (AuditEvent, error) {
			var e AuditEvent
			return e, r.Scan(auditDest(&e)...)
		}, func(e *AuditEvent) (time.Time, string) { return e.At, e.ID })
}
