package graph

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
)

// edge is a parent → children edge's loaders (Customer.tenants and the
// like), one per number of children the request asks for (the edge's
// first): each batch loads at most that many children per parent, ranked
// in SQL, so a small first costs a small batch (D-graphql-cost).
type edge[V any] struct {
	load func(context.Context, *access.Caller, int, []string) ([][]V, error)
	wait time.Duration
	mu   sync.Mutex
	by   map[int]*loader[[]V]
}

func newEdge[V any](load func(context.Context, *access.Caller, int, []string) ([][]V, error), wait time.Duration) *edge[V] {
	return &edge[V]{load: load, wait: wait}
}

// limit returns the loader of at most n children per parent.
func (e *edge[V]) limit(n int) *loader[[]V] {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.by[n]
	if l == nil {
		if e.by == nil {
			e.by = map[int]*loader[[]V]{}
		}
		l = newLoader(e.batch(n), e.wait)
		e.by[n] = l
	}
	return l
}

func (e *edge[V]) batch(n int) func(context.Context, *access.Caller, []string) ([][]V, error) {
	return func(ctx context.Context, c *access.Caller, ids []string) ([][]V, error) {
		return e.load(ctx, c, n, ids)
	}
}

// prefetch loads at most n children of each of keys now and primes the
// loader of n with them (see prefetch).
func (e *edge[V]) prefetch(ctx context.Context, n int, keys []string) [][]V {
	return prefetch(ctx, e.limit(n), e.batch(n), keys)
}

// childFirst is an edge's first (platform.ChildPages), the default when nil.
func childFirst(first *int) (int, error) {
	n, err := platform.ChildPages.Arg("first", first)
	return platform.ChildPages.Size(n), err
}

// firsts returns the distinct firsts the edges the current field's
// selection reaches along path ask for; a value the edge refuses is left
// to its resolver, which reports it.
func firsts(ctx context.Context, path ...string) []int {
	op := graphql.GetOperationContext(ctx)
	var out []int
	for _, f := range selected(ctx, path...) {
		var first *int
		if v, ok := intValue(f.ArgumentMap(op.Variables)["first"]); ok {
			first = &v
		}
		if n, err := childFirst(first); err == nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
