package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

// ServiceAccount is a machine principal (D-service-accounts): a users row
// marked as a service (UserID) with its console Role, inside a customer
// (CustomerID) or, empty, an internal one; and the identity provider's
// client it authenticates as (ClientID, with the application's secret hash
// or public keys).
type ServiceAccount struct {
	ID              string
	CustomerID      string
	Name            string
	Description     string
	ClientID        string
	SecretHash      string
	UserID          string
	Role            string
	CreatedAt       time.Time
	SecretRotatedAt time.Time
}

const serviceAccountColumns = `id, customer_id, name, description, client_id, secret_hash, created_at, secret_rotated_at, user_id, role`

func scanServiceAccount(r Row) (ServiceAccount, error) {
	var a ServiceAccount
	var customer sql.NullString
	err := r.Scan(&a.ID, &customer, &a.Name, &a.Description, &a.ClientID, &a.SecretHash, &a.CreatedAt, &a.SecretRotatedAt,
		&a.UserID, &a.Role)
	a.CustomerID = customer.String
	return a, err
}

var serviceAccounts = table[ServiceAccount]{"service_accounts", "service account", serviceAccountColumns, scanServiceAccount}

// CreateServiceAccount stores a service account with everything it is, in
// one transaction: its principal (a service users row in orgID and its
// console role) and its client app at the identity provider. ECONFLICT
// when the customer (or, for internal ones, the platform) has one of that
// name; EINVALID for an app that does not validate.
func (s *Identity) CreateServiceAccount(ctx context.Context, a *ServiceAccount, orgID string, app *platform.Application) error {
	if err := app.Validate(); err != nil {
		return err
	}
	return s.InTx(ctx, func(tx *Store) error {
		if a.CustomerID == "" { // UNIQUE (customer_id, name) does not hold for NULLs
			var n int
			if err := tx.db.QueryRow(ctx, `SELECT COUNT(*) FROM service_accounts WHERE customer_id IS NULL AND name = $1`,
				a.Name).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return wrap(ErrUnique, "service account")
			}
		}
		principal := &platform.User{ID: a.UserID, OrgID: orgID, Email: a.ClientID + "@service-accounts.invalid", Name: a.Name,
			CreatedAt: a.CreatedAt, UpdatedAt: a.CreatedAt}
		if err := tx.insertUser(ctx, principal, true); err != nil {
			return wrap(err, "service account")
		}
		if err := tx.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: a.UserID, Role: a.Role, CustomerID: a.CustomerID,
			CreatedAt: a.CreatedAt}); err != nil {
			return err
		}
		if err := serviceAccounts.insert(ctx, tx.db, a.ID, nullString(a.CustomerID), a.Name, a.Description, a.ClientID,
			a.SecretHash, a.CreatedAt.UTC(), a.SecretRotatedAt.UTC(), a.UserID, a.Role); err != nil {
			return err
		}
		return tx.CreateApplication(ctx, app)
	})
}

// ServiceAccount returns one service account. ENOTFOUND.
func (s *Identity) ServiceAccount(ctx context.Context, id string) (*ServiceAccount, error) {
	return serviceAccounts.get(ctx, s.db, id)
}

// ServiceAccounts lists a customer's service accounts by name, or the
// internal ones for customerID "".
func (s *Identity) ServiceAccounts(ctx context.Context, customerID string) ([]ServiceAccount, error) {
	return serviceAccounts.list(ctx, s.db, "($1 = '' AND customer_id IS NULL) OR customer_id = $1", "name, id", customerID)
}

// ServiceAccountApp returns the identity provider's client of a service
// account. ENOTFOUND.
func (s *Identity) ServiceAccountApp(ctx context.Context, a *ServiceAccount) (*platform.Application, error) {
	return s.all.ApplicationByClientID(ctx, a.ClientID)
}

// UpdateServiceAccountCredentials replaces what a service account
// authenticates with (fn changes its client app: secret, method, keys) and
// ends every token it holds, in one transaction. ENOTFOUND; EINVALID.
func (s *Identity) UpdateServiceAccountCredentials(ctx context.Context, id string, now time.Time, fn func(*platform.Application) error) (*ServiceAccount, error) {
	var out *ServiceAccount
	err := s.InTx(ctx, func(tx *Store) error {
		a, err := tx.ServiceAccount(ctx, id)
		if err != nil {
			return err
		}
		app, err := tx.ApplicationByClientID(ctx, a.ClientID)
		if err != nil {
			return err
		}
		if err := fn(app); err != nil {
			return err
		}
		if err := tx.UpdateApplication(ctx, app); err != nil {
			return err
		}
		a.SecretHash, a.SecretRotatedAt = app.SecretHash, now
		if err := tx.execOne(ctx, "service account", `UPDATE service_accounts SET secret_hash = $2, secret_rotated_at = $3
			WHERE id = $1`, id, a.SecretHash, now.UTC()); err != nil {
			return err
		}
		out = a
		return tx.EndUserCredentials(ctx, a.UserID, now)
	})
	return out, err
}

// SetServiceAccountRole changes a service account's console role. ENOTFOUND.
func (s *Identity) SetServiceAccountRole(ctx context.Context, id, role string) error {
	return s.InTx(ctx, func(tx *Store) error {
		a, err := tx.ServiceAccount(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.execOne(ctx, "service account", `UPDATE service_accounts SET role = $2 WHERE id = $1`, id, role); err != nil {
			return err
		}
		return tx.execOne(ctx, "service account", `UPDATE console_users SET role = $2 WHERE user_id = $1`, a.UserID, role)
	})
}

// DeleteServiceAccount removes a service account, its principal (whose
// tokens end at once) and its client. ENOTFOUND.
func (s *Identity) DeleteServiceAccount(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		a, err := tx.ServiceAccount(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.execOne(ctx, "service account", `DELETE FROM service_accounts WHERE id = $1`, id); err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM applications WHERE client_id = $1`, a.ClientID); err != nil {
			return err
		}
		return tx.DeleteUser(ctx, a.UserID)
	})
}

// ServiceAccountCustomer is the customer of the service account whose
// principal is userID, "" for an internal one. ENOTFOUND.
func (s *Identity) ServiceAccountCustomer(ctx context.Context, userID string) (string, error) {
	var c sql.NullString
	err := s.db.QueryRow(ctx, `SELECT customer_id FROM service_accounts WHERE user_id = $1`, userID).Scan(&c)
	return c.String, wrap(err, "service account")
}
