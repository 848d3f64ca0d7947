package store

import (
	"context"
	"database/sql"

	"github.com/platform/platform/internal/platform"
)

// PutConsoleUser sets a user's console role.
func (s *Identity) PutConsoleUser(ctx context.Context, u *platform.ConsoleUser) error {
	_, err := s.db.Exec(ctx, `INSERT INTO console_users (user_id, role, customer_id, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role, customer_id = EXCLUDED.customer_id`,
		u.UserID, u.Role, nullString(u.CustomerID), u.CreatedAt.UTC())
	return wrap(err, "console user")
}

// ConsoleUser returns a user's console role. ENOTFOUND when the user has none.
func (s *Identity) ConsoleUser(ctx context.Context, userID string) (*platform.ConsoleUser, error) {
	var u platform.ConsoleUser
	var customer sql.NullString
	err := s.db.QueryRow(ctx, `SELECT user_id, role, customer_id, created_at FROM console_users WHERE user_id = $1`, userID).
		Scan(&u.UserID, &u.Role, &customer, &u.CreatedAt)
	u.CustomerID = customer.String
	return &u, wrap(err, "console user")
}
