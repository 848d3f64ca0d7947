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

func (p *core) user(ctx context.Context, id string) (*platform.User, error) {
	c, _ := ctx.Value(reqCacheKey{}).(*reqCache)
	if c != nil {
		if u, ok := c.users[id]; ok {
			return u, nil
		}
	}
	u, err := p.store.User(ctx, id)
	if err == nil {
		// A suspended user is no user: no session reuse, no tokens, no userinfo.
		var suspended bool
		if suspended, err = p.store.UserSuspended(ctx, id); err == nil && suspended {
			return nil, platform.Errorf(platform.ENOTFOUND, "user not found")
		}
	}
	if err == nil && c != nil {
		c.users[id] = u
	}
	return u, err
}

func (p *core) application(ctx context.Context, clientID string) (*platform.Application, error) {
	c, _ := ctx.Value(reqCacheKey{}).(*reqCache)
	if c != nil {
		if a, ok := c.apps[clientID]; ok {
			return a, nil
		}
	}
	a, err := p.store.ApplicationByClientID(ctx, clientID)
	if err == nil && c != nil {
		c.apps[clientID] = a
	}
	return a, err
}
