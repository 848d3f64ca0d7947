package store

import (
	"context"
	"time"
)

// ServiceAccount is a customer's machine client. SecretHash is the SHA-256
// of its secret, which is shown once.
type ServiceAccount struct {
	ID              string
	CustomerID      string
	Name            string
	Description     string
	ClientID        string
	SecretHash      string
	CreatedAt       time.Time
	SecretRotatedAt time.Time
}

const serviceAccountColumns = `id, customer_id, name, description, client_id, secret_hash, created_at, secret_rotated_at`

func scanServiceAccount(r Row) (ServiceAccount, error) {
	var a ServiceAccount
	err := r.Scan(&a.ID, &a.CustomerID, &a.Name, &a.Description, &a.ClientID, &a.SecretHash, &a.CreatedAt, &a.SecretRotatedAt)
	return a, err
}

// CreateServiceAccount stores a service account. ECONFLICT when the
// customer has one of that name.
func (s *Store) CreateServiceAccount(ctx context.Context, a *ServiceAccount) error {
	_, err := s.db.Exec(ctx, `INSERT INTO service_accounts (`+serviceAccountColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		a.ID, a.CustomerID, a.Name, a.Description, a.ClientID, a.SecretHash, a.CreatedAt.UTC(), a.SecretRotatedAt.UTC())
	return wrap(err, "service account")
}

// ServiceAccount returns one service account. ENOTFOUND.
func (s *Store) ServiceAccount(ctx context.Context, id string) (*ServiceAccount, error) {
	return queryOne(ctx, s.db, "service account", scanServiceAccount, `SELECT `+serviceAccountColumns+` FROM service_accounts WHERE id = $1`, id)
}

// ServiceAccounts lists a customer's service accounts by name.
func (s *Store) ServiceAccounts(ctx context.Context, customerID string) ([]ServiceAccount, error) {
	return queryAll(ctx, s.db, scanServiceAccount, `SELECT `+serviceAccountColumns+` FROM service_accounts WHERE customer_id = $1
		ORDER BY name, id`, customerID)
}

// RotateServiceAccountSecret replaces the secret's hash. ENOTFOUND.
func (s *Store) RotateServiceAccountSecret(ctx context.Context, id, hash string, now time.Time) error {
	return s.execOne(ctx, "service account", `UPDATE service_accounts SET secret_hash = $2, secret_rotated_at = $3 WHERE id = $1`,
		id, hash, now.UTC())
}

// DeleteServiceAccount removes a service account. ENOTFOUND.
func (s *Store) DeleteServiceAccount(ctx context.Context, id string) error {
	return s.execOne(ctx, "service account", `DELETE FROM service_accounts WHERE id = $1`, id)
}
