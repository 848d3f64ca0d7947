package store

import (
	"context"
	"time"
)

// UserSessions lists a user's unexpired browser sessions at the identity
// provider, newest first (the account page).
func (s *Identity) UserSessions(ctx context.Context, userID string, now time.Time) ([]Session, error) {
	return queryAll(ctx, s.db, scanSession, `SELECT `+sessionColumns+` FROM idp_sessions
		WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC, id_hash`, userID, now.UTC())
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
