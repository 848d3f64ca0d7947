package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

const userColumns = `id, org_id, email, email_verified, name, password_hash, failed_logins, locked_until, created_at, updated_at, locale`

func scanUser(r Row) (*platform.User, error) {
	var u platform.User
	var locked sql.NullTime
	err := r.Scan(&u.ID, &u.OrgID, &u.Email, &u.EmailVerified, &u.Name, &u.PasswordHash,
		&u.FailedLogins, &locked, &u.CreatedAt, &u.UpdatedAt, &u.Locale)
	if locked.Valid {
		u.LockedUntil = locked.Time
	}
	return &u, err
}

// CreateUser inserts a user; the e-mail is normalized. ECONFLICT when the
// organization already has that address.
func (s *Identity) CreateUser(ctx context.Context, u *platform.User) error {
	u.Email = platform.NormalizeEmail(u.Email)
	return wrap(s.insertUser(ctx, u, false), "user")
}

// insertUser inserts u, a service account's principal when service is true.
func (s *Identity) insertUser(ctx context.Context, u *platform.User, service bool) error {
	_, err := s.db.Exec(ctx, `INSERT INTO users (`+userColumns+`, service) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		u.ID, u.OrgID, u.Email, u.EmailVerified, u.Name, u.PasswordHash, u.FailedLogins,
		nullTime(u.LockedUntil), u.CreatedAt.UTC(), u.UpdatedAt.UTC(), u.Locale, service)
	return err
}

// User returns one user by id. ENOTFOUND when missing.
func (s *Identity) User(ctx context.Context, id string) (*platform.User, error) {
	u, err := scanUser(s.db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	return u, wrap(err, "user")
}

// UsersByEmail returns the users with this address, optionally within one
// organization (orgID != ""), ordered by organization. Service accounts'
// users are never found by address.
func (s *Identity) UsersByEmail(ctx context.Context, email, orgID string) ([]*platform.User, error) {
	return queryAll(ctx, s.db, scanUser, `SELECT `+userColumns+` FROM users
		WHERE email = $1 AND ($2 = '' OR org_id = $2) AND NOT service ORDER BY org_id`, platform.NormalizeEmail(email), orgID)
}

// RenameUser sets a user's display name. ENOTFOUND.
func (s *Identity) RenameUser(ctx context.Context, id, name string, now time.Time) error {
	return s.execOne(ctx, "user", `UPDATE users SET name = $2, updated_at = $3 WHERE id = $1`, id, name, now.UTC())
}

// SetUserLocale saves the language a user chose for pages and e-mails
// ("" for none; D-languages). ENOTFOUND.
func (s *Identity) SetUserLocale(ctx context.Context, id, locale string, now time.Time) error {
	return s.execOne(ctx, "user", `UPDATE users SET locale = $2, updated_at = $3 WHERE id = $1`, id, locale, now.UTC())
}

// AttemptReservation is what ReserveLoginAttempt answers.
type AttemptReservation int

// The answers of ReserveLoginAttempt.
const (
	AttemptReserved AttemptReservation = iota // the check may run; FinishLoginAttempt ends it
	AttemptLocked                             // the account is locked
	AttemptBusy                               // the account's attempts left are all in flight
)

// ReserveLoginAttempt takes one of the attempts an account has left before
// its credential is checked (D-lockout), so concurrent checks cannot
// overtake the lockout: the failures counted and the checks in flight
// together stay under maxAttempts. It answers AttemptLocked while the
// account is locked at now, AttemptBusy while its attempts left are all in
// flight (a right answer among them gives its attempt back: try again), and
// otherwise AttemptReserved, restarting the count after an expired lock.
// Checks in flight reserved before staleBefore, with none reserved since,
// are forgotten (a process that ended mid-check). (NULLIF of the column
// with itself is a NULL of the column's type, which PostgreSQL needs.)
func (s *Identity) ReserveLoginAttempt(ctx context.Context, userID string, maxAttempts int, now, staleBefore time.Time) (AttemptReservation, error) {
	const (
		failures = `CASE WHEN locked_until IS NOT NULL THEN 0 ELSE failed_logins END`
		pending  = `CASE WHEN pending_since IS NULL OR pending_since < $4 THEN 0 ELSE pending_logins END`
	)
	n, err := s.db.Exec(ctx, `UPDATE users SET failed_logins = `+failures+`,
		locked_until = NULLIF(locked_until, locked_until), pending_logins = `+pending+` + 1, pending_since = $3
		WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $3) AND `+failures+` + `+pending+` < $2`,
		userID, maxAttempts, now.UTC(), staleBefore.UTC())
	if err != nil {
		return 0, err
	}
	if n == 1 {
		return AttemptReserved, nil
	}
	var locked sql.NullTime
	if err := s.db.QueryRow(ctx, `SELECT locked_until FROM users WHERE id = $1`, userID).Scan(&locked); err != nil {
		return 0, wrap(err, "user")
	}
	if locked.Valid && locked.Time.After(now) {
		return AttemptLocked, nil
	}
	return AttemptBusy, nil
}

// FinishLoginAttempt ends a reserved attempt: a right answer (ok) clears
// the failures and any lock, a wrong one counts a failure and locks the
// account until lockUntil when the count reaches maxAttempts. It returns
// the failures counted.
func (s *Identity) FinishLoginAttempt(ctx context.Context, userID string, ok bool, maxAttempts int, lockUntil time.Time) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `UPDATE users SET
		pending_logins = CASE WHEN pending_logins > 0 THEN pending_logins - 1 ELSE 0 END,
		failed_logins = CASE WHEN $2 THEN 0 ELSE failed_logins + 1 END,
		locked_until = CASE WHEN $2 THEN NULLIF(locked_until, locked_until)
			WHEN failed_logins + 1 >= $3 THEN $4 ELSE locked_until END
		WHERE id = $1 RETURNING failed_logins`, userID, ok, maxAttempts, lockUntil.UTC()).Scan(&n)
	return n, wrap(err, "user")
}

// ReleaseLoginAttempt gives a reserved attempt back uncounted: its check
// came to no answer (the hash queue was full, the store failed).
func (s *Identity) ReleaseLoginAttempt(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `UPDATE users SET pending_logins = pending_logins - 1 WHERE id = $1 AND pending_logins > 0`, userID)
	return err
}

// RecordLoginFailure counts a failed attempt and locks the account until
// lockUntil once the count reaches maxFailures. It returns the new count.
func (s *Identity) RecordLoginFailure(ctx context.Context, userID string, maxFailures int, lockUntil time.Time) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `UPDATE users SET failed_logins = failed_logins + 1,
		locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3 ELSE locked_until END
		WHERE id = $1 RETURNING failed_logins`, userID, maxFailures, lockUntil.UTC()).Scan(&n)
	return n, wrap(err, "user")
}

// ResetLoginFailures clears the failure count and any lock after a success.
func (s *Identity) ResetLoginFailures(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `UPDATE users SET failed_logins = 0, locked_until = NULL
		WHERE id = $1 AND (failed_logins <> 0 OR locked_until IS NOT NULL)`, userID)
	return err
}

// SetPassword replaces a user's password hash and, in the same transaction,
// ends everything the user was signed in with (EndUserCredentials): after a
// reset no token or session issued before it is accepted (D-reset). ENOTFOUND.
func (s *Identity) SetPassword(ctx context.Context, userID, hash string) error {
	now := time.Now().UTC()
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1`, userID, hash, now)
		if err != nil {
			return err
		}
		return tx.EndUserCredentials(ctx, userID, now)
	})
}

// RehashPassword replaces a user's password hash with the same password
// hashed with other parameters, only while the stored hash is still old:
// a password set in between is kept. Unlike SetPassword it ends nothing
// (the password did not change). It reports whether it replaced the hash.
func (s *Identity) RehashPassword(ctx context.Context, userID, old, hash string) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2`, userID, old, hash)
	return n > 0, wrap(err, "user")
}

// SetUserSuspended suspends a user (at not zero) or reactivates it (zero).
// Suspending also ends everything the user is signed in with
// (EndUserCredentials): a reactivated user signs in again. ENOTFOUND.
func (s *Identity) SetUserSuspended(ctx context.Context, userID string, at time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET suspended_at = $2, updated_at = COALESCE($2, updated_at) WHERE id = $1`,
			userID, nullTime(at))
		if err != nil || at.IsZero() {
			return err
		}
		return tx.EndUserCredentials(ctx, userID, at)
	})
}

// UserSuspended reports whether a user is suspended. ENOTFOUND.
func (s *Identity) UserSuspended(ctx context.Context, userID string) (bool, error) {
	var susp sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT suspended_at FROM users WHERE id = $1`, userID).Scan(&susp)
	return susp.Valid, wrap(err, "user")
}

// DeleteUser removes a user with its console role, sessions and factors. ENOTFOUND.
func (s *Identity) DeleteUser(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `DELETE FROM console_users WHERE user_id = $1`, id); err != nil {
			return err
		}
		if err := tx.EndUserCredentials(ctx, id, time.Now()); err != nil {
			return err
		}
		return tx.execOne(ctx, "user", `DELETE FROM users WHERE id = $1`, id)
	})
}

// LiftExpiredLock clears a lock of userID that has run out at now, and its
// count of failures: true when this call lifted it (of several at once,
// one does).
func (s *Identity) LiftExpiredLock(ctx context.Context, userID string, now time.Time) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE users SET failed_logins = 0, locked_until = NULL
		WHERE id = $1 AND locked_until IS NOT NULL AND locked_until <= $2`, userID, now.UTC())
	return n == 1, err
}

// ExpiredLocks lists at most limit users whose lock has run out at now and
// was not lifted yet (LiftExpiredLock lifts each).
func (s *Identity) ExpiredLocks(ctx context.Context, now time.Time, limit int) ([]*platform.User, error) {
	return queryAll(ctx, s.db, scanUser, `SELECT `+userColumns+` FROM users
		WHERE locked_until IS NOT NULL AND locked_until <= $1 ORDER BY locked_until, id LIMIT $2`, now.UTC(), limit)
}
