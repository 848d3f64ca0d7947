package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/authz"
)

// Email is one e-mail of the outbox and its log (events_outbox.go): queued, sent,
// failed, or not configured (no mail server). BodySealed is the sealed
// text and HTML, dropped once the message is sent.
type Email struct {
	ID            string
	At            time.Time
	CustomerID    string
	Recipient     string
	Kind          string
	Subject       string
	Status        string
	UserID        string
	BodySealed    []byte
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	SentAt        *time.Time
}

// EmailQuery selects e-mails, newest first: within Scope, one page of at
// most Limit (default 100, at most 1000) after Cursor (the previous page's
// next cursor).
type EmailQuery struct {
	Scope authz.Filter
	// UserID narrows to the e-mails sent to one user; Recipient to those
	// whose address contains it, case-insensitively ("" for either: all).
	UserID    string
	Recipient string
	Limit     int
	Cursor    string
}

// EmailLog lists one page of sent e-mails, newest first, and the cursor of
// the next page ("" on the last). EINVALID for a malformed cursor.
func (s *Events) EmailLog(ctx context.Context, q EmailQuery) ([]Email, string, error) {
	if err := checkNewestCursor(q.Cursor); err != nil || q.Scope.Empty() {
		return nil, "", err
	}
	var args []any
	cond := scopeCondition(&args, q.Scope, "customer_id", "") + ` AND ` + containsCondition(&args, q.Recipient, "recipient")
	if q.UserID != "" {
		cond += ` AND user_id = ` + arg(&args, q.UserID)
	}
	return newestPage(ctx, s.db, q.Cursor, q.Limit, `SELECT `+outboxColumns+` FROM email_log`, cond, args, "at", scanOutbox,
		func(e *Email) (time.Time, string) { return e.At, e.ID })
}
