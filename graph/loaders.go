package graph

import (
	"context"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// loaders batch the parent → child edges of one request (DESIGN 6): each
// batch is one service call, which is one SQL statement, whatever the
// number of parents. They are created per request, so nothing is cached
// across callers.
type loaders struct {
	customer *dataloader.Loader[string, *admin.Customer]
	instance *dataloader.Loader[string, *admin.Instance]
	grants   *dataloader.Loader[string, []*admin.GrantView]
}

type loadersKey struct{}

func withLoaders(ctx context.Context, r *Resolver, wait time.Duration) context.Context {
	if r.Admin == nil {
		return ctx
	}
	svc := r.Admin
	l := &loaders{
		customer: dataloader.NewBatchedLoader(batch(svc.CustomersByIDs), dataloader.WithWait[string, *admin.Customer](wait)),
		instance: dataloader.NewBatchedLoader(batch(svc.InstancesByIDs), dataloader.WithWait[string, *admin.Instance](wait)),
		grants:   dataloader.NewBatchedLoader(batch(svc.GrantsByCustomerIDs), dataloader.WithWait[string, []*admin.GrantView](wait)),
	}
	return context.WithValue(ctx, loadersKey{}, l)
}

func loadersFrom(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	return l
}

// batch adapts a service's batch method (values in key order) to a
// dataloader batch function.
func batch[V any](f func(context.Context, *access.Caller, []string) ([]V, error)) dataloader.BatchFunc[string, V] {
	return func(ctx context.Context, keys []string) []*dataloader.Result[V] {
		out := make([]*dataloader.Result[V], len(keys))
		c := access.From(ctx)
		var vals []V
		var err error = platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
		if c != nil {
			vals, err = f(ctx, c, keys)
		}
		if err == nil && len(vals) != len(keys) {
			err = platform.Errorf(platform.EINTERNAL, "batch returned %d values for %d keys", len(vals), len(keys))
		}
		for i := range keys {
			if err != nil {
				out[i] = &dataloader.Result[V]{Error: err}
			} else {
				out[i] = &dataloader.Result[V]{Data: vals[i]}
			}
		}
		return out
	}
}

// prefetch runs one batch for keys (duplicates and blanks dropped) now,
// without the loader's wait, and primes the loader with its values, so
// that the elements of a list find them in the loader's cache.
func prefetch[V any](ctx context.Context, l *dataloader.Loader[string, V], f func(context.Context, *access.Caller, []string) ([]V, error), keys []string) {
	c := access.From(ctx)
	seen := make(map[string]bool, len(keys))
	uniq := make([]string, 0, len(keys))
	for _, k := range keys {
		if k != "" && !seen[k] {
			seen[k] = true
			uniq = append(uniq, k)
		}
	}
	if c == nil || len(uniq) == 0 {
		return
	}
	vals, err := f(ctx, c, uniq)
	if err != nil || len(vals) != len(uniq) {
		return // the elements' own loads report the error
	}
	for i, k := range uniq {
		l.Prime(ctx, k, vals[i])
	}
}

// prefetchAll runs prefetches concurrently and waits for them.
func prefetchAll(fs ...func()) {
	var wg sync.WaitGroup
	for _, f := range fs {
		if f != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f()
			}()
		}
	}
	wg.Wait()
}
