package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// UserSessions lists a user's unexpired browser sessions at the identity
// provider, newest first (the account page).
func (s *Identity) UserSessions(ctx context.Context, userID string, now time.Time) ([]Session, error) {
	return queryAll(ctx, s.db, scanSession, `SELECT `+sessionColumns+` FROM idp_sessions
		WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC, id_hash`, userID, now.UTC())
}

// UserSessionPage is one page of a user's unexpired browser sessions at
// the identity provider, newest first (by creation, then sid), as
// administrators list them: at most platform.NewestPages.Size(p.Limit)
// after p's cursor, and the cursor of the next page ("" on the last).
// EINVALID for a bad cursor.
func (s *Identity) UserSessionPage(ctx context.Context, userID string, now time.Time, p PageQuery) ([]Session, string, error) {
	args := []any{userID, now.UTC()}
	cond, err := newestAfter(&args, p.Cursor, "created_at", "sid")
	if err != nil {
		return nil, "", err
	}
	return onePage(ctx, s.db, `SELECT `+sessionColumns+` FROM idp_sessions WHERE user_id = $1 AND expires_at > $2 AND `+cond+
		` ORDER BY created_at DESC, sid DESC`, args, platform.NewestPages.Size(p.Limit), scanSession,
		func(ss *Session) string { return newestCursor(ss.CreatedAt, ss.SID) })
}

// EndUserSession ends the browser session sid of userID as signing out of
// it does (EndSession: its back-channel logouts queued, every grant it made
// ended with their tokens and tenant sessions), in one transaction.
// ENOTFOUND when the user has no such unexpired session.
func (s *Identity) EndUserSession(ctx context.Context, userID, sid string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		ss, err := queryOne(ctx, tx.db, "session", scanSession, `SELECT `+sessionColumns+` FROM idp_sessions
			WHERE user_id = $1 AND sid = $2 AND sid <> '' AND expires_at > $3`, userID, sid, now.UTC())
		if err != nil {
			return err
		}
		return tx.EndSession(ctx, ss.IDHash, userID, sid, now)
	})
}

// DeleteOtherSessions ends a user's browser sessions except the one whose
// cookie hashes to keepHash, with their back-channel logouts, in one
// transaction, and reports how many ended.
func (s *Identity) DeleteOtherSessions(ctx context.Context, userID, keepHash string, now time.Time) (int64, error) {
	var n int64
	err := s.InTx(ctx, func(tx *Store) error {
		sids, err := queryAll(ctx, tx.db, scanString, `SELECT sid FROM idp_sessions WHERE user_id = $1 AND id_hash <> $2`, userID, keepHash)
		if err != nil {
			return err
		}
		for _, sid := range sids {
			if _, err := tx.QueueBackchannelLogouts(ctx, userID, sid, now); err != nil {
				return err
			}
		}
		n, err = tx.db.Exec(ctx, `DELETE FROM idp_sessions WHERE user_id = $1 AND id_hash <> $2`, userID, keepHash)
		return err
	})
	return n, err
}

// DeleteTOTP removes a user's authenticator and recovery codes (the account
// page's reset, before a new enrolment).
func (s *Identity) DeleteTOTP(ctx context.Context, userID string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.db.Exec(ctx, `DELETE FROM totp_factors WHERE user_id = $1`, userID)
		return err
	})
}
