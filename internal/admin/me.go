package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
)

// me is the caller's own data: who it is, what it may do, its focus mode
// and its notification subscriptions (focus.go, permissions.go,
// subscription.go).
type me struct{ *core }

// Profile is who the caller is: its user's e-mail and name.
type Profile struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

// Profile returns the caller's own e-mail and name; every caller may read its own.
func (s *me) Profile(ctx context.Context, c *access.Caller) (*Profile, error) {
	u, err := s.store.User(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	return &Profile{Email: u.Email, Name: u.Name}, nil
}
