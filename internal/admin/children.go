package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// The parent → children batches of the GraphQL edges (D-graphql-edges): each
// answers, in key order, the children of every parent key in one SQL
// statement, the caller's scope applied in SQL, at most limit
// (platform.ChildPages) per parent. A role that does
// not hold the children's action gets EFORBIDDEN, as the paged list would
// answer.

// TenantsByCustomerIDs returns each customer's tenants (Customer.tenants).
func (s *Service) TenantsByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Tenant, error) {
	return childBatch(ctx, s, c, OpTenantList, limit, ids, func(t *store.Tenant) string { return t.CustomerID }, newTenant,
		s.store.TenantsByCustomerIDs)
}

// TenantsByInstanceIDs returns the tenants on each instance (Instance.tenants).
func (s *Service) TenantsByInstanceIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Tenant, error) {
	return childBatch(ctx, s, c, OpTenantList, limit, ids, func(t *store.Tenant) string { return t.InstanceID }, newTenant,
		s.store.TenantsByInstanceIDs)
}

// InstancesByCustomerIDs returns each customer's instances (Customer.instances).
func (s *Service) InstancesByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Instance, error) {
	return childBatch(ctx, s, c, OpInstanceList, limit, ids, func(i *store.InstanceRow) string { return i.CustomerID },
		s.instanceView(c), s.store.InstancesByCustomerIDs)
}

// UsersByCustomerIDs returns each customer's users (Customer.users).
func (s *Service) UsersByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*CustomerUserView, error) {
	return childBatch(ctx, s, c, OpUserList, limit, ids, func(u *store.CustomerUser) string { return u.CustomerID },
		newCustomerUser, s.store.CustomerUsersByCustomerIDs)
}

// InternalUsersByIDs returns the internal users of ids in key order, nil
// where missing (Grant.user); roles that may not read internal users get
// EFORBIDDEN.
func (s *Service) InternalUsersByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*InternalUser, error) {
	if err := s.checkRole(ctx, c, OpInternalUserList); err != nil {
		return nil, err
	}
	rows, err := s.store.InternalUsersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	by := make(map[string]*InternalUser, len(rows))
	for i := range rows {
		by[rows[i].ID] = newInternalUser(&rows[i])
	}
	out := make([]*InternalUser, len(ids))
	for i, id := range ids {
		out[i] = by[id]
	}
	return out, nil
}

// childBatch checks the caller's role for op, loads at most limit children
// of each of ids within its scope and groups their views by parent, in key
// order.
func childBatch[R, V any](ctx context.Context, s *Service, c *access.Caller, op Operation, limit int, ids []string,
	parent func(*R) string, view func(*R) *V, load func(context.Context, authz.Filter, int, []string) ([]R, error)) ([][]*V, error) {
	if err := s.checkRole(ctx, c, op); err != nil {
		return nil, err
	}
	rows, err := load(ctx, c.Scope.Filter(), limit, ids)
	if err != nil {
		return nil, err
	}
	by := map[string][]*V{}
	for i := range rows {
		p := parent(&rows[i])
		by[p] = append(by[p], view(&rows[i]))
	}
	out := make([][]*V, len(ids))
	for i, id := range ids {
		out[i] = by[id]
		if out[i] == nil {
			out[i] = []*V{}
		}
	}
	return out, nil
}
