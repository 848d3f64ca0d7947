package graph

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// A resolver makes one call of the admin service. The helpers below fetch
// the service and the caller for it (with, or call and its kin, which take
// the service's method as a method expression, (*admin.Service).Method)
// and shape what the call answers: true for a mutation that answers
// nothing, a list's items, a page, the entities of _entities.

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

// call0 answers what method answers for the caller.
func call0[T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller) (T, error)) (T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (T, error) { return method(s, ctx, c) })
}

// call answers what method answers for the caller and a.
func call[A, T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A) (T, error), a A) (T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (T, error) { return method(s, ctx, c, a) })
}

// call2 answers what method answers for the caller, a and b.
func call2[A, B, T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A, B) (T, error),
	a A, b B) (T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (T, error) { return method(s, ctx, c, a, b) })
}

// call3 answers what method answers for the caller, a, b and d.
func call3[A, B, D, T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A, B, D) (T, error),
	a A, b B, d D) (T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) (T, error) { return method(s, ctx, c, a, b, d) })
}

// remove answers true once method has removed what a names.
func remove[A any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A) error, a A) (*bool, error) {
	return ok(ctx, r, func(s *admin.Service, c *access.Caller) error { return method(s, ctx, c, a) })
}

// remove2 answers true once method has removed what a and b name.
func remove2[A, B any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A, B) error, a A, b B) (*bool, error) {
	return ok(ctx, r, func(s *admin.Service, c *access.Caller) error { return method(s, ctx, c, a, b) })
}

// listAll answers the items of the whole list method answers for the caller.
func listAll[T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller) (*admin.Page[T], error)) ([]T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) ([]T, error) { return items(method(s, ctx, c)) })
}

// listOf answers the items of the list method answers for the caller and a.
func listOf[A, T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, A) (*admin.Page[T], error), a A) ([]T, error) {
	return with(ctx, r, func(s *admin.Service, c *access.Caller) ([]T, error) { return items(method(s, ctx, c, a)) })
}

// newestOf answers the items of the newest-first list method answers for
// the caller, key and first (within platform.NewestPages).
func newestOf[K, T any](ctx context.Context, r *Resolver, method func(*admin.Service, context.Context, *access.Caller, K, int) (*admin.Page[T], error),
	key K, first *int) ([]T, error) {
	n, err := limit(first)
	if err != nil {
		return nil, err
	}
	return with(ctx, r, func(s *admin.Service, c *access.Caller) ([]T, error) { return items(method(s, ctx, c, key, n)) })
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

// pageWith calls list with the admin service, the caller and the page
// that first (within limits) and after ask for, then each of then with the
// page's items (prefetching what the selection asks of them). A resolver
// answers the page as its schema type: (*model.XPage)(p); it names its list
// method to one of the shapes below, which fit its arguments to pageWith.
func pageWith[T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
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

// page answers the page method answers for the caller.
func page[T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
	method func(*admin.Service, context.Context, *access.Caller, admin.PageInput) (*admin.Page[T], error)) (*admin.Page[T], error) {
	return pageWith(ctx, r, limits, first, after, func(s *admin.Service, c *access.Caller, in admin.PageInput) (*admin.Page[T], error) {
		return method(s, ctx, c, in)
	})
}

// pageOf is page for a list method that takes an argument before the page: the
// customer whose list it is, a search, a filter.
func pageOf[A, T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
	method func(*admin.Service, context.Context, *access.Caller, A, admin.PageInput) (*admin.Page[T], error), a A,
	then ...func(context.Context, *admin.Service, *access.Caller, []T)) (*admin.Page[T], error) {
	return pageWith(ctx, r, limits, first, after, func(s *admin.Service, c *access.Caller, in admin.PageInput) (*admin.Page[T], error) {
		return method(s, ctx, c, a, in)
	}, then...)
}

// pageOf2 is page for a list method that takes two arguments before the
// page: the customer whose list it is and a search.
func pageOf2[A, B, T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
	method func(*admin.Service, context.Context, *access.Caller, A, B, admin.PageInput) (*admin.Page[T], error), a A, b B,
	then ...func(context.Context, *admin.Service, *access.Caller, []T)) (*admin.Page[T], error) {
	return pageWith(ctx, r, limits, first, after, func(s *admin.Service, c *access.Caller, in admin.PageInput) (*admin.Page[T], error) {
		return method(s, ctx, c, a, b, in)
	}, then...)
}

// pageBy is page for a list method whose filter carries the page (its
// Limit and Cursor): filter makes the filter of the page asked for.
func pageBy[F, T any](ctx context.Context, r *Resolver, limits platform.PageLimit, first *int, after *string,
	method func(*admin.Service, context.Context, *access.Caller, F) (*admin.Page[T], error), filter func(admin.PageInput) F) (*admin.Page[T], error) {
	return pageWith(ctx, r, limits, first, after, func(s *admin.Service, c *access.Caller, in admin.PageInput) (*admin.Page[T], error) {
		return method(s, ctx, c, filter(in))
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
