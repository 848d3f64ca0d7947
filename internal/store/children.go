package store

import (
	"context"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// rankedRow reads a row of childrenOf's query, whose last column is the
// child's rank within its parent.
type rankedRow struct{ Row }

func (r rankedRow) Scan(dest ...any) error {
	var rank int64
	return r.Row.Scan(append(dest, &rank)...)
}

// childrenOf returns, in one statement, at most limit (platform.ChildPages) rows
// per parent of the rows of from (a FROM clause) whose parentCol is one of
// parents and that match cond (with args), ranked within their parent by
// order.
func childrenOf[T any](ctx context.Context, s *Store, scan func(Row) (T, error), columns, from, parentCol, cond string,
	args []any, parents []string, order string, limit int) ([]T, error) {
	if len(parents) == 0 {
		return nil, nil
	}
	where := parentCol + ` IN (` + placeholders(&args, parents) + `)`
	if cond != "" {
		where += ` AND ` + cond
	}
	q := `SELECT * FROM (SELECT ` + columns + `, ROW_NUMBER() OVER (PARTITION BY ` + parentCol + ` ORDER BY ` + order +
		`) AS child_rank ` + from + ` WHERE ` + where + `) ranked WHERE child_rank <= ` + arg(&args, platform.ChildPages.Size(limit)) + ` ORDER BY child_rank`
	return queryAll(ctx, s.db, func(r Row) (T, error) { return scan(rankedRow{r}) }, q, args...)
}

// TenantsByCustomerIDs returns the tenants of the customers within f, at
// most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Store) TenantsByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]Tenant, error) {
	return s.tenantsBy(ctx, f, "customer_id", limit, customerIDs)
}

// TenantsByInstanceIDs returns the tenants on the instances within f, at
// most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Store) TenantsByInstanceIDs(ctx context.Context, f authz.Filter, limit int, instanceIDs []string) ([]Tenant, error) {
	return s.tenantsBy(ctx, f, "instance_id", limit, instanceIDs)
}

func (s *Store) tenantsBy(ctx context.Context, f authz.Filter, parentCol string, limit int, ids []string) ([]Tenant, error) {
	if f.Empty() {
		return nil, nil
	}
	var args []any
	cond := scopeCondition(&args, f, "customer_id", "instance_id")
	return childrenOf(ctx, s, scanTenant, tenantColumns, `FROM tenants`, parentCol, cond, args, ids, "name, id", limit)
}

// InstancesByCustomerIDs returns the instances of the customers within f,
// at most limit (1 to platform.MaxChildren) each by (name, id) (a dataloader batch).
func (s *Store) InstancesByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]InstanceRow, error) {
	if f.Empty() {
		return nil, nil
	}
	var args []any
	cond := scopeCondition(&args, f, "i.customer_id", "i.id")
	return childrenOf(ctx, s, scanInstanceRow, instanceRowColumns, instanceRowFrom, "i.customer_id", cond, args, customerIDs,
		"i.name, i.id", limit)
}

// CustomerUsersByCustomerIDs returns the users of the customers within f,
// at most limit (1 to platform.MaxChildren) each by (email, id) (a dataloader batch).
func (s *Store) CustomerUsersByCustomerIDs(ctx context.Context, f authz.Filter, limit int, customerIDs []string) ([]CustomerUser, error) {
	if f.Empty() {
		return nil, nil
	}
	var args []any
	cond := scopeCondition(&args, f, "c.id", "")
	return childrenOf(ctx, s, scanCustomerUser, customerUserColumns, customerUserFrom, "c.id", cond, args, customerIDs,
		"u.email, u.id", limit)
}

// InternalUsersByIDs returns the internal users of ids that exist (a dataloader batch).
func (s *Store) InternalUsersByIDs(ctx context.Context, ids []string) ([]InternalUser, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	return queryAll(ctx, s.db, scanInternalUser, internalUserQuery+` WHERE cu.customer_id IS NULL AND u.id IN (`+
		placeholders(&args, ids)+`)`, args...)
}
