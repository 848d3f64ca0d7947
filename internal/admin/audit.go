package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// logs reads the audit log and the e-mail log (email.go).
type logs struct{ *core }

// LogQuery pages through the audit or e-mail log, newest first: Cursor is
// the nextCursor of the previous page.
type LogQuery struct {
	ActorID string
	Cursor  string
	Limit   int
}

// logScope returns the customers whose events the caller may read: all for
// unscoped internal roles, the scope's customers for scoped ones and focus
// mode, the home customer for customer roles.
func (s *logs) logScope(ctx context.Context, c *access.Caller, op Operation) (authz.Filter, error) {
	if err := s.checkRole(ctx, c, op); err != nil {
		return authz.Filter{}, err
	}
	return c.Scope.Filter(), nil
}

// logLimit checks a page size of the audit and e-mail logs (platform.LogPages).
func logLimit(q LogQuery) error { return platform.LogPages.Check("limit", q.Limit) }

// AuditEvent is one entry of the audit log as the API and GraphQL show it:
// a denied decision or an admin write (D-audit-events); customerId is empty
// for events of no customer, operation for denials.
type AuditEvent struct {
	ID         string    `json:"id"`
	At         time.Time `json:"at"`
	ActorID    string    `json:"actorId"`
	CustomerID string    `json:"customerId,omitempty"`
	Action     string    `json:"action"`
	Operation  string    `json:"operation"`
	Resource   string    `json:"resource"`
	Decision   string    `json:"decision"` // allowed or denied
	Reason     string    `json:"reason"`
	Status     int       `json:"status"`
	RequestID  string    `json:"requestId"`
}

func newAuditEvent(e *store.AuditEvent) *AuditEvent {
	return &AuditEvent{ID: e.ID, At: e.At, ActorID: e.ActorID, CustomerID: e.CustomerID, Action: e.Action, Operation: e.Operation,
		Resource: e.Resource, Decision: e.Decision, Reason: e.Reason, Status: e.Status, RequestID: e.RequestID}
}

// AuditLog lists audit events the caller may read, newest first (R: the
// matrix row 'Audit log, email logs').
func (s *logs) AuditLog(ctx context.Context, c *access.Caller, q LogQuery) (*Page[*AuditEvent], error) {
	scope, err := s.logScope(ctx, c, OpAuditLog)
	if err != nil {
		return nil, err
	}
	if err := logLimit(q); err != nil {
		return nil, err
	}
	evs, next, err := s.store.AuditEvents(ctx, store.AuditQuery{Scope: scope, ActorID: q.ActorID, Limit: q.Limit, Cursor: q.Cursor})
	if err != nil {
		return nil, err
	}
	return newPage(views(evs, newAuditEvent), next), nil
}
