package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// queue is a table of leased deliveries (the e-mail outbox, webhook
// deliveries): a row waits in status pending until next_attempt_at; a
// claim moves next_attempt_at to the end of its lease, so one worker among
// replicas attempts it.
type queue struct{ table, pending string }

var (
	emailQueue   = queue{"email_log", EmailQueued}
	webhookQueue = queue{"webhook_deliveries", DeliveryPending}
)

// due lists the rows (their columns, read with scan) waiting at now, oldest
// due first, at most limit (platform.NewestPages).
func due[T any](ctx context.Context, db DB, q queue, columns string, scan func(Row) (T, error), now time.Time, limit int) ([]T, error) {
	return queryAll(ctx, db, scan, `SELECT `+columns+` FROM `+q.table+` WHERE status = '`+q.pending+`'
		AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`, now.UTC(), platform.NewestPages.Size(limit))
}

// claim leases row id until leaseUntil: true when this caller won it (it
// was still waiting and due at now).
func (q queue) claim(ctx context.Context, db DB, id string, now, leaseUntil time.Time) (bool, error) {
	n, err := db.Exec(ctx, `UPDATE `+q.table+` SET next_attempt_at = $3
		WHERE id = $1 AND status = '`+q.pending+`' AND next_attempt_at <= $2`, id, now.UTC(), leaseUntil.UTC())
	return n == 1, err
}
