package admin

import (
	"context"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Budgets of what one customer keeps (D-request-bounds). Each webhook gets
// a delivery of every event of its customer, attempted up to ten times by
// the dispatcher long after the request that made it; identity providers
// and service accounts are answered in one list each, and every service
// account is an application at the identity provider. Without a budget a
// customer's admin (or a script with its token) multiplies the platform's
// background work and the size of its answers without end.
const (
	MaxWebhooks          = 20
	MaxIdentityProviders = 10
	MaxServiceAccounts   = 50
)

// budgets are the limits and their nouns, by what they count.
var budgets = map[store.CustomerRows]struct {
	max  int
	noun string
}{
	store.CustomerWebhooks:          {MaxWebhooks, "webhooks"},
	store.CustomerIdentityProviders: {MaxIdentityProviders, "identity providers"},
	store.CustomerServiceAccounts:   {MaxServiceAccounts, "service accounts"},
}

// withinBudget refuses one more row of what for customerID once the
// customer has its budget's number: ECONFLICT (409), nothing written. Call
// it with the transaction that adds the row (tx), which it holds the
// customer in.
func withinBudget(ctx context.Context, tx *store.Store, what store.CustomerRows, customerID string) error {
	n, err := tx.CountCustomerRows(ctx, what, customerID)
	if err != nil {
		return err
	}
	if b := budgets[what]; n >= b.max {
		return platform.Errorf(platform.ECONFLICT, "a customer has at most %d %s; remove one before adding another", b.max, b.noun)
	}
	return nil
}
