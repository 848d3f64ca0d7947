package graph

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The helpers below keep resolvers to one service call: they fetch the
// service and caller, and shape what the call answers.

// with calls f with the admin service and the caller.
func with[T any](ctx context.Context, r *Resolver, f func(*admin.Service, *access.Caller) (T, error)) (T, error) {
	svc, c, err := r.adminCaller(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	return f(svc, c)
}

// ok calls f with the admin service and the caller and answers true when
// it succeeds (a mutation that returns nothing).
func ok(ctx context.Context, r *Resolver, f func(*admin.Service, *access.Caller) error) (*bool, error) {
	svc, c, err := r.adminCaller(ctx)
	if err != nil {
		return nil, err
	}
	return done(f(svc, c))
}

// items answers a page's items.
func items[T any](p *admin.Page[T], err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}

// pointers answers values as pointers.
func pointers[T any](vs []T, err error) ([]*T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(vs))
	for i := range vs {
		out[i] = &vs[i]
	}
	return out, nil
}

// page calls list with the admin service, the caller and the page that
// first (within limits) and after ask for, then each of then with the
// page's items (prefetching what the selection asks of them). A resolver
// answers the page as its schema type: (*model.XPage)(p).
func page[T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
	list func(*admin.Service, *access.Caller, admin.PageInput) (*admin.Page[T], error),
	then ...func(context.Context, *admin.Service, *access.Caller, []T)) (*admin.Page[T], error) {
	in, err := pageInput(limits, first, after)
	if err != nil {
		return nil, err
	}
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (*admin.Page[T], error) {
		p, err := list(s, c, in)
		for _, f := range then {
			if err == nil {
				f(ctx, s, c, p.Items)
			}
		}
		return p, err
	})
}

// limit is a newest-first list's first as a service limit.
func limit(first *int) (int, error) { return platform.NewestPages.Arg("first", first) }

// adminEntities answers the admin entities of ids in their order (the
// federation's _entities): nil for each when the caller's role does not
// hold act, as lists answer nothing of what the caller may not read.
func adminEntities[V any](ctx context.Context, r *Resolver, ids []string, act authz.Action,
	load func(*admin.Service, context.Context, *access.Caller, []string) ([]V, error)) ([]V, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) ([]V, error) {
		if !r.holds(c, act) {
			return make([]V, len(ids)), nil
		}
		return load(s, ctx, c, ids)
	})
}
