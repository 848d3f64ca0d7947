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
	// Children by parent id.
	tenantsOfCustomer   *dataloader.Loader[string, []*admin.Tenant]
	tenantsOfInstance   *dataloader.Loader[string, []*admin.Tenant]
	instancesOfCustomer *dataloader.Loader[string, []*admin.Instance]
	usersOfCustomer     *dataloader.Loader[string, []*admin.CustomerUserView]
	internalUser        *dataloader.Loader[string, *admin.InternalUser]
	profile             *dataloader.Loader[string, *admin.Profile]
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
		tenantsOfCustomer: dataloader.NewBatchedLoader(batch(svc.TenantsByCustomerIDs),
			dataloader.WithWait[string, []*admin.Tenant](wait)),
		tenantsOfInstance: dataloader.NewBatchedLoader(batch(svc.TenantsByInstanceIDs),
			dataloader.WithWait[string, []*admin.Tenant](wait)),
		instancesOfCustomer: dataloader.NewBatchedLoader(batch(svc.InstancesByCustomerIDs),
			dataloader.WithWait[string, []*admin.Instance](wait)),
		usersOfCustomer: dataloader.NewBatchedLoader(batch(svc.UsersByCustomerIDs),
			dataloader.WithWait[string, []*admin.CustomerUserView](wait)),
		internalUser: dataloader.NewBatchedLoader(batch(svc.InternalUsersByIDs),
			dataloader.WithWait[string, *admin.InternalUser](wait)),
		profile: dataloader.NewBatchedLoader(batch(profiles(svc)), dataloader.WithWait[string, *admin.Profile](wait)),
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
// that the elements of a list find them in the loader's cache. It returns
// the values (nil on error), for a prefetch of the next level.
func prefetch[V any](ctx context.Context, l *dataloader.Loader[string, V], f func(context.Context, *access.Caller, []string) ([]V, error), keys []string) []V {
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
	for i, k := range uniq {
		l.Prime(ctx, k, vals[i])
	}
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

// loadList loads a parent's children through l; a field served without
// the admin service (the tenant role) answers an empty list.
func loadList[V any](ctx context.Context, l *loaders, pick func(*loaders) *dataloader.Loader[string, []V], key string) ([]V, error) {
	if l == nil || key == "" {
		return []V{}, nil
	}
	vs, err := pick(l).Load(ctx, key)()
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

func tenantsOfCustomer(l *loaders) *dataloader.Loader[string, []*admin.Tenant] {
	return l.tenantsOfCustomer
}
func tenantsOfInstance(l *loaders) *dataloader.Loader[string, []*admin.Tenant] {
	return l.tenantsOfInstance
}
func instancesOfCustomer(l *loaders) *dataloader.Loader[string, []*admin.Instance] {
	return l.instancesOfCustomer
}
func usersOfCustomer(l *loaders) *dataloader.Loader[string, []*admin.CustomerUserView] {
	return l.usersOfCustomer
}
