package store

import (
	"context"
	"time"
)

// FocusMode is a user's live focus mode.
type FocusMode struct {
	UserID     string
	CustomerID string
	StartedAt  time.Time
	ExpiresAt  time.Time
}

const focusColumns = `user_id, customer_id, started_at, expires_at`

// Focus returns a user's focus mode live at now. ENOTFOUND when off.
func (s *Tenancy) Focus(ctx context.Context, userID string, now time.Time) (*FocusMode, error) {
	var f FocusMode
	err := s.db.QueryRow(ctx, `SELECT `+focusColumns+` FROM focus_modes
		WHERE user_id = $1 AND expires_at > $2`, userID, now.UTC()).Scan(&f.UserID, &f.CustomerID, &f.StartedAt, &f.ExpiresAt)
	return &f, wrap(err, "focus mode")
}

// SetFocus turns focus mode on for a user until expires.
func (s *Tenancy) SetFocus(ctx context.Context, userID, customerID string, now, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO focus_modes (`+focusColumns+`) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET customer_id = EXCLUDED.customer_id, started_at = EXCLUDED.started_at,
		expires_at = EXCLUDED.expires_at`, userID, customerID, now.UTC(), expires.UTC())
	return wrap(err, "focus mode")
}

// ClearFocus turns focus mode off.
func (s *Tenancy) ClearFocus(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM focus_modes WHERE user_id = $1`, userID)
	return err
}
