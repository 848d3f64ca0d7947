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
func (p *Provider) allowAttempt(w http.ResponseWriter, r *http.Request) bool {
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
func (p *Provider) allow(w http.ResponseWriter, r *http.Request, kind string) bool {
	if p.cfg.LoginRateLimit <= 0 {
		return true
	}
	now := time.Now()
	ok, reset, err := p.store.Allow(r.Context(), kind+":"+httpapi.ClientIP(r), p.cfg.LoginRateLimit, time.Minute, now)
	if err != nil {
		slog.ErrorContext(r.Context(), "rate limit counter", "kind", kind, "err", err)
		return true
	}
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(reset.Sub(now).Seconds())+1))
	}
	return ok
}
