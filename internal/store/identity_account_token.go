package store

import (
	"context"
	"database/sql"
	"time"
)

// Kinds of account token (D-reset).
const (
	TokenInvitation = "invitation"
	TokenReset      = "reset"
	TokenVerify     = "verify"
)

// AccountToken is a single-use link sent by e-mail; only its hash is kept.
type AccountToken struct {
	Hash      string
	Kind      string
	UserID    string
	Email     string // the address a verification confirms
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

const accountTokenColumns = `token_hash, kind, user_id, email, created_at, expires_at, used_at`

func scanAccountToken(r Row) (AccountToken, error) {
	var t AccountToken
	var used sql.NullTime
	err := r.Scan(&t.Hash, &t.Kind, &t.UserID, &t.Email, &t.CreatedAt, &t.ExpiresAt, &used)
	t.UsedAt = timePtr(used)
	return t, err
}

// CreateAccountToken stores a new token. When only is true, the user's
// other unused tokens of the same kind are deleted first, so only the
// newest link works (a resent invitation).
func (s *Identity) CreateAccountToken(ctx context.Context, t *AccountToken, only bool) error {
	return s.InTx(ctx, func(tx *Store) error {
		if only {
			if err := tx.DeleteAccountTokens(ctx, t.UserID, t.Kind); err != nil {
				return err
			}
		}
		_, err := tx.db.Exec(ctx, `INSERT INTO account_tokens (`+accountTokenColumns+`) VALUES ($1, $2, $3, $4, $5, $6, NULL)`,
			t.Hash, t.Kind, t.UserID, t.Email, t.CreatedAt.UTC(), t.ExpiresAt.UTC())
		return wrap(err, "account token")
	})
}

// AccountToken returns a token of kind that is unused and unexpired at now.
// ENOTFOUND otherwise (unknown, used, expired or of another kind alike).
func (s *Identity) AccountToken(ctx context.Context, hash, kind string, now time.Time) (*AccountToken, error) {
	return queryOne(ctx, s.db, "link", scanAccountToken, `SELECT `+accountTokenColumns+` FROM account_tokens
		WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3`, hash, kind, now.UTC())
}

// UseAccountToken spends a token of kind that is unused and unexpired at
// now, once: of two concurrent uses one wins. ENOTFOUND otherwise.
func (s *Identity) UseAccountToken(ctx context.Context, hash, kind string, now time.Time) (*AccountToken, error) {
	return queryOne(ctx, s.db, "link", scanAccountToken, `UPDATE account_tokens SET used_at = $3
		WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3 RETURNING `+accountTokenColumns,
		hash, kind, now.UTC())
}

// DeleteAccountTokens deletes a user's unused tokens of kind (a revoked or
// resent invitation, a new password ending older reset links).
func (s *Identity) DeleteAccountTokens(ctx context.Context, userID, kind string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM account_tokens WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`, userID, kind)
	return err
}

// OpenAccountTokens counts a user's unused, unexpired tokens of kind.
func (s *Identity) OpenAccountTokens(ctx context.Context, userID, kind string, now time.Time) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM account_tokens WHERE user_id = $1 AND kind = $2 AND used_at IS NULL
		AND expires_at > $3`, userID, kind, now.UTC()).Scan(&n)
	return n, err
}

// DeleteExpiredAccountTokens removes tokens past their expiry.
func (s *Identity) DeleteExpiredAccountTokens(ctx context.Context, now time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM account_tokens WHERE expires_at <= $1`, now.UTC())
	return err
}

// SetPasswordByLink spends a link of kind (invitation or reset) and sets
// the user's password in one transaction (D-reset): the link is used once
// (of two concurrent submissions one wins), the address counts as verified
// (the message reached it), the lockout is lifted, the user's other open
// links of that kind end, and so does everything the user was signed in
// with (SetPassword → EndUserCredentials). ENOTFOUND when the link is
// unknown, used or expired at now.
func (s *Identity) SetPasswordByLink(ctx context.Context, hash, kind, passwordHash string, now time.Time) (*AccountToken, error) {
	var tok *AccountToken
	err := s.InTx(ctx, func(tx *Store) error {
		var err error
		if tok, err = tx.UseAccountToken(ctx, hash, kind, now); err != nil {
			return err
		}
		if err := tx.SetPassword(ctx, tok.UserID, passwordHash); err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `UPDATE users SET email_verified = TRUE, failed_logins = 0, locked_until = NULL
			WHERE id = $1`, tok.UserID); err != nil {
			return err
		}
		return tx.DeleteAccountTokens(ctx, tok.UserID, kind)
	})
	return tok, err
}

// ConfirmEmail spends a verification link and makes its address the
// user's, verified, in one transaction; the user's open reset and
// confirmation links, mailed before, stop working. ENOTFOUND for an unknown, used or
// expired link; ECONFLICT when the organization has the address meanwhile
// (the link stays unspent).
func (s *Identity) ConfirmEmail(ctx context.Context, hash string, now time.Time) (*AccountToken, error) {
	var tok *AccountToken
	err := s.InTx(ctx, func(tx *Store) error {
		var err error
		if tok, err = tx.UseAccountToken(ctx, hash, TokenVerify, now); err != nil {
			return err
		}
		if err := tx.execOne(ctx, "user", `UPDATE users SET email = $2, email_verified = TRUE, updated_at = $3 WHERE id = $1`,
			tok.UserID, tok.Email, now.UTC()); err != nil {
			return err
		}
		// links mailed to the old address (a reset, another confirmation) end with it
		_, err = tx.db.Exec(ctx, `DELETE FROM account_tokens WHERE user_id = $1 AND used_at IS NULL AND kind IN ($2, $3)`,
			tok.UserID, TokenReset, TokenVerify)
		return err
	})
	return tok, err
}
