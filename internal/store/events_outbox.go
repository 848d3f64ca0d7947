package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

// E-mail statuses (D-mail).
const (
	EmailQueued        = "queued"
	EmailSent          = "sent"
	EmailFailed        = "failed"
	EmailNotConfigured = "not configured"
)

const outboxColumns = `id, at, COALESCE(customer_id, ''), recipient, kind, subject, status, COALESCE(user_id, ''),
	body_sealed, attempts, next_attempt_at, last_error, sent_at`

func scanOutbox(r Row) (Email, error) {
	var e Email
	var sent, next sql.NullTime
	err := r.Scan(&e.ID, &e.At, &e.CustomerID, &e.Recipient, &e.Kind, &e.Subject, &e.Status, &e.UserID, &e.BodySealed,
		&e.Attempts, &next, &e.LastError, &sent)
	e.SentAt = timePtr(sent)
	if e.NextAttemptAt = e.At; next.Valid {
		e.NextAttemptAt = next.Time
	}
	return e, err
}

// QueueEmail writes a message to the outbox, queued and due at once (call
// it in the transaction of the change that causes it).
func (s *Events) QueueEmail(ctx context.Context, e *Email) error {
	e.Status = EmailQueued
	if e.NextAttemptAt.IsZero() {
		e.NextAttemptAt = e.At
	}
	_, err := s.db.Exec(ctx, `INSERT INTO email_log (id, at, customer_id, recipient, kind, subject, status, user_id,
		body_sealed, attempts, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10)`, e.ID, e.At.UTC(),
		nullString(e.CustomerID), e.Recipient, e.Kind, e.Subject, e.Status, nullString(e.UserID), e.BodySealed,
		e.NextAttemptAt.UTC())
	return wrap(err, "e-mail")
}

// OutboxEmail returns one message with its sealed body. ENOTFOUND.
func (s *Events) OutboxEmail(ctx context.Context, id string) (*Email, error) {
	return queryOne(ctx, s.db, "e-mail", scanOutbox, `SELECT `+outboxColumns+` FROM email_log WHERE id = $1`, id)
}

// DueEmails lists queued messages due at now, oldest due first.
func (s *Events) DueEmails(ctx context.Context, now time.Time, limit int) ([]Email, error) {
	return due(ctx, s.db, emailQueue, outboxColumns, scanOutbox, now, limit)
}

// ClaimEmail leases a due message until leaseUntil, so one worker among
// replicas sends it: true when this caller won it.
func (s *Events) ClaimEmail(ctx context.Context, id string, now, leaseUntil time.Time) (bool, error) {
	return emailQueue.claim(ctx, s.db, id, now, leaseUntil)
}

// RecordEmailAttempt stores how an attempt went: status, attempts, next
// attempt, error; a sent message loses its body.
func (s *Events) RecordEmailAttempt(ctx context.Context, e *Email) error {
	if e.Status == EmailSent {
		e.BodySealed = nil
	}
	return s.execOne(ctx, "e-mail", `UPDATE email_log SET status = $2, attempts = $3, next_attempt_at = $4, last_error = $5,
		sent_at = $6, body_sealed = $7 WHERE id = $1`, e.ID, e.Status, e.Attempts, e.NextAttemptAt.UTC(), e.LastError,
		nullTimePtr(e.SentAt), e.BodySealed)
}

// Mailbox lists the newest messages that still have their body, newest
// first: the development mailbox of the all-in-one role.
func (s *Events) Mailbox(ctx context.Context, limit int) ([]Email, error) {
	return queryAll(ctx, s.db, scanOutbox, `SELECT `+outboxColumns+` FROM email_log
		WHERE body_sealed IS NOT NULL ORDER BY at DESC, id DESC LIMIT $1`, platform.NewestPages.Size(limit))
}
