package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// CreateCustomer stores a customer; an empty Settings is stored as {}.
// ECONFLICT when the id, the organization or, case-insensitively, the name
// is taken (D-customer-names), the name's saying so.
func (s *Tenancy) CreateCustomer(ctx context.Context, c *platform.Customer) error {
	if err := s.nameFree(ctx, c.ID, c.Name); err != nil {
		return err
	}
	return customers.insert(ctx, s.db, c.ID, c.Name, c.OrgID, settingsText(c.Settings), c.CreatedAt.UTC(), c.CreatedAt.UTC())
}

// nameFree answers ECONFLICT, with a message the console shows at the
// name's field, when a customer other than id has name; the unique index
// keeps a concurrent write from slipping past it (answered as a conflict
// too, in its own words).
func (s *Tenancy) nameFree(ctx context.Context, id, name string) error {
	var taken bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM customers WHERE LOWER(name) = LOWER($1) AND id <> $2)`, name, id).Scan(&taken)
	if err == nil && taken {
		err = platform.Errorf(platform.ECONFLICT, "name %q is another customer's", name)
	}
	return err
}

// settingsText is a settings column: a JSON object, {} when empty.
func settingsText(settings json.RawMessage) string {
	if len(settings) == 0 {
		return "{}"
	}
	return string(settings)
}

// Customer returns one customer with its settings. ENOTFOUND when missing.
func (s *Tenancy) Customer(ctx context.Context, id string) (*platform.Customer, error) {
	return customers.get(ctx, s.db, id)
}

// CustomerByOrg returns the customer whose organization is orgID. ENOTFOUND.
func (s *Tenancy) CustomerByOrg(ctx context.Context, orgID string) (*platform.Customer, error) {
	return queryOne(ctx, s.db, "customer", scanCustomer, customers.selectFrom()+` WHERE org_id = $1`, orgID)
}

const customerColumns = `id, name, org_id, settings, created_at, updated_at`

var customers = table[platform.Customer]{"customers", "customer", customerColumns, scanCustomer}

func scanCustomer(r Row) (platform.Customer, error) {
	var c platform.Customer
	var settings string
	var upd sql.NullTime
	err := r.Scan(&c.ID, &c.Name, &c.OrgID, &settings, &c.CreatedAt, &upd)
	c.Settings, c.UpdatedAt = rawJSON(settings), orTime(upd, c.CreatedAt)
	return c, err
}

// ListCustomers lists the customers within f by (name, id), one page, and
// the cursor of the next page ("" on the last).
func (s *Tenancy) ListCustomers(ctx context.Context, f authz.Filter, p PageQuery) ([]platform.Customer, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	var args []any
	cond := scopeCondition(&args, f, "id", "")
	return keysetPage(ctx, s.db, p, customers.selectFrom(), cond, args, "name", "id", scanCustomer,
		func(c *platform.Customer) (string, string) { return c.Name, c.ID })
}

// CustomersByIDs returns the customers of ids that exist, in any order (a
// batch for dataloaders); Brief reads their ids, names and organizations.
func (s *Tenancy) CustomersByIDs(ctx context.Context, ids []string, d Detail) ([]platform.Customer, error) {
	if d == Brief {
		return byIDs(ctx, s.db, scanBriefCustomer, `SELECT id, name, org_id FROM customers`, "id", ids)
	}
	return byIDs(ctx, s.db, scanCustomer, customers.selectFrom(), "id", ids)
}

// CustomersWithGrants is CustomersByIDs and GrantsByCustomerIDs of ids in
// one statement: the customers that exist, in any order, and their
// customer grants by customer then grantee.
func (s *Tenancy) CustomersWithGrants(ctx context.Context, ids []string, d Detail) ([]platform.Customer, []Grant, error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	columns, scan := `c.id, c.name, c.org_id, c.settings, c.created_at, c.updated_at`, scanCustomer
	if d == Brief {
		columns, scan = `c.id, c.name, c.org_id`, scanBriefCustomer
	}
	var args []any
	cond := scopeCondition(&args, authz.Filter{CustomerIDs: ids}, "c.id", "")
	rows, err := s.db.Query(ctx, `SELECT `+columns+`, g.grantee_type, g.grantee_id, g.granted_by, g.granted_at
		FROM customers c LEFT JOIN customer_grants g ON g.customer_id = c.id
		WHERE `+cond+` ORDER BY c.id, g.grantee_type, g.grantee_id`, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var cs []platform.Customer
	var gs []Grant
	for rows.Next() {
		var granteeType, granteeID, by sql.NullString
		var at sql.NullTime
		c, err := scan(scanAlso{rows, []any{&granteeType, &granteeID, &by, &at}})
		if err != nil {
			return nil, nil, err
		}
		if len(cs) == 0 || cs[len(cs)-1].ID != c.ID {
			cs = append(cs, c)
		}
		if granteeType.Valid {
			gs = append(gs, Grant{GranteeType: granteeType.String, GranteeID: granteeID.String, TargetID: c.ID,
				GrantedBy: by.String, GrantedAt: at.Time})
		}
	}
	return cs, gs, rows.Err()
}

func scanBriefCustomer(r Row) (platform.Customer, error) {
	var c platform.Customer
	err := r.Scan(&c.ID, &c.Name, &c.OrgID)
	return c, err
}

// UpdateCustomer sets a customer's name (when not empty) and settings (when
// not nil). ENOTFOUND; ECONFLICT when another customer has the name.
func (s *Tenancy) UpdateCustomer(ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error {
	if name != "" {
		if err := s.nameFree(ctx, id, name); err != nil {
			return err
		}
	}
	return s.updateNamed(ctx, "customers", "customer", id, name, settings, now)
}

// updateNamed sets the name (when not empty) and settings (when not nil) of
// the row id of table, a customer or a tenant. ENOTFOUND naming noun.
func (s *Tenancy) updateNamed(ctx context.Context, table, noun, id, name string, settings json.RawMessage, now time.Time) error {
	var st any
	if settings != nil {
		st = string(settings)
	}
	return s.execOne(ctx, noun, `UPDATE `+table+` SET name = CASE WHEN $2 = '' THEN name ELSE $2 END,
		settings = COALESCE($3, settings), updated_at = $4 WHERE id = $1`, id, name, st, now.UTC())
}

// DeleteCustomer removes a customer and its organization at the identity
// provider, with everything that hangs off them: users, console roles,
// grants (R2.6-cascade), focus modes, instances and their connections,
// tenants and their data, and the provider's applications that were the
// customer's: its instances' applications and the clients registered with
// its initial access tokens (no client of a removed customer can still ask
// for tokens). ENOTFOUND.
func (s *Tenancy) DeleteCustomer(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		var org string
		if err := tx.db.QueryRow(ctx, `SELECT org_id FROM customers WHERE id = $1`, id).Scan(&org); err != nil {
			return wrap(err, "customer")
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM applications WHERE registered_customer_id = $1 OR app_id IN (
			SELECT c.idp_app_id FROM instance_connections c JOIN instances i ON i.id = c.instance_id
			WHERE i.customer_id = $1 AND c.idp_app_id <> '')`, id); err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM customers WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.db.Exec(ctx, `DELETE FROM organizations WHERE id = $1`, org)
		return err
	})
}

// CustomerOwners lists the user ids holding the owner role of a customer.
func (s *Tenancy) CustomerOwners(ctx context.Context, customerID string) ([]string, error) {
	return queryAll(ctx, s.db, scanString, `SELECT user_id FROM console_users WHERE customer_id = $1 AND role = 'owner' ORDER BY user_id`, customerID)
}

// TransferOwnership makes newOwnerID the only owner of a customer; the
// previous owners become admins. One transaction.
func (s *Tenancy) TransferOwnership(ctx context.Context, customerID, newOwnerID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `UPDATE console_users SET role = 'admin' WHERE customer_id = $1 AND role = 'owner'
			AND user_id <> $2`, customerID, newOwnerID); err != nil {
			return err
		}
		return tx.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: newOwnerID, Role: "owner", CustomerID: customerID, CreatedAt: now})
	})
}

// scanString scans a row of one text column.
func scanString(r Row) (string, error) {
	var v string
	err := r.Scan(&v)
	return v, err
}
