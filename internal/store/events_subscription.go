package store

import (
	"context"
	"time"
)

// Subscribe records a notification subscription; it grants nothing (R6-subscription).
func (s *Events) Subscribe(ctx context.Context, userID, eventType string, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO notification_subscriptions (user_id, event_type, created_at) VALUES ($1, $2, $3)
		ON CONFLICT DO NOTHING`, userID, eventType, now.UTC())
	return err
}

// Unsubscribe removes a notification subscription. ENOTFOUND when missing.
func (s *Events) Unsubscribe(ctx context.Context, userID, eventType string) error {
	return s.execOne(ctx, "subscription", `DELETE FROM notification_subscriptions WHERE user_id = $1 AND event_type = $2`, userID, eventType)
}

// Subscriptions lists a user's notification subscriptions by event type.
func (s *Events) Subscriptions(ctx context.Context, userID string) ([]string, error) {
	return queryAll(ctx, s.db, scanString, `SELECT event_type FROM notification_subscriptions WHERE user_id = $1 ORDER BY event_type`, userID)
}
