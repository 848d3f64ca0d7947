package idp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/platform"
)

// reqCache remembers users and applications for the length of one request:
// the op library asks for the same client and user several times while it
// builds one token response.
type reqCache struct {
	users map[string]*platform.User
	apps  map[string]*platform.Application
}

type reqCacheKey struct{}

func withRequestCache(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &reqCache{users: map[string]*platform.User{}, apps: map[string]*platform.Application{}}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), reqCacheKey{}, c)))
	})
}

// cached answers the value of key from the request's cache (entries picks
// the map), or loads it and keeps it there.
func cached[T any](ctx context.Context, entries func(*reqCache) map[string]*T, key string, load func() (*T, error)) (*T, error) {
	c, _ := ctx.Value(reqCacheKey{}).(*reqCache)
	if c != nil {
		if v, ok := entries(c)[key]; ok {
			return v, nil
		}
	}
	v, err := load()
	if err == nil && c != nil {
		entries(c)[key] = v
	}
	return v, err
}

func (p *core) user(ctx context.Context, id string) (*platform.User, error) {
	return cached(ctx, func(c *reqCache) map[string]*platform.User { return c.users }, id, func() (*platform.User, error) {
		u, err := p.store.User(ctx, id)
		if err != nil {
			return nil, err
		}
		// A suspended user is no user: no session reuse, no tokens, no userinfo.
		if suspended, err := p.store.UserSuspended(ctx, id); err != nil {
			return nil, err
		} else if suspended {
			return nil, platform.Errorf(platform.ENOTFOUND, "user not found")
		}
		return u, nil
	})
}

func (p *core) application(ctx context.Context, clientID string) (*platform.Application, error) {
	return cached(ctx, func(c *reqCache) map[string]*platform.Application { return c.apps }, clientID, func() (*platform.Application, error) {
		app, err := p.store.ApplicationByClientID(ctx, clientID)
		if err == nil && app.MetadataCustomerID != "" {
			return p.docs.current(ctx, app)
		}
		return app, err
	})
}
