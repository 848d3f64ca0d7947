package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/authz"
)

// Counts are how many customers, tenants and customers' users a scope
// holds, with the users whose invitation is not accepted yet and those
// locked out by failed sign-ins now: the console's overview.
type Counts struct {
	Customers, Tenants, Users, PendingInvitations, LockedUsers int
}

// Counts counts within f in one statement, each count by the condition its
// list uses (ListCustomers, ListTenants, ListCustomerUsers); service
// accounts' users are not users here either.
func (s *Tenancy) Counts(ctx context.Context, f authz.Filter, now time.Time) (Counts, error) {
	var n Counts
	if f.Empty() {
		return n, nil
	}
	args := []any{now.UTC()}
	customer := scopeCondition(&args, f, "c.id", "")
	tenant := scopeCondition(&args, f, "t.customer_id", "t.instance_id")
	users := customerUserFrom + `WHERE ` + customer
	err := s.db.QueryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM customers c WHERE `+customer+`),
		(SELECT COUNT(*) FROM tenants t WHERE `+tenant+`),
		(SELECT COUNT(*) `+users+`),
		(SELECT COUNT(*) `+users+` AND `+pendingCondition+`),
		(SELECT COUNT(*) `+users+` AND u.locked_until IS NOT NULL AND u.locked_until > $1)`, args...).
		Scan(&n.Customers, &n.Tenants, &n.Users, &n.PendingInvitations, &n.LockedUsers)
	return n, err
}
