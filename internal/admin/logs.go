package admin

import (
	"context"
	"fmt"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// logs reads the audit log and the e-mail log (email.go).
type logs struct{ *core }

// LogQuery pages through the audit or e-mail log, newest first: Cursor is
// the nextCursor of the previous page.
type LogQuery struct {
	ActorID string
	// Recipient narrows the e-mail log to addresses that contain it.
	Recipient string
	Cursor    string
	Limit     int
}

// AuditEvent is one entry of the audit log as the API, GraphQL, the
// webhooks and the export show it: the one schema of the audit trail
// (D-audit-trail, docs/api.md "Audit events").
type AuditEvent = audit.Event

// AuditQuery pages through the audit log, newest first, narrowed by the
// filters that are set: one actor (ActorID) or the actors whose address
// contains Actor, the events that acted on TargetID, one Kind, one
// Outcome (success, failure), a time range From ≤ time < To. Cursor is
// the nextCursor of the previous page.
type AuditQuery struct {
	ActorID, Actor, TargetID, Kind, Outcome string
	From, To                                time.Time
	Cursor                                  string
	Limit                                   int
}

// check refuses filters no event can meet as a request's mistake: an
// unknown kind or outcome, an address search past an address's length, a
// time range that ends before it begins. EINVALID naming each.
func (q AuditQuery) check() error {
	var problems []string
	if q.Kind != "" && !audit.Kind(q.Kind).Known() {
		problems = append(problems, fmt.Sprintf("kind %q is not a kind of audit event (docs/api.md lists them)", q.Kind))
	}
	if q.Outcome != "" && q.Outcome != audit.Success && q.Outcome != audit.Failure {
		problems = append(problems, "outcome must be success or failure")
	}
	if len(q.Actor) > 320 {
		problems = append(problems, "actor must be at most 320 characters")
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		problems = append(problems, "from must be before to")
	}
	if len(problems) > 0 {
		return &platform.Error{Code: platform.EINVALID, Message: "invalid audit log filter", Details: problems}
	}
	return nil
}

func newAuditEvent(e *store.AuditEvent) *AuditEvent {
	v := audit.FromRow(e)
	return &v
}

// AuditLog lists audit events the caller may read, newest first (the
// matrix row 'Audit log, email logs', R5.7-matrix): all for unscoped
// internal roles, the scope's customers' for scoped ones and focus mode,
// the home customer's for customer roles. A customer's readers see its
// users' security events, never a failed sign-in for an address without
// an account (platform-wide, D-audit-trail).
func (s *logs) AuditLog(ctx context.Context, c *access.Caller, q AuditQuery) (*Page[*AuditEvent], error) {
	if err := s.checkRole(ctx, c, OpAuditLog); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	return newestPage(platform.LogPages, q.Limit, func() ([]store.AuditEvent, string, error) {
		return s.store.AuditEvents(ctx, store.AuditQuery{Scope: c.Scope.Filter(), ActorID: q.ActorID, ActorEmail: q.Actor,
			TargetID: q.TargetID, Kind: q.Kind, Outcome: q.Outcome, From: q.From, To: q.To, Limit: q.Limit, Cursor: q.Cursor})
	}, newAuditEvent)
}

// AuditKinds lists the kinds of audit event (audit.Kinds), security events
// first: the choices of the log's kind filter.
func (s *logs) AuditKinds(ctx context.Context, c *access.Caller) ([]string, error) {
	if err := s.checkRole(ctx, c, OpAuditLog); err != nil {
		return nil, err
	}
	kinds := audit.Kinds()
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out, nil
}

// ExportQuery asks the export for the events after After (the cursor the
// previous answer gave; "" from the beginning), at most Limit
// (platform.ExportPages).
type ExportQuery struct {
	After string
	Limit int
}

// Export is one answer of the audit log's export: the events in the
// stream's order, and the cursor to resume from (After when nothing new).
type Export struct {
	Events []AuditEvent
	Next   string
}

// AuditExport answers the next events of the audit trail's stream the
// caller may read, scoped like AuditLog (D-audit-stream): the
// platform-wide stream for unscoped internal roles, the customers' own for
// everyone else. Following Next from answer to answer reads every event
// once, none lost while others are written.
func (s *logs) AuditExport(ctx context.Context, c *access.Caller, q ExportQuery) (*Export, error) {
	if err := s.checkRole(ctx, c, OpAuditExport); err != nil {
		return nil, err
	}
	if err := platform.ExportPages.Check("limit", q.Limit); err != nil {
		return nil, err
	}
	rows, next, err := s.store.AuditStream(ctx, store.AuditStreamQuery{Scope: c.Scope.Filter(), Cursor: q.After,
		Limit: platform.ExportPages.Size(q.Limit)})
	if err != nil {
		return nil, err
	}
	out := &Export{Events: make([]AuditEvent, len(rows)), Next: next}
	for i := range rows {
		out.Events[i] = audit.FromRow(&rows[i])
	}
	return out, nil
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
	recipient, err := cleanSearch(q.Recipient)
	if err != nil {
		return nil, err
	}
	q.Recipient = recipient
	return newestPage(platform.LogPages, q.Limit, func() ([]store.Email, string, error) {
		return s.store.EmailLog(ctx, store.EmailQuery{Scope: c.Scope.Filter(), UserID: q.ActorID, Recipient: q.Recipient,
			Limit: q.Limit, Cursor: q.Cursor})
	}, func(e *store.Email) EmailView {
		return EmailView{ID: e.ID, At: e.At, Recipient: e.Recipient, Kind: e.Kind, Subject: e.Subject, Status: e.Status,
			Reason: e.LastError, CustomerID: orNull(e.CustomerID), UserID: orNull(e.UserID)}
	})
}
