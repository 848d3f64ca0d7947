package store

import (
	"context"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// children is a parent → children batch: the children's columns and FROM
// clause, the parent's key column, the order within a parent, and the
// columns of a child's customer and instance the caller's scope is
// rendered on (scopeCondition).
type children struct{ columns, from, parentCol, order, customerCol, instanceCol string }

// childrenOf returns, in one statement, at most limit (platform.ChildPages)
// children per parent of parents within f, ranked within their parent by
// the batch's order.
func childrenOf[T any](ctx context.Context, db DB, b children, scan func(Row) (T, error), f authz.Filter, limit int,
	parents []string) ([]T, error) {
	if f.Empty() || len(parents) == 0 {
		return nil, nil
	}
	var args []any
	where := scopeCondition(&args, f, b.customerCol, b.instanceCol) + ` AND ` + b.parentCol + ` IN (` + placeholders(&args, parents) + `)`
	q := `SELECT * FROM (SELECT ` + b.columns + `, ROW_NUMBER() OVER (PARTITION BY ` + b.parentCol + ` ORDER BY ` + b.order +
		`) AS child_rank ` + b.from + ` WHERE ` + where + `) ranked WHERE child_rank <= ` + arg(&args, platform.ChildPages.Size(limit)) + ` ORDER BY child_rank`
	// the last column is the child's rank within its parent
	return queryAll(ctx, db, func(r Row) (T, error) { return scan(scanAlso{r, []any{new(int64)}}) }, q, args...)
}

// TenantsByCustomerIDs returns the tenants of the customers within f, at
// most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Tenancy) TenantsByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]Tenant, error) {
	return childrenOf(ctx, s.db, children{tenantColumns, `FROM tenants`, "customer_id", "name, id", "customer_id", "instance_id"},
		scanTenant, f, limit, customerIDs)
}

// TenantsByInstanceIDs returns the tenants on the instances within f, at
// most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Tenancy) TenantsByInstanceIDs(ctx context.Context, f authz.Filter, limit int, instanceIDs []string) ([]Tenant, error) {
	return childrenOf(ctx, s.db, children{tenantColumns, `FROM tenants`, "instance_id", "name, id", "customer_id", "instance_id"},
		scanTenant, f, limit, instanceIDs)
}

// InstancesByCustomerIDs returns the instances of the customers within f,
// at most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Tenancy) InstancesByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]InstanceRow, error) {
	return childrenOf(ctx, s.db, children{instanceRowColumns, instanceRowFrom, "i.customer_id", "i.name, i.id", "i.customer_id", "i.id"},
		scanInstanceRow, f, limit, customerIDs)
}

// CustomerUsersByCustomerIDs returns the users of the customers within f,
// at most limit (1 to platform.MaxChildren) each by (email, id) (a dataloader batch).
func (s *Tenancy) CustomerUsersByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]CustomerUser, error) {
	return childrenOf(ctx, s.db, children{customerUserColumns, customerUserFrom, "c.id", "u.email, u.id", "c.id", ""},
		scanCustomerUser, f, limit, customerIDs)
}

// InternalUsersByIDs returns the internal users of ids that exist (a dataloader batch).
func (s *Tenancy) InternalUsersByIDs(ctx context.Context, ids []string) ([]InternalUser, error) {
	return byIDs(ctx, s.db, scanInternalUser, internalUserQuery, "u.id", ids)
}
