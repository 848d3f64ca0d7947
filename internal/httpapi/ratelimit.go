package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Counter counts hits per key in fixed windows; the store implements it in
// the database so that every replica shares the counts.
type Counter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Time, error)
}

// RateLimitByAddress allows limit requests per window from one client
// address to the wrapped routes; beyond it answers 429 with Retry-After. When
// the counter fails, the request is let through and the failure logged: a
// rate limiter must not take the login down with the database.
func RateLimitByAddress(c Counter, name string, limit int, window time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if limit <= 0 {
				next.ServeHTTP(w, r)
				return
			}
			now := time.Now()
			ok, reset, err := c.Allow(r.Context(), name+":"+RateKey(r), limit, window, now)
			if err != nil {
				slog.ErrorContext(r.Context(), "rate limit counter", "err", err)
				next.ServeHTTP(w, r)
				return
			}
			if !ok {
				secs := int(reset.Sub(now).Seconds()) + 1
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				WriteError(w, r, platform.Errorf(platform.ELIMIT, "too many requests; try again in %d seconds", secs))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
