package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// overview is the console's home: how many customers, tenants and
// customer users the caller's scope holds, with the users still invited and
// those locked out now.
type overview struct{ *core }

// Overview is the counts within the caller's scope; a count of what the
// caller's role may not list (by the list's operation) is nil, so the
// overview tells no more than the lists would.
type Overview struct {
	Customers          *int `json:"customers"`
	Tenants            *int `json:"tenants"`
	Users              *int `json:"users"`
	PendingInvitations *int `json:"pendingInvitations"`
	LockedUsers        *int `json:"lockedUsers"`
}

// Overview counts in one statement within the caller's scope, as the
// customers, tenants and users lists filter it.
func (s *overview) Overview(ctx context.Context, c *access.Caller) (*Overview, error) {
	if err := s.checkRole(ctx, c, OpOverview); err != nil {
		return nil, err
	}
	n, err := s.store.Counts(ctx, c.Scope.Filter(), s.now())
	if err != nil {
		return nil, err
	}
	reads := func(op Operation) bool {
		cat := s.access.Catalog()
		return cat.AccessOf(&c.Principal, op.Action) != authz.AccessNone ||
			op.Or != 0 && cat.AccessOf(&c.Principal, op.Or) != authz.AccessNone
	}
	count := func(op Operation, v int) *int {
		if !reads(op) {
			return nil
		}
		return &v
	}
	return &Overview{
		Customers:          count(OpCustomerList, n.Customers),
		Tenants:            count(OpTenantList, n.Tenants),
		Users:              count(OpUserList, n.Users),
		PendingInvitations: count(OpUserList, n.PendingInvitations),
		LockedUsers:        count(OpUserList, n.LockedUsers),
	}, nil
}
