package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// TOTPFactor is a user's authenticator-app factor.
type TOTPFactor struct {
	UserID       string
	SecretSealed []byte
	Confirmed    bool
	LastStep     int64
	CreatedAt    time.Time
}

const totpColumns = `user_id, secret_enc, confirmed, last_step, created_at`

// PutTOTP starts (or restarts) an unconfirmed enrolment. A confirmed factor is
// not replaced: ECONFLICT.
func (s *Identity) PutTOTP(ctx context.Context, f *TOTPFactor) error {
	n, err := s.db.Exec(ctx, `INSERT INTO totp_factors (`+totpColumns+`)
		VALUES ($1, $2, FALSE, 0, $3)
		ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, created_at = EXCLUDED.created_at
		WHERE NOT totp_factors.confirmed`, f.UserID, f.SecretSealed, f.CreatedAt.UTC())
	if err == nil && n == 0 {
		return platform.Errorf(platform.ECONFLICT, "two-step verification is already set up")
	}
	return wrap(err, "totp factor")
}

// TOTP returns a user's factor. ENOTFOUND when none.
func (s *Identity) TOTP(ctx context.Context, userID string) (*TOTPFactor, error) {
	var f TOTPFactor
	err := s.db.QueryRow(ctx, `SELECT `+totpColumns+` FROM totp_factors WHERE user_id = $1`, userID).Scan(&f.UserID, &f.SecretSealed, &f.Confirmed, &f.LastStep, &f.CreatedAt)
	return &f, wrap(err, "totp factor")
}

// UseTOTPStep records that the code of a time step was used (confirming the
// factor) and reports false when that step or a later one was used already,
// so a code works once.
func (s *Identity) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE totp_factors SET last_step = $2, confirmed = TRUE
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	return n == 1, err
}

// ReplaceRecoveryCodes stores a new set of hashed recovery codes.
func (s *Identity) ReplaceRecoveryCodes(ctx context.Context, userID string, hashes []string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := tx.db.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// UseRecoveryCode spends a recovery code; false when unknown or used.
func (s *Identity) UseRecoveryCode(ctx context.Context, userID, hash string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE recovery_codes SET used = TRUE WHERE user_id = $1 AND code_hash = $2 AND NOT used`,
		userID, hash)
	return n == 1, err
}

// ResetSecondFactor removes every second factor of a user, the
// authenticator app (confirmed or in enrolment) with its recovery codes and
// the passkeys, and ends everything the user is signed in with
// (EndUserCredentials), in one transaction. It answers false, changing
// nothing, when the user had none of them.
func (s *Identity) ResetSecondFactor(ctx context.Context, userID string, now time.Time) (bool, error) {
	var removed int64
	err := s.InTx(ctx, func(tx *Store) error {
		for _, q := range []string{
			`DELETE FROM totp_factors WHERE user_id = $1`,
			`DELETE FROM passkeys WHERE user_id = $1`,
			`DELETE FROM recovery_codes WHERE user_id = $1`,
		} {
			n, err := tx.db.Exec(ctx, q, userID)
			if err != nil {
				return err
			}
			removed += n
		}
		if removed == 0 {
			return nil
		}
		return tx.EndUserCredentials(ctx, userID, now)
	})
	return removed > 0, err
}
