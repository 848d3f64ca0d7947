package store

import (
	"context"
	"errors"
	"time"
)

// Allow counts one hit for key in the current window and reports whether
// it is within limit, and when the window ends. The count is a sliding
// window's: this window's hits and the previous window's, weighted by how
// much of the previous window the last window-long span still covers. A
// fixed window alone forgot every hit at each boundary, so a client could
// spend its limit on each side of one (twice the limit in a moment), and a
// burst that crossed a boundary was counted as two small ones.
func (s *System) Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Time, error) {
	start := now.Truncate(window)
	var hits int
	err := s.db.QueryRow(ctx, `INSERT INTO rate_counters (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1 RETURNING hits`,
		key, start.Unix()).Scan(&hits)
	if err != nil {
		return false, time.Time{}, err
	}
	var previous int
	err = s.db.QueryRow(ctx, `SELECT hits FROM rate_counters WHERE key = $1 AND window_start = $2`,
		key, start.Add(-window).Unix()).Scan(&previous)
	if err != nil && !errors.Is(err, ErrNoRows) {
		return false, time.Time{}, err
	}
	covered := 1 - float64(now.Sub(start))/float64(window)
	return float64(hits)+float64(previous)*covered <= float64(limit), start.Add(window), nil
}

// DeleteOldRateCounters removes windows that ended before now.
func (s *System) DeleteOldRateCounters(ctx context.Context, before time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM rate_counters WHERE window_start < $1`, before.Unix())
	return err
}
