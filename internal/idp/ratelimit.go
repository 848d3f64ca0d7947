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
	if p.cfg.LoginRateLimit <= 0 {
		return true
	}
	now := time.Now()
	ok, reset, err := p.store.Allow(r.Context(), "login:"+httpapi.ClientIP(r), p.cfg.LoginRateLimit, time.Minute, now)
	if err != nil {
		slog.ErrorContext(r.Context(), "login rate limit counter", "err", err)
		return true
	}
	if ok {
		return true
	}
	secs := int(reset.Sub(now).Seconds()) + 1
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	p.renderError(w, r, http.StatusTooManyRequests, "Too many attempts",
		"Too many sign-in attempts came from your network. Wait a minute, then try again.")
	return false
}
