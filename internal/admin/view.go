package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// Services map store rows to the view types the transports answer with.

// views maps rows to their views, in order.
func views[R, V any](rows []R, view func(*R) V) []V {
	out := make([]V, 0, len(rows))
	for i := range rows {
		out = append(out, view(&rows[i]))
	}
	return out
}

// listing maps the rows a store call answers to their views, in order, an
// error passing through: listing(newTenantMember)(s.store.TenantMembers(ctx, id)).
func listing[R, V any](view func(*R) V) func([]R, error) ([]V, error) {
	return func(rows []R, err error) ([]V, error) {
		if err != nil {
			return nil, err
		}
		return views(rows, view), nil
	}
}

// viewing maps the row a store call answers to its view, an error passing
// through: viewing(newMeterView)(s.store.Meter(ctx, id)).
func viewing[R, V any](view func(*R) *V) func(*R, error) (*V, error) {
	return func(row *R, err error) (*V, error) {
		if err != nil {
			return nil, err
		}
		return view(row), nil
	}
}

// inKeyOrder answers the views of the rows a dataloader batch loaded, in
// the order of its keys: nil where a row is missing or outside the caller's
// scope. A load error passes through.
func inKeyOrder[R, V any](c *access.Caller, keys []string, key func(*R) string, resource func(*R) authz.Resource,
	view func(*R) *V) func([]R, error) ([]*V, error) {
	return func(rows []R, err error) ([]*V, error) {
		if err != nil {
			return nil, err
		}
		byKey := map[string]*V{}
		for i := range rows {
			if res := resource(&rows[i]); c.Scope.Allows(res.CustomerID, res.InstanceID) {
				byKey[key(&rows[i])] = view(&rows[i])
			}
		}
		out := make([]*V, len(keys))
		for i, k := range keys {
			out[i] = byKey[k]
		}
		return out, nil
	}
}

// orNull is s for an optional field of a view, nil (null) when s is empty.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timeOrNull is t for an optional field of a view, nil (null) when t is zero.
func timeOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// childBatch answers the parent → children batches of the GraphQL edges
// (D-graphql-edges): in key order, the children of every parent key in one
// SQL statement, the caller's scope applied in SQL, at most limit
// (platform.ChildPages) per parent. A role that does not hold the
// children's action gets EFORBIDDEN, as the paged list would answer.
// It checks the caller's role for op, loads at most limit children
// of each of ids within its scope and groups their views by parent, in key
// order.
func childBatch[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, limit int, ids []string,
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
