package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/authz"
)

// CustomerUser is a user of a customer's organization with its portal role
// (member when none is stored) and the state of its account.
type CustomerUser struct {
	ID         string
	CustomerID string
	OrgID      string
	Email      string
	Name       string
	Role       string
	CreatedAt  time.Time
	AccountState
	Locale string // the user's saved language (D-languages), "" for the browser's
}

const customerUserColumns = `u.id, c.id, u.org_id, u.email, u.name, COALESCE(cu.role, 'member'), u.created_at, ` + accountStateColumns + `, u.locale`

// customerUserFrom leaves out service accounts' users: they are listed as
// service accounts.
const customerUserFrom = ` FROM users u JOIN customers c ON c.org_id = u.org_id AND NOT u.service
	LEFT JOIN console_users cu ON cu.user_id = u.id `

func scanCustomerUser(r Row) (CustomerUser, error) {
	var u CustomerUser
	st := accountStateScan{st: &u.AccountState}
	err := r.Scan(append([]any{&u.ID, &u.CustomerID, &u.OrgID, &u.Email, &u.Name, &u.Role, &u.CreatedAt}, append(st.dest(), &u.Locale)...)...)
	st.done()
	return u, err
}

// CustomerUser returns a user of a customer's organization. ENOTFOUND when
// the user does not exist or belongs to no customer (internal users).
func (s *Identity) CustomerUser(ctx context.Context, id string) (*CustomerUser, error) {
	return queryOne(ctx, s.db, "user", scanCustomerUser, `SELECT `+customerUserColumns+customerUserFrom+`WHERE u.id = $1`, id)
}

// ListCustomerUsers lists customers' users within f, optionally of one
// customer and only those whose address or name contains search
// (case-insensitive), by (email, id).
func (s *Identity) ListCustomerUsers(ctx context.Context, f authz.Filter, customerID, search string, p PageQuery) ([]CustomerUser, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	args := []any{customerID}
	cond := `($1 = '' OR c.id = $1) AND ` + scopeCondition(&args, f, "c.id", "") + ` AND ` + containsCondition(&args, search, "u.email", "u.name")
	return keysetPage(ctx, s.db, p, `SELECT `+customerUserColumns+customerUserFrom, cond, args, "u.email", "u.id", scanCustomerUser,
		func(u *CustomerUser) (string, string) { return u.Email, u.ID })
}

// MoveUser moves a user to another organization and customer (home-org
// transfer), keeping its portal role. ECONFLICT when the organization
// already has a user with that address.
func (s *Identity) MoveUser(ctx context.Context, userID, orgID, customerID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET org_id = $2, updated_at = $3 WHERE id = $1`, userID, orgID, now.UTC())
		if err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `UPDATE console_users SET customer_id = $2, role = CASE WHEN role = 'owner' THEN 'admin' ELSE role END
			WHERE user_id = $1`, userID, customerID); err != nil {
			return err
		}
		for _, q := range []string{ // a group holds only users of its organization
			`DELETE FROM tenant_members WHERE user_id = $1`,
			`DELETE FROM scim_external_ids WHERE user_id = $1`, // the directory's id is its organization's
			`DELETE FROM group_members WHERE user_id = $1`,
			`DELETE FROM group_managers WHERE user_id = $1`,
		} {
			if _, err := tx.db.Exec(ctx, q, userID); err != nil {
				return err
			}
		}
		return nil
	})
}
