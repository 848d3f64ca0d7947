package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

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

// EmailLog lists e-mails the platform sent that the caller may read, newest first.
func (s *logs) EmailLog(ctx context.Context, c *access.Caller, q LogQuery) (*Page[EmailView], error) {
	scope, err := s.logScope(ctx, c, OpEmailLog)
	if err != nil {
		return nil, err
	}
	if err := logLimit(q); err != nil {
		return nil, err
	}
	es, next, err := s.store.EmailLog(ctx, store.EmailQuery{Scope: scope, Limit: q.Limit, Cursor: q.Cursor})
	if err != nil {
		return nil, err
	}
	out := make([]EmailView, 0, len(es))
	for _, e := range es {
		v := EmailView{ID: e.ID, At: e.At, Recipient: e.Recipient, Kind: e.Kind, Subject: e.Subject, Status: e.Status,
			Reason: e.LastError}
		v.CustomerID, v.UserID = orNull(e.CustomerID), orNull(e.UserID)
		out = append(out, v)
	}
	return newPage(out, next), nil
}
