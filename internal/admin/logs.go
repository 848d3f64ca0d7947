package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
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

// AuditLog lists audit events the caller may read, newest first (the
// matrix row 'Audit log, email logs', R5.7-matrix): all for unscoped
// internal roles, the scope's customers' for scoped ones and focus mode,
// the home customer's for customer roles.
func (s *logs) AuditLog(ctx context.Context, c *access.Caller, q LogQuery) (*Page[*AuditEvent], error) {
	if err := s.checkRole(ctx, c, OpAuditLog); err != nil {
		return nil, err
	}
	return newestPage(platform.LogPages, q.Limit, func() ([]store.AuditEvent, string, error) {
		return s.store.AuditEvents(ctx, store.AuditQuery{Scope: c.Scope.Filter(), ActorID: q.ActorID, Limit: q.Limit, Cursor: q.Cursor})
	}, newAuditEvent)
}

// EmailView is one e-mail of the platform's outbox: its status is queued,
// sent, failed, or not configured (D-mail).
type EmailView struct {
	ID         string    `json:"id"`
	At         time.Time `json:"at"`
	CustomerID *string   `json:"customerId"`
	Recipient  string    `json:"recipient"`
	Kind       string    `json:"kind"`
	Subject    string    `json:"subject"`
	Status     string    `json:"status"`
	UserID     *string   `json:"userId"`
	// Reason is why the last attempt failed, or why nothing is sent ("no
	// mail server is configured").
	Reason string `json:"reason,omitempty"`
}

// EmailLog lists e-mails the platform sent that the caller may read, newest
// first, by the audit log's rule.
func (s *logs) EmailLog(ctx context.Context, c *access.Caller, q LogQuery) (*Page[EmailView], error) {
	if err := s.checkRole(ctx, c, OpEmailLog); err != nil {
		return nil, err
	}
	return newestPage(platform.LogPages, q.Limit, func() ([]store.Email, string, error) {
		return s.store.EmailLog(ctx, store.EmailQuery{Scope: c.Scope.Filter(), Limit: q.Limit, Cursor: q.Cursor})
	}, func(e *store.Email) EmailView {
		return EmailView{ID: e.ID, At: e.At, Recipient: e.Recipient, Kind: e.Kind, Subject: e.Subject, Status: e.Status,
			Reason: e.LastError, CustomerID: orNull(e.CustomerID), UserID: orNull(e.UserID)}
	})
}
