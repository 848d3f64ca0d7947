package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// MaxRateWindow is the longest window Allow counts in. DeleteOldRateCounters
// keeps every window a count can still read: the current one and the one
// before it.
const MaxRateWindow = time.Hour

// Allow counts one hit for key in the current window and reports whether
// it is within limit, and when the window ends. The count is a sliding
// window's: this window's hits and the previous window's, weighted by how
// much of the previous window the last window-long span still covers. A
// fixed window alone forgot every hit at each boundary, so a client could
// spend its limit on each side of one (twice the limit in a moment), and a
// burst that crossed a boundary was counted as two small ones. One
// statement counts the hit and reads the previous window.
func (s *System) Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Time, error) {
	if window <= 0 || window > MaxRateWindow {
		return false, time.Time{}, fmt.Errorf("rate window %v: want up to %v", window, MaxRateWindow)
	}
	start := now.Truncate(window)
	var hits int
	var previous sql.NullInt64
	err := s.db.QueryRow(ctx, `INSERT INTO rate_counters (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
		RETURNING hits, (SELECT p.hits FROM rate_counters p WHERE p.key = $1 AND p.window_start = $3)`,
		key, start.Unix(), start.Add(-window).Unix()).Scan(&hits, &previous)
	if err != nil {
		return false, time.Time{}, err
	}
	covered := 1 - float64(now.Sub(start))/float64(window)
	return float64(hits)+float64(previous.Int64)*covered <= float64(limit), start.Add(window), nil
}

// DeleteOldRateCounters removes the windows no count reads any more at now:
// those that began before the previous window of the longest one.
func (s *System) DeleteOldRateCounters(ctx context.Context, now time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM rate_counters WHERE window_start < $1`, now.Add(-2*MaxRateWindow).Unix())
	return err
}
