package store

import (
	"context"
	"time"
)

// IdempotencyRecord is the first answer given to a caller's request with an
// Idempotency-Key.
type IdempotencyRecord struct {
	Caller      string
	Key         string
	RequestHash string
	Status      int
	Body        []byte
	CreatedAt   time.Time
}

// IdempotencyRecord returns the answer kept for a caller's key. ENOTFOUND.
func (s *Data) IdempotencyRecord(ctx context.Context, caller, key string) (*IdempotencyRecord, error) {
	r := IdempotencyRecord{Caller: caller, Key: key}
	err := s.db.QueryRow(ctx, `SELECT request_hash, status, body, created_at FROM idempotency WHERE caller = $1 AND key = $2`,
		caller, key).Scan(&r.RequestHash, &r.Status, &r.Body, &r.CreatedAt)
	return &r, wrap(err, "idempotency record")
}

// PutIdempotencyRecord keeps an answer. ECONFLICT when the caller's key is
// taken; on PostgreSQL that also ends a running transaction.
func (s *Data) PutIdempotencyRecord(ctx context.Context, r *IdempotencyRecord) error {
	_, err := s.db.Exec(ctx, `INSERT INTO idempotency (caller, key, request_hash, status, body, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, r.Caller, r.Key, r.RequestHash, r.Status, r.Body, r.CreatedAt.UTC())
	return wrap(err, "idempotency record")
}

// DeleteIdempotencyRecord removes the answer kept for a caller's key.
func (s *Data) DeleteIdempotencyRecord(ctx context.Context, caller, key string) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM idempotency WHERE caller = $1 AND key = $2`, caller, key)
}

// DeleteIdempotencyRecords removes answers kept since before t.
func (s *Data) DeleteIdempotencyRecords(ctx context.Context, before time.Time) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM idempotency WHERE created_at < $1`, before.UTC())
}
