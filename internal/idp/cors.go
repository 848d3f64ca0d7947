package idp

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/platform/platform/internal/dpop"
)

// How long the set of application origins is used before it is read again:
// corsFresh for an origin it holds (so an application's removal takes
// effect), corsMissReload for one it does not (so a new application's
// origin works within seconds on every replica, while requests from
// unknown origins read the store at most that often).
const (
	corsFresh      = time.Minute
	corsMissReload = 5 * time.Second
)

// corsOrigins is the set of origins the provider answers cross-origin
// requests of: the origins (scheme, host and port) of the registered
// redirect URIs of every application, read from the store and kept a
// little while.
type corsOrigins struct {
	load   func(context.Context) ([]string, error)
	mu     sync.Mutex
	set    map[string]bool
	loaded time.Time
}

// allowed reports whether origin (an Origin header) is an application's.
func (c *corsOrigins) allowed(ctx context.Context, origin string) bool {
	origin = originOf(origin)
	if origin == "" {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	known, age := c.set[origin], time.Since(c.loaded)
	if c.set != nil && (known && age < corsFresh || !known && age < corsMissReload) {
		return known
	}
	uris, err := c.load(ctx)
	if err != nil {
		slog.ErrorContext(ctx, "application origins", "err", err)
		return known
	}
	c.set, c.loaded = map[string]bool{}, time.Now()
	for _, u := range uris {
		if o := originOf(u); o != "" {
			c.set[o] = true
		}
	}
	return c.set[origin]
}

// forget drops the set, so the next cross-origin request reads it again
// (an application of this provider was registered, changed or removed).
func (c *corsOrigins) forget() {
	c.mu.Lock()
	c.set = nil
	c.mu.Unlock()
}

// originOf is the origin of an http or https URL as browsers send it in
// Origin (lower-case host, no default port), or "" for anything else.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if u.Scheme == "https" && port == "443" || u.Scheme == "http" && port == "80" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host
}

// cors lets the registered applications' pages call the endpoints a
// browser app calls from its own origin (token, userinfo, keys, revoke,
// introspection, discovery): a request whose Origin is an application's
// gets Access-Control-Allow-Origin naming it, and never
// Access-Control-Allow-Credentials (the apps send no cookies, and these
// endpoints read none); preflights are answered here. Any other origin
// gets no CORS header, so its pages cannot read the answers nor send
// anything a preflight guards. The other endpoints (authorize, the login
// pages) carry no CORS headers at all.
func (p *endpoints) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		allowed := origin != "" && p.origins.allowed(r.Context(), origin)
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", dpop.HeaderNonce) // a browser client retries with it (D-dpop)
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			if allowed {
				h.Set("Access-Control-Allow-Methods", "GET, POST")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, "+dpop.HeaderProof)
				h.Set("Access-Control-Max-Age", "600")
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
