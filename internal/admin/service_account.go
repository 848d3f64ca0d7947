package admin

import (
	"context"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/clientkeys"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// serviceAccounts manages customers' and internal service accounts.
type serviceAccounts struct {
	*core
	adminOrgID string // where internal service accounts are made (WithAdminOrg)
}

// A service account is a machine principal (D-service-accounts): it holds a
// console role, inside its customer (admin, billing, viewer or member) or,
// created by a platform_admin, an internal one, and acts as that principal
// through the same access path as users. It authenticates at the identity
// provider's token endpoint with client_credentials: its secret
// (client_secret_basic or client_secret_post) or a key whose public half is
// registered here (private_key_jwt, RFC 7523). The secret is shown once,
// when it is created or rotated; rotating the secret or the keys, or
// deleting the account, ends every token it holds at once. A customer's
// service accounts are customer-side configuration (R4.6-customer-side);
// internal ones are managed like internal users.

// ServiceAccountView is a service account as the API shows it.
type ServiceAccountView struct {
	ID              string    `json:"id"`
	CustomerID      *string   `json:"customerId"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	Role            string    `json:"role"`
	ClientID        string    `json:"clientId"`
	AuthMethod      string    `json:"authMethod"`
	KeyIDs          []string  `json:"keyIds"`
	CreatedAt       time.Time `json:"createdAt"`
	SecretRotatedAt time.Time `json:"secretRotatedAt"`
}

// ServiceAccountSecret is a service account with its client secret,
// answered once when it is created or the secret rotated.
type ServiceAccountSecret struct {
	*ServiceAccountView
	ClientSecret string `json:"clientSecret"`
}

func newServiceAccountView(a *store.ServiceAccount, app *platform.Application) *ServiceAccountView {
	v := &ServiceAccountView{ID: a.ID, CustomerID: orNull(a.CustomerID), Name: a.Name, Description: a.Description,
		Role: a.Role, ClientID: a.ClientID, KeyIDs: []string{}, CreatedAt: a.CreatedAt, SecretRotatedAt: a.SecretRotatedAt}
	if app != nil {
		v.AuthMethod, v.KeyIDs = app.TokenAuthMethod(), clientkeys.KeyIDs(app.JWKS)
	}
	return v
}

// ServiceAccountInput creates a service account. Role is required: a
// portal role but owner for a customer's, an internal role but
// platform_admin for an internal one. AuthMethod defaults to
// client_secret_basic; private_key_jwt needs JWKS, the public keys.
type ServiceAccountInput struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Role        string          `json:"role"`
	AuthMethod  string          `json:"authMethod,omitempty"`
	JWKS        json.RawMessage `json:"jwks,omitempty"`
}

// ServiceAccountKeysInput replaces a service account's public keys; the
// account authenticates with private_key_jwt from then on.
type ServiceAccountKeysInput struct {
	JWKS json.RawMessage `json:"jwks"`
}

// ServiceAccountRoleInput changes a service account's role.
type ServiceAccountRoleInput struct {
	Role string `json:"role"`
}

// newClientSecret returns a 256-bit secret and how it is kept.
func newClientSecret() (secret, hash string) {
	secret = "sas_" + randomHex(32)
	return secret, platform.HashSecret(secret)
}

// ListServiceAccounts lists a customer's service accounts.
func (s *serviceAccounts) ListServiceAccounts(ctx context.Context, c *access.Caller, customerID string) (*Page[*ServiceAccountView], error) {
	if _, err := s.customerFor(ctx, c, customerID, OpServiceAccountList); err != nil {
		return nil, err
	}
	return s.listServiceAccounts(ctx, customerID)
}

// ListInternalServiceAccounts lists the internal service accounts.
func (s *serviceAccounts) ListInternalServiceAccounts(ctx context.Context, c *access.Caller) (*Page[*ServiceAccountView], error) {
	if err := s.infra(ctx, c, OpInternalServiceAccountList); err != nil {
		return nil, err
	}
	return s.listServiceAccounts(ctx, "")
}

func (s *serviceAccounts) listServiceAccounts(ctx context.Context, customerID string) (*Page[*ServiceAccountView], error) {
	rows, err := s.store.ServiceAccounts(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]*ServiceAccountView, 0, len(rows))
	for i := range rows {
		v, err := s.serviceAccountView(ctx, &rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return WholePage(out), nil
}

// CreateServiceAccount creates a customer's service account and answers
// its client secret, this once. EINVALID; ECONFLICT when the name is taken
// or the customer has MaxServiceAccounts.
func (s *serviceAccounts) CreateServiceAccount(ctx context.Context, c *access.Caller, customerID string, in ServiceAccountInput) (*ServiceAccountSecret, error) {
	cust, err := s.customerFor(ctx, c, customerID, OpServiceAccountCreate)
	if err != nil {
		return nil, err
	}
	role, err := portalRole(in.Role)
	if err != nil {
		return nil, err
	}
	return s.createServiceAccount(ctx, c, OpServiceAccountCreate, customerID, cust.OrgID, role, in)
}

// CreateInternalServiceAccount creates an internal service account
// (platform_admin) and answers its client secret, this once. EINVALID;
// ECONFLICT when the name is taken.
func (s *serviceAccounts) CreateInternalServiceAccount(ctx context.Context, c *access.Caller, in ServiceAccountInput) (*ServiceAccountSecret, error) {
	if err := s.infra(ctx, c, OpInternalServiceAccountCreate); err != nil {
		return nil, err
	}
	role, err := internalRole(in.Role)
	if err != nil {
		return nil, err
	}
	if role == authz.PlatformAdmin {
		return nil, invalid("a service account cannot be platform_admin; give it the narrowest internal role that does the job")
	}
	if s.adminOrgID == "" {
		return nil, platform.Errorf(platform.EINTERNAL, "no administrator organization is configured")
	}
	return s.createServiceAccount(ctx, c, OpInternalServiceAccountCreate, "", s.adminOrgID, role, in)
}

func (s *serviceAccounts) createServiceAccount(ctx context.Context, c *access.Caller, op Operation, customerID, orgID string, role authz.Role,
	in ServiceAccountInput) (*ServiceAccountSecret, error) {
	now := s.stamp()
	a := &store.ServiceAccount{ID: newID(), CustomerID: customerID, ClientID: "sa_" + randomHex(12), UserID: newID(),
		Role: role.String(), CreatedAt: now, SecretRotatedAt: now}
	var err error
	if a.Name, err = required("name", in.Name, 200); err != nil {
		return nil, err
	}
	if a.Description, err = text("description", in.Description, 500); err != nil {
		return nil, err
	}
	secret, hash := newClientSecret()
	a.SecretHash = hash
	app := &platform.Application{AppID: "sa-" + a.ID, ClientID: a.ClientID, Name: a.Name, Kind: platform.AppService,
		SecretHash: hash, AuthMethod: platform.AuthSecretBasic, UserID: a.UserID, CreatedAt: now}
	if err := setAuthMethod(app, in.AuthMethod, in.JWKS); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, op, on(customerID, "service-accounts", a.ID), func(tx *store.Store) error {
		if customerID != "" {
			if err := withinBudget(ctx, tx, store.CustomerServiceAccounts, customerID); err != nil {
				return err
			}
		}
		return tx.CreateServiceAccount(ctx, a, orgID, app)
	})
	if err != nil {
		return nil, err
	}
	return &ServiceAccountSecret{ServiceAccountView: newServiceAccountView(a, app), ClientSecret: secret}, nil
}

// setAuthMethod sets how app authenticates: method (default: as it is) and,
// for private_key_jwt, its public keys.
func setAuthMethod(app *platform.Application, method string, jwks json.RawMessage) error {
	if method != "" {
		switch method {
		case platform.AuthSecretBasic, platform.AuthSecretPost, platform.AuthPrivateKeyJWT:
			app.AuthMethod = method
		default:
			return invalid("authMethod must be client_secret_basic, client_secret_post or private_key_jwt")
		}
	}
	if len(jwks) > 0 {
		keys, err := clientkeys.Validate(jwks)
		if err != nil {
			return err
		}
		app.JWKS = keys
	}
	if app.AuthMethod == platform.AuthPrivateKeyJWT && app.JWKS == "" {
		return invalid("private_key_jwt needs jwks: the public keys the service account signs with")
	}
	return nil
}

// serviceAccountFor loads a service account and checks op on it; an
// internal account (of no customer) is decided again as managing internal
// users are.
func (s *serviceAccounts) serviceAccountFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.ServiceAccount, error) {
	a, err := decided(ctx, s.core, c, op, serviceAccountResource)(s.store.ServiceAccount(ctx, id))
	if err != nil || a.CustomerID != "" {
		return a, err
	}
	internal := OpInternalServiceAccountRead
	if op.Write {
		internal = OpInternalServiceAccountChange
	}
	if err := s.infra(ctx, c, internal); err != nil {
		return nil, err
	}
	return a, nil
}

func (s *serviceAccounts) serviceAccountView(ctx context.Context, a *store.ServiceAccount) (*ServiceAccountView, error) {
	app, err := s.store.ServiceAccountApp(ctx, a)
	if err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
		return nil, err
	}
	return newServiceAccountView(a, app), nil
}

// ServiceAccount returns one service account.
func (s *serviceAccounts) ServiceAccount(ctx context.Context, c *access.Caller, id string) (*ServiceAccountView, error) {
	a, err := s.serviceAccountFor(ctx, c, id, OpServiceAccountGet)
	if err != nil {
		return nil, err
	}
	return s.serviceAccountView(ctx, a)
}

// RotateServiceAccountSecret replaces a service account's secret and
// answers the new one, this once; the old one stops working and every
// token of the account ends.
func (s *serviceAccounts) RotateServiceAccountSecret(ctx context.Context, c *access.Caller, id string) (*ServiceAccountSecret, error) {
	a, err := s.serviceAccountFor(ctx, c, id, OpServiceAccountSecretRotate)
	if err != nil {
		return nil, err
	}
	secret, hash := newClientSecret()
	a, app, err := s.changeCredentials(ctx, c, OpServiceAccountSecretRotate, a, func(x *platform.Application) error {
		x.SecretHash = hash
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ServiceAccountSecret{ServiceAccountView: newServiceAccountView(a, app), ClientSecret: secret}, nil
}

// SetServiceAccountKeys replaces a service account's public keys; it
// authenticates with private_key_jwt from then on, and every token it
// held ends. EINVALID.
func (s *serviceAccounts) SetServiceAccountKeys(ctx context.Context, c *access.Caller, id string, in ServiceAccountKeysInput) (*ServiceAccountView, error) {
	a, err := s.serviceAccountFor(ctx, c, id, OpServiceAccountKeysPut)
	if err != nil {
		return nil, err
	}
	if len(in.JWKS) == 0 {
		return nil, invalid("jwks is required")
	}
	a, app, err := s.changeCredentials(ctx, c, OpServiceAccountKeysPut, a, func(x *platform.Application) error {
		return setAuthMethod(x, platform.AuthPrivateKeyJWT, in.JWKS)
	})
	if err != nil {
		return nil, err
	}
	return newServiceAccountView(a, app), nil
}

// changeCredentials changes the credentials of the service account a as op
// (change edits its application) and answers the account and application
// as stored.
func (s *serviceAccounts) changeCredentials(ctx context.Context, c *access.Caller, op Operation, a *store.ServiceAccount,
	change func(*platform.Application) error) (*store.ServiceAccount, *platform.Application, error) {
	var app *platform.Application
	a, err := auditedRow(ctx, s.core, c, op, on(a.CustomerID, "service-accounts", a.ID), func(tx *store.Store) (*store.ServiceAccount, error) {
		return tx.UpdateServiceAccountCredentials(ctx, a.ID, s.stamp(), func(x *platform.Application) error {
			app = x
			return change(x)
		})
	})
	return a, app, err
}

// SetServiceAccountRole changes a service account's role: a portal role
// but owner for a customer's, an internal role but platform_admin for an
// internal one. EINVALID.
func (s *serviceAccounts) SetServiceAccountRole(ctx context.Context, c *access.Caller, id string, in ServiceAccountRoleInput) (*ServiceAccountView, error) {
	a, err := s.serviceAccountFor(ctx, c, id, OpServiceAccountRolePut)
	if err != nil {
		return nil, err
	}
	var role authz.Role
	if a.CustomerID != "" {
		role, err = portalRole(in.Role)
	} else if role, err = internalRole(in.Role); err == nil && role == authz.PlatformAdmin {
		err = invalid("a service account cannot be platform_admin")
	}
	if err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpServiceAccountRolePut, on(a.CustomerID, "service-accounts", id), func(tx *store.Store) error {
		return tx.SetServiceAccountRole(ctx, id, role.String())
	})
	if err != nil {
		return nil, err
	}
	a.Role = role.String()
	return s.serviceAccountView(ctx, a)
}

// DeleteServiceAccount removes a service account; its tokens end at once.
func (s *serviceAccounts) DeleteServiceAccount(ctx context.Context, c *access.Caller, id string) error {
	a, err := s.serviceAccountFor(ctx, c, id, OpServiceAccountDelete)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpServiceAccountDelete, on(a.CustomerID, "service-accounts", id), func(tx *store.Store) error {
		return tx.DeleteServiceAccount(ctx, id)
	})
}

func serviceAccountResource(a *store.ServiceAccount) authz.Resource {
	return authz.Resource{CustomerID: a.CustomerID}
}

// ServiceAccountResource is the customer of the service account id.
func (s *serviceAccounts) ServiceAccountResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(serviceAccountResource)(s.store.ServiceAccount(ctx, id))
}
