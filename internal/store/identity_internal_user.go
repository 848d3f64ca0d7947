package store

import (
	"context"
	"time"
)

// InternalUser is a user of the administrator organization with an
// internal role, and the state of its account.
type InternalUser struct {
	ID        string
	Email     string
	Name      string
	Role      string
	CreatedAt time.Time
	AccountState
}

// internalUserQuery reads the users with an internal role: a console role
// of no customer.
const internalUserQuery = `SELECT u.id, u.email, u.name, cu.role, cu.created_at, ` + accountStateColumns + `
	FROM console_users cu JOIN users u ON u.id = cu.user_id AND cu.customer_id IS NULL`

func scanInternalUser(r Row) (InternalUser, error) {
	var u InternalUser
	st := accountStateScan{st: &u.AccountState}
	err := r.Scan(append([]any{&u.ID, &u.Email, &u.Name, &u.Role, &u.CreatedAt}, st.dest()...)...)
	st.done()
	return u, err
}

// InternalUser returns one internal user. ENOTFOUND.
func (s *Identity) InternalUser(ctx context.Context, id string) (*InternalUser, error) {
	return queryOne(ctx, s.db, "internal user", scanInternalUser, internalUserQuery+` WHERE u.id = $1`, id)
}

// ListInternalUsers lists internal users by (email, id), only those whose
// address or name contains search (case-insensitive).
func (s *Identity) ListInternalUsers(ctx context.Context, search string, p PageQuery) ([]InternalUser, string, error) {
	var args []any
	cond := containsCondition(&args, search, "u.email", "u.name")
	return keysetPage(ctx, s.db, p, internalUserQuery, cond, args, "u.email", "u.id", scanInternalUser,
		func(u *InternalUser) (string, string) { return u.Email, u.ID })
}

// RemoveInternalUser takes an internal user's role, grants, focus mode and
// groups away and suspends its account. ENOTFOUND.
func (s *Identity) RemoveInternalUser(ctx context.Context, id string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "internal user", `DELETE FROM console_users WHERE user_id = $1 AND customer_id IS NULL`, id)
		if err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM customer_grants WHERE grantee_type = 'user' AND grantee_id = $1`,
			`DELETE FROM instance_grants WHERE grantee_type = 'user' AND grantee_id = $1`,
			`DELETE FROM focus_modes WHERE user_id = $1`,
			`DELETE FROM group_members WHERE user_id = $1`,
			`DELETE FROM group_managers WHERE user_id = $1`,
		} {
			if _, err := tx.db.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return tx.SetUserSuspended(ctx, id, now)
	})
}
