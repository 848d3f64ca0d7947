package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Focus mode bounds (minutes).
const (
	DefaultFocusMinutes = 60
	MaxFocusMinutes     = 12 * 60
)

// FocusInput turns focus mode on for a customer for Minutes (default 60, at most 720).
type FocusInput struct {
	CustomerID string `json:"customerId"`
	Minutes    int    `json:"minutes,omitempty"`
}

// Focus is the caller's focus mode; Active false when off.
type Focus struct {
	Active     bool       `json:"active"`
	CustomerID *string    `json:"customerId"`
	StartedAt  *time.Time `json:"startedAt"`
	ExpiresAt  *time.Time `json:"expiresAt"`
	// Scope is the scope the caller's requests now resolve to.
	Scope ScopeView `json:"scope"`
}

func (s *me) focusView(ctx context.Context, caller *access.Caller) (*Focus, error) {
	c, err := s.access.Load(ctx, caller.Identity()) // the scope as the caller's next request resolves it
	if err != nil {
		return nil, err
	}
	userID := c.UserID
	f := &Focus{Scope: ScopeView{Source: c.Scope.Source, Mode: c.Scope.Mode, CustomerIDs: nonNil(c.Scope.CustomerIDs),
		InstanceIDs: nonNil(c.Scope.InstanceIDs)}}
	fm, err := s.store.Focus(ctx, userID, s.now())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return f, nil
	} else if err != nil {
		return nil, err
	}
	f.Active, f.CustomerID, f.StartedAt, f.ExpiresAt = true, &fm.CustomerID, &fm.StartedAt, &fm.ExpiresAt
	return f, nil
}

// Focus returns the caller's focus mode.
func (s *me) Focus(ctx context.Context, c *access.Caller) (*Focus, error) {
	if err := s.check(ctx, c, OpFocusGet, authz.Resource{}); err != nil {
		return nil, err
	}
	return s.focusView(ctx, c)
}

// EnterFocus turns focus mode on: until it ends, the caller's requests see
// only that customer, and other customers' ids answer 404 (R5.7-soft). Only
// internal roles may; a scoped role only on a customer it is granted
// (EFORBIDDEN otherwise). EINVALID for a missing customer or bad minutes.
func (s *me) EnterFocus(ctx context.Context, c *access.Caller, in FocusInput) (*Focus, error) {
	if err := s.check(ctx, c, OpFocusEnter, authz.Resource{}); err != nil {
		return nil, err
	}
	if !c.Role.Internal() {
		return nil, platform.Errorf(platform.EFORBIDDEN, "focus mode is for internal users")
	}
	if in.Minutes == 0 {
		in.Minutes = DefaultFocusMinutes
	}
	if in.Minutes < 1 || in.Minutes > MaxFocusMinutes {
		return nil, platform.Errorf(platform.EINVALID, "minutes must be between 1 and %d", MaxFocusMinutes)
	}
	if in.CustomerID == "" {
		return nil, platform.Errorf(platform.EINVALID, "customerId is required")
	}
	if _, err := s.store.Customer(ctx, in.CustomerID); platform.ErrorCode(err) == platform.ENOTFOUND {
		if c.Role.Scoped() {
			return nil, platform.Errorf(platform.EFORBIDDEN, "not allowed: %s", authz.ReasonCustomerOutOfScope)
		}
		return nil, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
	} else if err != nil {
		return nil, err
	}
	if !c.MayFocus(in.CustomerID) {
		return nil, platform.Errorf(platform.EFORBIDDEN, "not allowed: %s", authz.ReasonCustomerOutOfScope)
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	// the lens is the caller's own: its events name no customer
	err := s.audited(ctx, c, OpFocusEnter, on("", "users", c.UserID, "focus"), func(tx *store.Store) error {
		return tx.SetFocus(ctx, c.UserID, in.CustomerID, now, now.Add(time.Duration(in.Minutes)*time.Minute))
	})
	if err != nil {
		return nil, err
	}
	return s.focusView(ctx, c)
}

// LeaveFocus turns focus mode off (nothing happens when it is off).
func (s *me) LeaveFocus(ctx context.Context, c *access.Caller) error {
	if err := s.check(ctx, c, OpFocusLeave, authz.Resource{}); err != nil {
		return err
	}
	return s.audited(ctx, c, OpFocusLeave, on("", "users", c.UserID, "focus"), func(tx *store.Store) error {
		return tx.ClearFocus(ctx, c.UserID)
	})
}
