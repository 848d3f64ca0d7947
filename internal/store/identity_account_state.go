package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

// AccountState is what a user's account is as administrators see it (the
// users lists, a user's page): suspended, locked out by failed sign-ins,
// still waiting for its invitation to be accepted, and which second factors
// it has.
type AccountState struct {
	// SuspendedAt is zero unless the user is suspended.
	SuspendedAt time.Time
	// LockedUntil is when the lockout by failed sign-ins ends; zero, or
	// past, when none is in force.
	LockedUntil time.Time
	// FailedLogins counts the failed sign-ins since the last success or unlock.
	FailedLogins int
	// Pending: the account has no credential yet (no password, no linked
	// external identity, no passkey), so its invitation is not accepted.
	Pending bool
	// TOTP: a confirmed authenticator app; Passkeys: how many passkeys.
	TOTP     bool
	Passkeys int
}

// pendingCondition holds for a user (u) with no credential yet.
const pendingCondition = `(u.password_hash = '' AND NOT EXISTS (SELECT 1 FROM external_identities x WHERE x.user_id = u.id)
	AND NOT EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = u.id))`

// accountStateColumns read a user's (u) AccountState; scanned by accountState.
const accountStateColumns = `u.suspended_at, u.locked_until, u.failed_logins, ` + pendingCondition + `,
	EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed),
	(SELECT COUNT(*) FROM passkeys k WHERE k.user_id = u.id)`

// accountStateScan scans accountStateColumns into st: pass its
// destinations after the row's other ones, then call done.
type accountStateScan struct {
	st              *AccountState
	suspended, lock sql.NullTime
}

func (a *accountStateScan) dest() []any {
	return []any{&a.suspended, &a.lock, &a.st.FailedLogins, &a.st.Pending, &a.st.TOTP, &a.st.Passkeys}
}

func (a *accountStateScan) done() {
	a.st.SuspendedAt, a.st.LockedUntil = orTime(a.suspended, time.Time{}), orTime(a.lock, time.Time{})
}

// RemovePendingUser removes a user whose account has no credential yet
// (an invitation not accepted) with its console role and open links; the
// condition is the delete's own, so a user who accepted meanwhile stays.
// ENOTFOUND when there is no such user; EINVALID when it has a credential.
func (s *Identity) RemovePendingUser(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.User(ctx, id); err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM console_users WHERE user_id = $1`, id); err != nil {
			return err
		}
		n, err := tx.db.Exec(ctx, `DELETE FROM users AS u WHERE u.id = $1 AND `+pendingCondition, id)
		if err == nil && n == 0 {
			err = platform.Errorf(platform.EINVALID, "the user has already accepted the invitation")
		}
		return err
	})
}
