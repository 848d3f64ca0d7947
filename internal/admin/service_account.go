package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// A customer's service accounts are customer-side configuration
// (R4.6-customer-side, see identity_provider.go): the client secret is kept
// hashed, and answered once, in the answer that creates or rotates it.

// ServiceAccountView is a service account as the API shows it.
type ServiceAccountView struct {
	ID              string    `json:"id"`
	CustomerID      string    `json:"customerId"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	ClientID        string    `json:"clientId"`
	CreatedAt       time.Time `json:"createdAt"`
	SecretRotatedAt time.Time `json:"secretRotatedAt"`
}

// ServiceAccountSecret is a service account with its client secret,
// answered once when it is created or the secret rotated.
type ServiceAccountSecret struct {
	*ServiceAccountView
	ClientSecret string `json:"clientSecret"`
}

func newServiceAccountView(a *store.ServiceAccount) *ServiceAccountView {
	return &ServiceAccountView{ID: a.ID, CustomerID: a.CustomerID, Name: a.Name, Description: a.Description,
		ClientID: a.ClientID, CreatedAt: a.CreatedAt, SecretRotatedAt: a.SecretRotatedAt}
}

// ServiceAccountInput creates a service account.
type ServiceAccountInput struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// newClientSecret returns a 256-bit secret and its SHA-256 (enough for a
// random secret of that size; no password hashing is needed).
func newClientSecret() (secret, hash string) {
	secret = "sas_" + randomHex(32)
	sum := sha256.Sum256([]byte(secret))
	return secret, hex.EncodeToString(sum[:])
}

// ListServiceAccounts lists a customer's service accounts.
func (s *Service) ListServiceAccounts(ctx context.Context, c *access.Caller, customerID string) (*Page[*ServiceAccountView], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, false); err != nil {
		return nil, err
	}
	rows, err := s.store.ServiceAccounts(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newServiceAccountView)), nil
}

// CreateServiceAccount creates a service account and answers its client
// secret, this once. EINVALID; ECONFLICT when the name is taken.
func (s *Service) CreateServiceAccount(ctx context.Context, c *access.Caller, customerID string, in ServiceAccountInput) (*ServiceAccountSecret, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, true); err != nil {
		return nil, err
	}
	now := s.stamp()
	a := &store.ServiceAccount{ID: newID(), CustomerID: customerID, ClientID: "sa_" + randomHex(12), CreatedAt: now,
		SecretRotatedAt: now}
	var err error
	if a.Name, err = required("name", in.Name, 200); err != nil {
		return nil, err
	}
	if a.Description, err = text("description", in.Description, 500); err != nil {
		return nil, err
	}
	secret, hash := newClientSecret()
	a.SecretHash = hash
	if err := s.store.CreateServiceAccount(ctx, a); err != nil {
		return nil, err
	}
	return &ServiceAccountSecret{ServiceAccountView: newServiceAccountView(a), ClientSecret: secret}, nil
}

func (s *Service) serviceAccountFor(ctx context.Context, c *access.Caller, id string, write bool) (*store.ServiceAccount, error) {
	return decided(ctx, s, c, authz.ManageCustomerConfig, write, serviceAccountResource)(s.store.ServiceAccount(ctx, id))
}

// ServiceAccount returns one service account.
func (s *Service) ServiceAccount(ctx context.Context, c *access.Caller, id string) (*ServiceAccountView, error) {
	return viewing(newServiceAccountView)(s.serviceAccountFor(ctx, c, id, false))
}

// RotateServiceAccountSecret replaces a service account's secret and
// answers the new one, this once; the old one stops working.
func (s *Service) RotateServiceAccountSecret(ctx context.Context, c *access.Caller, id string) (*ServiceAccountSecret, error) {
	a, err := s.serviceAccountFor(ctx, c, id, true)
	if err != nil {
		return nil, err
	}
	secret, hash := newClientSecret()
	now := s.stamp()
	if err := s.store.RotateServiceAccountSecret(ctx, id, hash, now); err != nil {
		return nil, err
	}
	a.SecretHash, a.SecretRotatedAt = hash, now
	return &ServiceAccountSecret{ServiceAccountView: newServiceAccountView(a), ClientSecret: secret}, nil
}

// DeleteServiceAccount removes a service account.
func (s *Service) DeleteServiceAccount(ctx context.Context, c *access.Caller, id string) error {
	if _, err := s.serviceAccountFor(ctx, c, id, true); err != nil {
		return err
	}
	return s.store.DeleteServiceAccount(ctx, id)
}
