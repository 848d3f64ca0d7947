package admin

import (
	"context"
	"regexp"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

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
	evs, err := s.store.Subscriptions(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	out := make([]Subscription, 0, len(evs))
	for _, e := range evs {
		out = append(out, Subscription{EventType: e})
	}
	return out, nil
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
