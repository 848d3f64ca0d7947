package idp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/store"
)

// logoutSender delivers the queued back-channel logouts.
type logoutSender struct {
	*core
	keys   *keyManager
	client *http.Client // under the egress policy
}

// Back-channel logout (OpenID Connect Back-Channel Logout 1.0). When a
// provider session ends (the user signs out, or another user signs in in
// the same browser) or every credential of a user ends (suspension,
// deletion, a password change), a logout is queued in the same transaction
// for each application with a back-channel logout URI the user holds a
// live grant with. DeliverLogouts posts each a logout token: a JWT of type
// logout+jwt signed with the provider's key, naming the user (sub) and the
// session (sid; absent when every session ended), iat the moment of the
// logout, so a receiver can end only the sessions that began before it.
// Deliveries go through the egress policy, are retried with backoff and
// given up after logoutMaxAttempts; several replicas lease each one.

const (
	// BackchannelLogoutEvent is the events member of a logout token.
	BackchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"
	// TypeLogoutToken is a logout token's header type.
	TypeLogoutToken = "logout+jwt"

	logoutTokenLifetime = 2 * time.Minute
	logoutLease         = time.Minute
	logoutBatch         = 50
	logoutMaxAttempts   = 8
	logoutPoll          = 5 * time.Second
)

// LogoutClaims are the claims of a logout token.
type LogoutClaims struct {
	Issuer    string                    `json:"iss"`
	Audience  []string                  `json:"aud"`
	IssuedAt  int64                     `json:"iat"`
	Expiry    int64                     `json:"exp"`
	ID        string                    `json:"jti"`
	Subject   string                    `json:"sub,omitempty"`
	SessionID string                    `json:"sid,omitempty"`
	Events    map[string]map[string]any `json:"events"`
}

// logoutBackoff is the wait after the n-th failed delivery: 10 s × 2^(n-1),
// at most an hour.
func logoutBackoff(n int) time.Duration {
	return min(10*time.Second<<min(n-1, 10), time.Hour)
}

// DeliverLogouts delivers queued back-channel logouts until ctx ends: when
// a session ends here, and every few seconds for retries and for logouts
// queued elsewhere (another replica, the console ending a user's
// credentials).
func (p *Provider) DeliverLogouts(ctx context.Context) {
	background.EveryOrWake(ctx, "back-channel logout delivery", logoutPoll, 0, p.logoutWake, func(ctx context.Context) error {
		_, err := p.logouts.deliverLogouts(ctx)
		return err
	})
}

// deliverLogouts sends the due logouts once and answers how many arrived.
func (p *logoutSender) deliverLogouts(ctx context.Context) (int, error) {
	due, err := p.store.ClaimBackchannelLogouts(ctx, p.now(), logoutLease, logoutBatch)
	if err != nil {
		return 0, err
	}
	delivered := 0
	for _, l := range due {
		err := p.sendLogout(ctx, l)
		if err == nil {
			delivered++
			err = p.store.FinishBackchannelLogout(ctx, l)
		} else if l.Attempts+1 >= logoutMaxAttempts {
			slog.WarnContext(ctx, "back-channel logout given up", "client_id", l.ClientID, "attempts", l.Attempts+1, "err", err)
			err = p.store.FinishBackchannelLogout(ctx, l)
		} else {
			slog.InfoContext(ctx, "back-channel logout failed; will retry", "client_id", l.ClientID, "attempt", l.Attempts+1, "err", err)
			err = p.store.RetryBackchannelLogout(ctx, l, p.now().Add(logoutBackoff(l.Attempts+1)), err.Error())
		}
		if err != nil {
			return delivered, err
		}
	}
	return delivered, nil
}

// sendLogout posts one logout token. Only a 200 or 204 answer counts
// (OpenID Connect Back-Channel Logout 1.0 section 2.8); redirects are not
// followed.
func (p *logoutSender) sendLogout(ctx context.Context, l *store.BackchannelLogout) error {
	now := p.now()
	c := LogoutClaims{Issuer: p.cfg.Issuer, Audience: []string{l.ClientID}, IssuedAt: l.IssuedAt.Unix(),
		Expiry: now.Add(logoutTokenLifetime).Unix(), ID: uuid.NewString(), Subject: l.UserID, SessionID: l.SessionSID,
		Events: map[string]map[string]any{BackchannelLogoutEvent: {}}}
	token, err := p.keys.signJWT(ctx, TypeLogoutToken, c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := httpapi.PostForm(ctx, p.client, l.URI, url.Values{"logout_token": {token}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return nil
}
