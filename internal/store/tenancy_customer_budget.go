package store

import (
	"context"
	"fmt"
)

// CustomerRows names what a customer keeps that has a budget: rows the
// platform works for later or answers in one list.
type CustomerRows string

// The budgeted rows of a customer; each names its table.
const (
	CustomerWebhooks          CustomerRows = "webhooks"
	CustomerIdentityProviders CustomerRows = "customer_idp_configs"
	CustomerServiceAccounts   CustomerRows = "service_accounts"
)

// CountCustomerRows returns how many rows of what the customer has, holding
// the customer's row until the transaction ends (FOR UPDATE on PostgreSQL;
// a SQLite transaction holds the write lock already). Called in the
// transaction that adds a row, it keeps concurrent adds from passing a
// budget together. ENOTFOUND for a missing customer.
func (s *Tenancy) CountCustomerRows(ctx context.Context, what CustomerRows, customerID string) (int, error) {
	switch what {
	case CustomerWebhooks, CustomerIdentityProviders, CustomerServiceAccounts:
	default:
		return 0, fmt.Errorf("store: no budget for %q", what)
	}
	var id string
	if err := s.db.QueryRow(ctx, `SELECT id FROM customers WHERE id = $1`+s.forUpdate(), customerID).Scan(&id); err != nil {
		return 0, wrap(err, "customer")
	}
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM `+string(what)+` WHERE customer_id = $1`, customerID).Scan(&n)
	return n, err
}
