package tenant

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/httpapi"
)

// BackchannelLogoutPath receives the identity provider's logout tokens.
const BackchannelLogoutPath = "/auth/backchannel-logout"

// handleBackchannelLogout ends the sessions a logout token names (OpenID
// Connect Back-Channel Logout 1.0 section 2.8): the token is verified as
// access.VerifyLogout says, for this instance's client; the sessions of its
// sid (or, without one, of its sub) that began before its iat end, so a
// replayed token never ends a later sign-in. 200 when the token holds
// (whether or not a session was left), 400 invalid_request when it does not,
// 503 when the provider's keys cannot be fetched (the provider retries).
func (t *Tenant) handleBackchannelLogout(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if err := r.ParseForm(); err != nil || len(r.PostForm["logout_token"]) != 1 {
		logoutError(w, http.StatusBadRequest, "one logout_token form parameter is required")
		return
	}
	lt, err := t.access.VerifyLogout(r.Context(), r.PostForm.Get("logout_token"))
	if err != nil {
		slog.InfoContext(r.Context(), "logout token refused", "reason", err)
		if !access.IsTokenError(err) {
			logoutError(w, http.StatusServiceUnavailable, "the identity provider's keys are unavailable")
			return
		}
		logoutError(w, http.StatusBadRequest, "the logout token is not valid for this application")
		return
	}
	// iat is in whole seconds: a session that began in its second began before it
	n, err := t.store.EndTenantSessionsForLogout(r.Context(), t.cfg.ClientID, lt.Subject, lt.SessionID, lt.IssuedAt.Add(time.Second))
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	slog.InfoContext(r.Context(), "back-channel logout", "user_id", lt.Subject, "sessions_ended", n)
	w.WriteHeader(http.StatusOK)
}

// logoutError answers in the OAuth error form the specification asks for.
func logoutError(w http.ResponseWriter, status int, description string) {
	httpapi.WriteJSON(w, status, map[string]string{"error": "invalid_request", "error_description": description})
}
