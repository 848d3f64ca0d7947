package admin

import (
	"context"
	"regexp"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// me is the caller's own data: who it is, what it may do, its focus mode
// and its notification subscriptions.
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

// Permissions is the body of GET /api/v1/me/permissions (D-me-permissions).
type Permissions struct {
	UserID     string        `json:"userId"`
	Role       authz.Role    `json:"role"`
	CustomerID *string       `json:"customerId"`
	Scope      ScopeView     `json:"scope"`
	Actions    []ActionGrant `json:"actions"`
}

// ScopeView is a resolved scope as the API shows it; an empty source means
// unscoped (R2.6-source).
type ScopeView struct {
	Source      string     `json:"source"`
	Mode        authz.Mode `json:"mode"`
	CustomerIDs []string   `json:"customerIds"`
	InstanceIDs []string   `json:"instanceIds"`
}

// ActionGrant is one action the caller holds and at which access.
type ActionGrant struct {
	Action authz.Action `json:"action"`
	Access authz.Access `json:"access"`
}

// Permissions returns what the caller may do: its role, customer, scope and
// every action it holds with its access (D-me-permissions).
func (s *me) Permissions(c *access.Caller) *Permissions {
	p := &Permissions{UserID: c.UserID, Role: c.Role,
		Scope: ScopeView{Source: c.Scope.Source, Mode: c.Scope.Mode, CustomerIDs: nonNil(c.Scope.CustomerIDs),
			InstanceIDs: nonNil(c.Scope.InstanceIDs)}}
	p.CustomerID = orNull(c.CustomerID)
	cat := s.access.Catalog()
	for _, act := range cat.AllowedOf(&c.Principal) {
		p.Actions = append(p.Actions, ActionGrant{Action: act, Access: cat.AccessOf(&c.Principal, act)})
	}
	return p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

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
		if c.Scoped() {
			return nil, platform.Errorf(platform.EFORBIDDEN, "not allowed: %s", authz.ReasonCustomerOutOfScope)
		}
		return nil, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
	} else if err != nil {
		return nil, err
	}
	if !c.MayFocus(in.CustomerID) {
		return nil, platform.Errorf(platform.EFORBIDDEN, "not allowed: %s", authz.ReasonCustomerOutOfScope)
	}
	now := s.stamp()
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

// eventTypePattern: dotted lower-case words, e.g. worker.failed.
var eventTypePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){0,7}$`)

// SubscriptionInput subscribes the caller to an event type.
type SubscriptionInput struct {
	EventType string `json:"eventType"`
}

// Subscription is one of the caller's notification subscriptions.
type Subscription struct {
	EventType string `json:"eventType"`
}

func validEventType(s string) error {
	if len(s) > 100 || !eventTypePattern.MatchString(s) {
		return platform.Errorf(platform.EINVALID, "eventType must be dotted lower-case words such as worker.failed")
	}
	return nil
}

// Subscriptions lists the caller's subscriptions.
func (s *me) Subscriptions(ctx context.Context, c *access.Caller) ([]Subscription, error) {
	if err := s.check(ctx, c, OpSubscriptionList, authz.Resource{}); err != nil {
		return nil, err
	}
	return listing(func(e *string) Subscription { return Subscription{EventType: *e} })(s.store.Subscriptions(ctx, c.UserID))
}

// Subscribe subscribes the caller to an event type; subscribing twice is
// one subscription. It grants no permission (R6-subscription).
func (s *me) Subscribe(ctx context.Context, c *access.Caller, in SubscriptionInput) (*Subscription, error) {
	if err := s.check(ctx, c, OpSubscriptionCreate, authz.Resource{}); err != nil {
		return nil, err
	}
	if err := validEventType(in.EventType); err != nil {
		return nil, err
	}
	err := s.audited(ctx, c, OpSubscriptionCreate, on("", "users", c.UserID, "subscriptions", in.EventType), func(tx *store.Store) error {
		return tx.Subscribe(ctx, c.UserID, in.EventType, s.now())
	})
	if err != nil {
		return nil, err
	}
	return &Subscription{EventType: in.EventType}, nil
}

// Unsubscribe removes a subscription. ENOTFOUND when there was none.
func (s *me) Unsubscribe(ctx context.Context, c *access.Caller, eventType string) error {
	if err := s.check(ctx, c, OpSubscriptionDelete, authz.Resource{}); err != nil {
		return err
	}
	if err := validEventType(eventType); err != nil {
		return err
	}
	return s.audited(ctx, c, OpSubscriptionDelete, on("", "users", c.UserID, "subscriptions", eventType), func(tx *store.Store) error {
		return tx.Unsubscribe(ctx, c.UserID, eventType)
	})
}
