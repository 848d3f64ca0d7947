package store

import (
	"context"
	"database/sql"
	"slices"
	"time"
)

// UserGrant is one application a user is signed in to, as the account
// page lists it (D-your-sessions): a live grant with its application's
// name, when it was granted and when it was last used — when the
// application last received an access token of it (its sign-in or a
// refresh), the grant's time when none is kept any more.
type UserGrant struct {
	ID         string
	ClientID   string
	AppName    string
	SessionSID string
	CreatedAt  time.Time
	LastUsedAt time.Time
}

// UserGrants lists a user's live grants, most recently used first, at most
// limit. The last use is read per grant (a column of its newest access
// token, which both databases scan as a time).
func (s *OIDC) UserGrants(ctx context.Context, userID string, now time.Time, limit int) ([]UserGrant, error) {
	gs, err := queryAll(ctx, s.db, func(r Row) (UserGrant, error) {
		var g UserGrant
		var name sql.NullString
		err := r.Scan(&g.ID, &g.ClientID, &name, &g.SessionSID, &g.CreatedAt)
		g.AppName, g.LastUsedAt = name.String, g.CreatedAt
		return g, err
	}, `SELECT g.id, g.client_id, a.name, g.session_sid, g.created_at
		FROM token_grants g LEFT JOIN applications a ON a.client_id = g.client_id
		WHERE g.user_id = $1 AND g.revoked_at IS NULL AND g.expires_at > $2
		ORDER BY g.created_at DESC, g.id LIMIT $3`, userID, now.UTC(), limit)
	if err != nil {
		return nil, err
	}
	for i := range gs {
		var last time.Time
		err := s.db.QueryRow(ctx, `SELECT created_at FROM access_tokens WHERE family_id = $1 ORDER BY created_at DESC LIMIT 1`,
			gs[i].ID).Scan(&last)
		switch {
		case err == nil && last.After(gs[i].LastUsedAt):
			gs[i].LastUsedAt = last
		case err != nil && err != ErrNoRows:
			return nil, err
		}
	}
	slices.SortStableFunc(gs, func(a, b UserGrant) int { return b.LastUsedAt.Compare(a.LastUsedAt) })
	return gs, nil
}

// EndUserGrant revokes a user's live grant id: its application is told by
// back-channel logout when it receives them (for the grant's session), and
// the grant's access and refresh tokens and tenant sessions end, in one
// transaction. ENOTFOUND when the user holds no such live grant (another
// user's grant is not touched).
func (s *OIDC) EndUserGrant(ctx context.Context, userID, id string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		var one int
		err := tx.db.QueryRow(ctx, `SELECT 1 FROM token_grants WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
			AND expires_at > $3`, id, userID, now.UTC()).Scan(&one)
		if err != nil {
			return wrap(err, "grant")
		}
		if _, err := tx.db.Exec(ctx, `INSERT INTO backchannel_logouts (client_id, user_id, session_sid, issued_at, attempts, next_attempt_at)
			SELECT g.client_id, g.user_id, g.session_sid, $3, 0, $3 FROM token_grants g JOIN applications a ON a.client_id = g.client_id
			WHERE g.id = $1 AND g.user_id = $2 AND a.backchannel_logout_uri <> ''
			ON CONFLICT (client_id, user_id, session_sid) DO UPDATE SET issued_at = EXCLUDED.issued_at, attempts = 0,
				next_attempt_at = EXCLUDED.next_attempt_at, last_error = ''`, id, userID, now.UTC()); err != nil {
			return err
		}
		return tx.endGrants(ctx, now, `id = $1 AND user_id = $2`, id, userID)
	})
}
