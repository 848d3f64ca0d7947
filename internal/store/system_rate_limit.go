package store

import (
	"context"
	"time"
)

// Allow counts one hit for key in the current fixed window and reports
// whether it is within limit, and when the window ends.
func (s *System) Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Time, error) {
	start := now.Truncate(window)
	var hits int
	err := s.db.QueryRow(ctx, `INSERT INTO rate_counters (key, window_start, hits) VALUES ($1, $2, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1 RETURNING hits`,
		key, start.Unix()).Scan(&hits)
	if err != nil {
		return false, time.Time{}, err
	}
	return hits <= limit, start.Add(window), nil
}

// DeleteOldRateCounters removes windows that ended before now.
func (s *System) DeleteOldRateCounters(ctx context.Context, before time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM rate_counters WHERE window_start < $1`, before.Unix())
	return err
}
