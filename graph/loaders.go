package graph

import (
	"context"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/platform"
)

// loaders batch the parent → child edges of one request (D-graphql-edges): each
// batch is one service call, which is one SQL statement, whatever the
// number of parents. They are created per request, so nothing is cached
// across callers.
type loaders struct {
	customer *loader[*admin.Customer]
	instance *loader[*admin.Instance]
	grants   *loader[[]*admin.GrantView]
	// Children by parent id, at most the edge's first each.
	tenantsOfCustomer   *edge[*admin.Tenant]
	tenantsOfInstance   *edge[*admin.Tenant]
	instancesOfCustomer *edge[*admin.Instance]
	usersOfCustomer     *edge[*admin.CustomerUserView]
	internalUser        *loader[*admin.InternalUser]
	profile             *loader[*admin.Profile]
	// The data subgraph's tenants (with their cx schedules), by id; nil
	// where the data service does not run (the console subgraph).
	tenantData *loader[*data.TenantRef]
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

// withLoaders puts the request's loaders of the services r runs in ctx:
// the admin service's (nil on the data subgraph) and the data service's.
func withLoaders(ctx context.Context, r *Resolver, wait time.Duration) context.Context {
	var l *loaders
	if svc := r.Admin; svc != nil {
		l = adminLoaders(svc, wait)
	}
	if r.Data != nil {
		if l == nil {
			l = &loaders{}
		}
		l.tenantData = newLoader(r.Data.TenantsByIDs, wait)
	}
	if l == nil {
		return ctx
	}
	return context.WithValue(ctx, loadersKey{}, l)
}

func adminLoaders(svc *admin.Service, wait time.Duration) *loaders {
	return &loaders{
		customer:            newLoader(svc.CustomersByIDs, wait),
		instance:            newLoader(svc.InstancesByIDs, wait),
		grants:              newLoader(svc.GrantsByCustomerIDs, wait),
		tenantsOfCustomer:   newEdge(svc.TenantsByCustomerIDs, wait),
		tenantsOfInstance:   newEdge(svc.TenantsByInstanceIDs, wait),
		instancesOfCustomer: newEdge(svc.InstancesByCustomerIDs, wait),
		usersOfCustomer:     newEdge(svc.UsersByCustomerIDs, wait),
		internalUser:        newLoader(svc.InternalUsersByIDs, wait),
		profile:             newLoader(profiles(svc), wait),
	}
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
// that the elements of a list find them in the loader's table. It returns
// the values (nil on error), for a prefetch of the next level.
func prefetch[V any](ctx context.Context, l *loader[V], f func(context.Context, *access.Caller, []string) ([]V, error), keys []string) []V {
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
		return nil
	}
	vals, err := f(ctx, c, uniq)
	if err != nil || len(vals) != len(uniq) {
		return nil // the elements' own loads report the error
	}
	l.prime(uniq, vals)
	return vals
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

// profiles adapts the caller's own profile to a batch: the only key is the
// caller's user id.
func profiles(svc *admin.Service) func(context.Context, *access.Caller, []string) ([]*admin.Profile, error) {
	return func(ctx context.Context, c *access.Caller, ids []string) ([]*admin.Profile, error) {
		p, err := svc.Profile(ctx, c)
		if err != nil {
			return nil, err
		}
		out := make([]*admin.Profile, len(ids))
		for i := range ids {
			out[i] = p
		}
		return out, nil
	}
}

// loadList loads a parent's first children (childFirst) through l; a field
// served without the admin service (the tenant role) answers an empty list.
func loadList[V any](ctx context.Context, l *loaders, pick func(*loaders) *edge[V], first *int, key string) ([]V, error) {
	n, err := childFirst(first)
	if err != nil {
		return nil, err
	}
	if l == nil || key == "" {
		return []V{}, nil
	}
	vs, err := pick(l).limit(n).Load(ctx, key)()
	if vs == nil && err == nil {
		vs = []V{}
	}
	return vs, err
}

// ids returns the key of every element.
func ids[T any](items []T, key func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = key(it)
	}
	return out
}

// loadOne answers the value of key through the loader pick chooses: V's
// zero (null) without loaders (the tenant role) or without a key.
func loadOne[V any](ctx context.Context, pick func(*loaders) *loader[V], key string) (V, error) {
	l := loadersFrom(ctx)
	if l == nil || key == "" {
		var zero V
		return zero, nil
	}
	return pick(l).Load(ctx, key)()
}

func customerByID(l *loaders) *loader[*admin.Customer]         { return l.customer }
func instanceByID(l *loaders) *loader[*admin.Instance]         { return l.instance }
func internalUserByID(l *loaders) *loader[*admin.InternalUser] { return l.internalUser }
func tenantData(l *loaders) *loader[*data.TenantRef]           { return l.tenantData }

func tenantsOfCustomer(l *loaders) *edge[*admin.Tenant] {
	return l.tenantsOfCustomer
}
func tenantsOfInstance(l *loaders) *edge[*admin.Tenant] {
	return l.tenantsOfInstance
}
func instancesOfCustomer(l *loaders) *edge[*admin.Instance] {
	return l.instancesOfCustomer
}
func usersOfCustomer(l *loaders) *edge[*admin.CustomerUserView] {
	return l.usersOfCustomer
}
