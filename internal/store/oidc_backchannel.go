package store

import (
	"context"
	"time"
)

// BackchannelLogout is a logout waiting to be delivered to an application's
// back-channel logout URI (OpenID Connect Back-Channel Logout 1.0).
type BackchannelLogout struct {
	ClientID string
	UserID   string
	// SessionSID is the provider session that ended; empty when every
	// session of the user ended.
	SessionSID    string
	URI           string
	IssuedAt      time.Time
	Attempts      int
	NextAttemptAt time.Time
}

// queueLogouts queues a logout of userID (and sid) for every application
// with a back-channel logout URI the user holds a live grant with; a
// pending one for the same application, user and sid is moved forward.
const queueLogouts = `INSERT INTO backchannel_logouts (client_id, user_id, session_sid, issued_at, attempts, next_attempt_at)
	SELECT client_id, $1, $2, $3, 0, $3 FROM applications WHERE backchannel_logout_uri <> '' AND client_id IN
		(SELECT client_id FROM token_grants WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $3)
	ON CONFLICT (client_id, user_id, session_sid) DO UPDATE SET issued_at = EXCLUDED.issued_at, attempts = 0,
		next_attempt_at = EXCLUDED.next_attempt_at, last_error = ''`

// QueueBackchannelLogouts queues the logout of a user's provider session
// sid ("" for every session) to the applications the user is signed in to
// that receive logout tokens. It answers how many were queued.
func (s *OIDC) QueueBackchannelLogouts(ctx context.Context, userID, sid string, now time.Time) (int64, error) {
	return s.db.Exec(ctx, queueLogouts, userID, sid, now.UTC())
}

// EndSession deletes a provider session, queues its back-channel logouts
// and ends every grant the session made (D-session-grants): their access
// and refresh tokens and the tenant sessions they created, in one
// transaction.
func (s *OIDC) EndSession(ctx context.Context, idHash, userID, sid string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.QueueBackchannelLogouts(ctx, userID, sid, now); err != nil { // while the grants still name the applications
			return err
		}
		if sid != "" {
			if err := tx.endGrants(ctx, now, `user_id = $1 AND session_sid = $2`, userID, sid); err != nil {
				return err
			}
		}
		return tx.DeleteSession(ctx, idHash)
	})
}

// ClaimBackchannelLogouts leases up to limit due logouts for delivery: each
// is kept from other replicas until now+lease (a row another replica
// claimed first is skipped).
func (s *OIDC) ClaimBackchannelLogouts(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*BackchannelLogout, error) {
	due, err := queryAll(ctx, s.db, func(r Row) (*BackchannelLogout, error) {
		var l BackchannelLogout
		err := r.Scan(&l.ClientID, &l.UserID, &l.SessionSID, &l.URI, &l.IssuedAt, &l.Attempts, &l.NextAttemptAt)
		return &l, err
	}, `SELECT l.client_id, l.user_id, l.session_sid, a.backchannel_logout_uri, l.issued_at, l.attempts, l.next_attempt_at
		FROM backchannel_logouts l JOIN applications a ON a.client_id = l.client_id
		WHERE l.next_attempt_at <= $1 ORDER BY l.next_attempt_at LIMIT $2`, now.UTC(), limit)
	if err != nil {
		return nil, err
	}
	claimed := due[:0]
	for _, l := range due {
		n, err := s.db.Exec(ctx, `UPDATE backchannel_logouts SET next_attempt_at = $5
			WHERE client_id = $1 AND user_id = $2 AND session_sid = $3 AND next_attempt_at = $4`,
			l.ClientID, l.UserID, l.SessionSID, l.NextAttemptAt, now.Add(lease).UTC())
		if err != nil {
			return nil, err
		}
		if n == 1 {
			l.NextAttemptAt = now.Add(lease).UTC()
			claimed = append(claimed, l)
		}
	}
	return claimed, nil
}

// FinishBackchannelLogout removes a delivered (or given up) logout, unless
// a newer one for the same application, user and sid was queued meanwhile.
func (s *OIDC) FinishBackchannelLogout(ctx context.Context, l *BackchannelLogout) error {
	_, err := s.db.Exec(ctx, `DELETE FROM backchannel_logouts WHERE client_id = $1 AND user_id = $2 AND session_sid = $3
		AND issued_at = $4`, l.ClientID, l.UserID, l.SessionSID, l.IssuedAt.UTC())
	return err
}

// RetryBackchannelLogout records a failed attempt and when to try again.
func (s *OIDC) RetryBackchannelLogout(ctx context.Context, l *BackchannelLogout, next time.Time, reason string) error {
	if len(reason) > 500 {
		reason = reason[:500]
	}
	_, err := s.db.Exec(ctx, `UPDATE backchannel_logouts SET attempts = attempts + 1, next_attempt_at = $5, last_error = $6
		WHERE client_id = $1 AND user_id = $2 AND session_sid = $3 AND issued_at = $4`,
		l.ClientID, l.UserID, l.SessionSID, l.IssuedAt.UTC(), next.UTC(), reason)
	return err
}
