package idp

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/platform/platform/internal/httpapi"
)

// allowAttempt counts a sign-in form post against the client address's
// limit (LoginRateLimit per minute, counted in the database so replicas
// share it) and answers 429 with the provider's page when it is spent. A
// failing counter lets the attempt through: the per-account lockout still
// holds.
func (p *core) allowAttempt(w http.ResponseWriter, r *http.Request) bool {
	if p.allow(w, r, "login") {
		return true
	}
	p.renderError(w, r, http.StatusTooManyRequests, "Too many attempts",
		"Too many sign-in attempts came from your network. Wait a minute, then try again.")
	return false
}

// allow counts a request of kind against the client address's limit
// (LoginRateLimit per minute) and, when it is spent, sets Retry-After and
// answers false; the caller writes the 429.
func (p *core) allow(w http.ResponseWriter, r *http.Request, kind string) bool {
	return p.allowUpTo(w, r, kind, p.cfg.LoginRateLimit)
}

// allowUpTo counts a request of kind against the client address's limit
// of limit a minute (0 or less: no limit), keyed by httpapi.RateKey (an
// IPv6 client by its /64). A failing counter lets the request through and
// is logged: the limiter must not take the provider down with the database.
func (p *core) allowUpTo(w http.ResponseWriter, r *http.Request, kind string, limit int) bool {
	if limit <= 0 {
		return true
	}
	now := time.Now()
	ok, reset, err := p.store.Allow(r.Context(), kind+":"+httpapi.RateKey(r), limit, time.Minute, now)
	if err != nil {
		slog.ErrorContext(r.Context(), "rate limit counter", "kind", kind, "err", err)
		return true
	}
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(reset.Sub(now).Seconds())+1))
	}
	return ok
}

// limitAuthorize counts authorization requests (each stores a login
// transaction for its browser, for up to LoginTimeout) against the client
// address's AuthorizeRateLimit, on a counter of their own; past it the
// browser gets the provider's 429 page, nothing is stored and nothing is
// redirected to the client.
func (p *core) limitAuthorize(next http.Handler) http.Handler {
	return limited(p, "authorize", next, func(w http.ResponseWriter, r *http.Request) {
		p.renderError(w, r, http.StatusTooManyRequests, "Too many sign-in requests",
			"Too many sign-in requests came from your network. Wait a minute, then try again.")
	})
}

// limitPushed counts pushed authorization requests against the client
// address's AuthorizeRateLimit, on a counter apart from the authorization
// endpoint's, before the client is authenticated; past it the answer is
// an OAuth error with 429 and Retry-After, and nothing is stored.
func (p *core) limitPushed(next http.Handler) http.Handler {
	return limited(p, "par", next, tooMany("pushed authorization requests"))
}

// limited serves next while the client address's requests of kind stay
// within AuthorizeRateLimit a minute, counted before next reads anything;
// past it refuse answers (Retry-After already set).
func limited(p *core, kind string, next http.Handler, refuse http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.allowUpTo(w, r, kind, p.cfg.AuthorizeRateLimit) {
			refuse(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// tooMany is the OAuth error answer (429 temporarily_unavailable) to too
// many requests of what from one address.
func tooMany(what string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		oauthError(w, http.StatusTooManyRequests, "temporarily_unavailable",
			"too many "+what+" from this address; retry after "+w.Header().Get("Retry-After")+" seconds")
	}
}
