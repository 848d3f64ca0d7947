package store

import (
	"context"
	"time"
)

// IDPConfig is an external OIDC identity provider a customer's users sign in
// with. ClientSecretSealed is the client secret sealed for its row.
type IDPConfig struct {
	ID                 string
	CustomerID         string
	Name               string
	Issuer             string
	ClientID           string
	ClientSecretSealed []byte
	Scopes             []string
	Enabled            bool
	// LinkTrusted: a platform_admin trusts the provider to link accounts on
	// the customer's verified domains (D-linking).
	LinkTrusted bool
	// MFAEnforced: the customer says the provider enforces MFA (D-federated-mfa).
	MFAEnforced bool
	// GroupsClaim and GroupMapping: just-in-time groups (D-jit-groups).
	GroupsClaim  string
	GroupMapping map[string]string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

const idpConfigColumns = `id, customer_id, name, issuer, client_id, client_secret_sealed, scopes, enabled, created_at, updated_at,
	link_trusted, mfa_enforced, groups_claim, group_mapping`

func scanIDPConfig(r Row) (IDPConfig, error) {
	var c IDPConfig
	var scopes, mapping string
	err := r.Scan(&c.ID, &c.CustomerID, &c.Name, &c.Issuer, &c.ClientID, &c.ClientSecretSealed, &scopes, &c.Enabled,
		&c.CreatedAt, &c.UpdatedAt, &c.LinkTrusted, &c.MFAEnforced, &c.GroupsClaim, &mapping)
	c.Scopes = decodeList(scopes)
	c.GroupMapping = decodeMapping(mapping)
	return c, err
}

var idpConfigs = table[IDPConfig]{"customer_idp_configs", "identity provider", idpConfigColumns, scanIDPConfig}

// CreateIDPConfig stores an identity provider. ECONFLICT when the customer
// already has one of that name.
func (s *Tenancy) CreateIDPConfig(ctx context.Context, c *IDPConfig) error {
	return idpConfigs.insert(ctx, s.db, c.ID, c.CustomerID, c.Name, c.Issuer, c.ClientID, c.ClientSecretSealed, jsonList(c.Scopes),
		c.Enabled, c.CreatedAt.UTC(), c.UpdatedAt.UTC(), c.LinkTrusted, c.MFAEnforced, c.GroupsClaim, encodeMapping(c.GroupMapping))
}

// IDPConfig returns one identity provider. ENOTFOUND.
func (s *Tenancy) IDPConfig(ctx context.Context, id string) (*IDPConfig, error) {
	return idpConfigs.get(ctx, s.db, id)
}

// IDPConfigs lists a customer's identity providers by name.
func (s *Tenancy) IDPConfigs(ctx context.Context, customerID string) ([]IDPConfig, error) {
	return idpConfigs.list(ctx, s.db, "customer_id = $1", "name, id", customerID)
}

// UpdateIDPConfig runs fn on the stored identity provider in a transaction
// and saves what fn leaves. ENOTFOUND; ECONFLICT on a name already taken.
func (s *Tenancy) UpdateIDPConfig(ctx context.Context, id string, fn func(*IDPConfig) error) (*IDPConfig, error) {
	return idpConfigs.update(ctx, s.querier, id, fn, `name = $2, issuer = $3, client_id = $4, client_secret_sealed = $5,
		scopes = $6, enabled = $7, updated_at = $8, link_trusted = $9, mfa_enforced = $10, groups_claim = $11, group_mapping = $12`,
		func(c *IDPConfig) []any {
			return []any{c.Name, c.Issuer, c.ClientID, c.ClientSecretSealed, jsonList(c.Scopes), c.Enabled, c.UpdatedAt.UTC(),
				c.LinkTrusted, c.MFAEnforced, c.GroupsClaim, encodeMapping(c.GroupMapping)}
		})
}

// DeleteIDPConfig removes an identity provider. ENOTFOUND.
func (s *Tenancy) DeleteIDPConfig(ctx context.Context, id string) error {
	return idpConfigs.delete(ctx, s.querier, id)
}
