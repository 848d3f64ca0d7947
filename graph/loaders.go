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
	customer *loader[*admin.Customer]
	instance *loader[*admin.Instance]
	grants   *loader[[]*admin.GrantView]
}

// loader is a dataloader with a read-mostly table of the values a list
// prefetched: the elements of a page find their value there without the
// dataloader's per-call thunk, channel and lock (a page of 100 tenants asks
// 200 times), and fall back to the dataloader's batch for anything else.
type loader[V any] struct {
	dl     *dataloader.Loader[string, V]
	mu     sync.RWMutex
	primed map[string]dataloader.Thunk[V]
}

func newLoader[V any](f func(context.Context, *access.Caller, []string) ([]V, error), wait time.Duration) *loader[V] {
	return &loader[V]{dl: dataloader.NewBatchedLoader(batch(f), dataloader.WithWait[string, V](wait))}
}

// Load answers the value of key: the prefetched one, or one batched with
// the other keys asked for within the loader's wait.
func (l *loader[V]) Load(ctx context.Context, key string) dataloader.Thunk[V] {
	l.mu.RLock()
	t, ok := l.primed[key]
	l.mu.RUnlock()
	if ok {
		return t
	}
	return l.dl.Load(ctx, key)
}

// prime records prefetched values (keys[i] has vals[i]).
func (l *loader[V]) prime(keys []string, vals []V) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.primed == nil {
		l.primed = make(map[string]dataloader.Thunk[V], len(keys))
	}
	for i, k := range keys {
		v := vals[i]
		l.primed[k] = func() (V, error) { return v, nil }
	}
}

type loadersKey struct{}

func withLoaders(ctx context.Context, r *Resolver, wait time.Duration) context.Context {
	if r.Admin == nil {
		return ctx
	}
	svc := r.Admin
	l := &loaders{
		customer: newLoader(svc.CustomersByIDs, wait),
		instance: newLoader(svc.InstancesByIDs, wait),
		grants:   newLoader(svc.GrantsByCustomerIDs, wait),
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
// that the elements of a list find them in the loader's table.
func prefetch[V any](ctx context.Context, l *loader[V], f func(context.Context, *access.Caller, []string) ([]V, error), keys []string) {
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
	l.prime(uniq, vals)
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
