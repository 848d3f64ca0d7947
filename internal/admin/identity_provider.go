package admin

import (
	"context"
	"regexp"
	"slices"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// identityProviders manages a customer's identity providers and how its
// users sign in (sso.go).
type identityProviders struct {
	*core
	egress egress.Policy // where an issuer may point (WithEgress)
}

// Customer-side configuration (R4.6-customer-side): every method needs
// manage_customer_config on the resource's customer. Secrets are sealed
// (identity providers, webhooks) or hashed (service accounts) and never
// returned, except a generated secret once, in the answer that creates or
// rotates it.

// A customer's identity providers are the external OIDC providers of its
// organization at the identity provider: each is kept in
// customer_idp_configs (the console's record, with its enabled flag) and,
// while enabled, in the identity provider's external_idps under the same id,
// written in one transaction, so SSO configured here is what sign-in uses
// (resolve-org lists it, the identity provider redirects to it). The client
// secret is sealed once, for the identity provider's purpose.

// IdentityProvider is an external OIDC identity provider of a customer
// (SSO) as the API shows it; the client secret never leaves the service.
type IdentityProvider struct {
	ID              string   `json:"id"`
	CustomerID      string   `json:"customerId"`
	Name            string   `json:"name"`
	Issuer          string   `json:"issuer"`
	ClientID        string   `json:"clientId"`
	ClientSecretSet bool     `json:"clientSecretSet"`
	Scopes          []string `json:"scopes"`
	Enabled         bool     `json:"enabled"`
	// LinkTrusted: a platform_admin trusts the provider to link existing
	// accounts on the customer's domains (D-linking).
	LinkTrusted bool `json:"linkTrusted"`
	// MFAEnforced: the customer says the provider enforces MFA itself
	// (D-federated-mfa).
	MFAEnforced bool `json:"mfaEnforced"`
	// GroupsClaim and GroupMapping: just-in-time groups (D-jit-groups).
	GroupsClaim  string            `json:"groupsClaim"`
	GroupMapping map[string]string `json:"groupMapping"`
	CreatedAt    time.Time         `json:"createdAt"`
	UpdatedAt    time.Time         `json:"updatedAt"`
}

func newIdentityProvider(c *store.IDPConfig) *IdentityProvider {
	return &IdentityProvider{ID: c.ID, CustomerID: c.CustomerID, Name: c.Name, Issuer: c.Issuer, ClientID: c.ClientID,
		ClientSecretSet: len(c.ClientSecretSealed) > 0, Scopes: c.Scopes, Enabled: c.Enabled, LinkTrusted: c.LinkTrusted,
		MFAEnforced: c.MFAEnforced, GroupsClaim: c.GroupsClaim, GroupMapping: mappingView(c.GroupMapping), CreatedAt: c.CreatedAt,
		UpdatedAt: c.UpdatedAt}
}

// mappingView answers a group mapping, {} when none.
func mappingView(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// IdentityProviderInput creates an identity provider. Scopes default to
// openid profile email and must include openid; Enabled defaults to true.
type IdentityProviderInput struct {
	Name         string   `json:"name"`
	Issuer       string   `json:"issuer"`
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret"`
	Scopes       []string `json:"scopes,omitempty"`
	Enabled      *bool    `json:"enabled,omitempty"`
	// LinkTrusted true needs trust_identity_provider (platform_admin).
	LinkTrusted *bool `json:"linkTrusted,omitempty"`
	MFAEnforced *bool `json:"mfaEnforced,omitempty"`
	// GroupsClaim names the ID token's claim listing the user's groups;
	// GroupMapping maps its values to the customer's groups by id or name
	// (D-jit-groups).
	GroupsClaim  string            `json:"groupsClaim,omitempty"`
	GroupMapping map[string]string `json:"groupMapping,omitempty"`
}

// IdentityProviderPatch changes an identity provider; nil fields stay.
// Disabling removes it from sign-in (and the identities linked to it). A new
// issuer is another provider: the identities linked to the old one are
// unlinked and the provider's linking trust ends, unless the same request
// trusts it again (D-linking).
type IdentityProviderPatch struct {
	Name         *string   `json:"name,omitempty"`
	Issuer       *string   `json:"issuer,omitempty"`
	ClientID     *string   `json:"clientId,omitempty"`
	ClientSecret *string   `json:"clientSecret,omitempty"`
	Scopes       *[]string `json:"scopes,omitempty"`
	Enabled      *bool     `json:"enabled,omitempty"`
	LinkTrusted  *bool     `json:"linkTrusted,omitempty"`
	MFAEnforced  *bool     `json:"mfaEnforced,omitempty"`
	// GroupsClaim "" turns just-in-time groups off; GroupMapping replaces
	// the mapping ({} for none).
	GroupsClaim  *string            `json:"groupsClaim,omitempty"`
	GroupMapping *map[string]string `json:"groupMapping,omitempty"`
}

// TrustInput sets whether a provider is trusted to link accounts; LinkTrusted is required.
type TrustInput struct {
	LinkTrusted *bool `json:"linkTrusted"`
}

// TrustIdentityProvider marks a provider trusted for linking accounts on the
// customer's domains, or not (D-linking; trust_identity_provider, which only
// platform_admin holds). EINVALID without linkTrusted.
func (s *identityProviders) TrustIdentityProvider(ctx context.Context, c *access.Caller, id string, in TrustInput) (*IdentityProvider, error) {
	if in.LinkTrusted == nil {
		return nil, invalid("linkTrusted is required (true or false)")
	}
	return s.updateIdentityProvider(ctx, c, OpIdentityProviderTrust, id, IdentityProviderPatch{LinkTrusted: in.LinkTrusted})
}

// checkTrust refuses, unless c holds trust_identity_provider, a request
// that would make a provider trusted for linking.
func (s *identityProviders) checkTrust(ctx context.Context, c *access.Caller, customerID string, trusted *bool) error {
	if trusted == nil || !*trusted {
		return nil
	}
	return s.check(ctx, c, OpIdentityProviderTrust, authz.Resource{CustomerID: customerID})
}

var scopeRE = regexp.MustCompile(`^[\x21\x23-\x5B\x5D-\x7E]{1,100}$`) // RFC 6749 scope-token

func identityScopes(in []string) ([]string, error) {
	if in == nil {
		return []string{"openid", "profile", "email"}, nil
	}
	if len(in) > 20 {
		return nil, invalid("scopes must be at most 20")
	}
	out := []string{}
	for _, sc := range in {
		if !scopeRE.MatchString(sc) {
			return nil, invalid("scope %q is not a valid scope token", sc)
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	if !slices.Contains(out, "openid") {
		return nil, invalid("scopes must include openid")
	}
	return out, nil
}

// issuerURL validates an identity provider's issuer by the rule of webhook
// URLs (outboundURL): an internal issuer would have the identity provider
// fetch internal addresses at sign-in.
func (s *identityProviders) issuerURL(ctx context.Context, raw string) (string, error) {
	return outboundURL(ctx, s.egress, "issuer", raw)
}

// external is the identity provider's record of an enabled provider.
func external(c *store.IDPConfig, orgID string) *platform.ExternalIDP {
	return &platform.ExternalIDP{ID: c.ID, OrgID: orgID, Name: c.Name, Issuer: c.Issuer, ClientID: c.ClientID,
		SecretSealed: c.ClientSecretSealed, Scopes: c.Scopes, LinkTrusted: c.LinkTrusted, MFAEnforced: c.MFAEnforced,
		GroupsClaim: c.GroupsClaim, GroupMapping: c.GroupMapping, CreatedAt: c.CreatedAt}
}

// ListIdentityProviders lists a customer's identity providers.
func (s *identityProviders) ListIdentityProviders(ctx context.Context, c *access.Caller, customerID string) (*Page[*IdentityProvider], error) {
	return customerList(ctx, s.core, c, OpIdentityProviderList, customerID, s.store.IDPConfigs, newIdentityProvider)
}

// CreateIdentityProvider adds an identity provider to a customer; enabled,
// its users can sign in with it. EINVALID; ECONFLICT when the customer has
// one of that name, or MaxIdentityProviders.
func (s *identityProviders) CreateIdentityProvider(ctx context.Context, c *access.Caller, customerID string, in IdentityProviderInput) (*IdentityProvider, error) {
	cust, err := s.customerFor(ctx, c, customerID, OpIdentityProviderCreate)
	if err != nil {
		return nil, err
	}
	if err := s.checkTrust(ctx, c, customerID, in.LinkTrusted); err != nil {
		return nil, err
	}
	now := s.stamp()
	row := &store.IDPConfig{ID: newID(), CustomerID: customerID, Enabled: true, CreatedAt: now, UpdatedAt: now,
		LinkTrusted: in.LinkTrusted != nil && *in.LinkTrusted, MFAEnforced: in.MFAEnforced != nil && *in.MFAEnforced}
	if row.Name, err = required("name", in.Name, 100); err != nil {
		return nil, err
	}
	if row.Issuer, err = s.issuerURL(ctx, in.Issuer); err != nil {
		return nil, err
	}
	if row.ClientID, err = required("clientId", in.ClientID, 255); err != nil {
		return nil, err
	}
	secret, err := required("clientSecret", in.ClientSecret, 1000)
	if err != nil {
		return nil, err
	}
	if row.Scopes, err = identityScopes(in.Scopes); err != nil {
		return nil, err
	}
	if in.Enabled != nil {
		row.Enabled = *in.Enabled
	}
	if row.GroupsClaim, row.GroupMapping, err = s.groupMapping(ctx, cust.OrgID, in.GroupsClaim, in.GroupMapping); err != nil {
		return nil, err
	}
	row.ClientSecretSealed = s.secrets().Seal([]byte(secret), secrets.LabelIDPSecret(row.ID))
	err = s.audited(ctx, c, OpIdentityProviderCreate, on(customerID, "identity-providers", row.ID), func(tx *store.Store) error {
		if err := withinBudget(ctx, tx, store.CustomerIdentityProviders, customerID); err != nil {
			return err
		}
		if err := tx.CreateIDPConfig(ctx, row); err != nil {
			return err
		}
		if row.Enabled {
			return tx.CreateExternalIDP(ctx, external(row, cust.OrgID))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newIdentityProvider(row), nil
}

// identityProviderFor loads an identity provider and checks op on it.
func (s *identityProviders) identityProviderFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.IDPConfig, error) {
	return decided(ctx, s.core, c, op, identityProviderResource)(s.store.IDPConfig(ctx, id))
}

// IdentityProvider returns one identity provider. ENOTFOUND or EFORBIDDEN
// per the scope mode.
func (s *identityProviders) IdentityProvider(ctx context.Context, c *access.Caller, id string) (*IdentityProvider, error) {
	return viewing(newIdentityProvider)(s.identityProviderFor(ctx, c, id, OpIdentityProviderGet))
}

// keepsSSO refuses to take the last provider out of an SSO-only
// organization (ECONFLICT), which would lock its users out.
func keepsSSO(ctx context.Context, tx *store.Store, orgID, leaving string) error {
	p, err := tx.LoginPolicy(ctx, orgID)
	if err != nil || p.PasswordAllowed || !p.SSOAllowed {
		return err
	}
	xs, err := tx.ExternalIDPs(ctx, orgID)
	if err != nil {
		return err
	}
	if len(xs) == 1 && xs[0].ID == leaving {
		return platform.Errorf(platform.ECONFLICT, "the customer signs in with SSO only and this is its last identity provider; allow passwords first")
	}
	return nil
}

// UpdateIdentityProvider changes an identity provider, and what sign-in
// uses with it. EINVALID; ECONFLICT for a name taken, or for disabling the
// last provider of an SSO-only customer.
func (s *identityProviders) UpdateIdentityProvider(ctx context.Context, c *access.Caller, id string, in IdentityProviderPatch) (*IdentityProvider, error) {
	return s.updateIdentityProvider(ctx, c, OpIdentityProviderUpdate, id, in)
}

// updateIdentityProvider changes an identity provider as op: an update, or
// a trust (which changes the provider as well, so both are decided).
func (s *identityProviders) updateIdentityProvider(ctx context.Context, c *access.Caller, op Operation, id string, in IdentityProviderPatch) (*IdentityProvider, error) {
	old, err := s.identityProviderFor(ctx, c, id, op)
	if err != nil {
		return nil, err
	}
	if op != OpIdentityProviderUpdate {
		if err := s.check(ctx, c, OpIdentityProviderUpdate, identityProviderResource(old)); err != nil {
			return nil, err
		}
	}
	if err := s.checkTrust(ctx, c, old.CustomerID, in.LinkTrusted); err != nil {
		return nil, err
	}
	if in.Issuer != nil { // checked before the transaction: the check may look the name up
		if _, err := s.issuerURL(ctx, *in.Issuer); err != nil {
			return nil, err
		}
	}
	cust, err := s.store.Customer(ctx, old.CustomerID)
	if err != nil {
		return nil, err
	}
	if in.GroupsClaim != nil || in.GroupMapping != nil { // checked before the transaction: it reads the groups
		claim, mapping := old.GroupsClaim, old.GroupMapping
		if in.GroupsClaim != nil {
			claim = *in.GroupsClaim
		}
		if in.GroupMapping != nil {
			mapping = *in.GroupMapping
		}
		if claim, mapping, err = s.groupMapping(ctx, cust.OrgID, claim, mapping); err != nil {
			return nil, err
		}
		in.GroupsClaim, in.GroupMapping = &claim, &mapping
	}
	var row *store.IDPConfig
	err = s.audited(ctx, c, op, on(old.CustomerID, "identity-providers", id), func(tx *store.Store) error {
		wasEnabled, oldIssuer := false, ""
		row, err = tx.UpdateIDPConfig(ctx, id, func(row *store.IDPConfig) error {
			wasEnabled, oldIssuer = row.Enabled, row.Issuer
			return s.patchIdentityProvider(row, in)
		})
		if err == nil && row.Issuer != oldIssuer {
			// another issuer's subjects are not this one's: nothing stays linked
			err = tx.DeleteExternalIdentities(ctx, id)
		}
		switch {
		case err != nil:
			return err
		case wasEnabled && row.Enabled:
			return tx.UpdateExternalIDP(ctx, external(row, cust.OrgID))
		case wasEnabled:
			if err := keepsSSO(ctx, tx, cust.OrgID, id); err != nil {
				return err
			}
			if err := tx.DeleteExternalIDP(ctx, id); platform.ErrorCode(err) != platform.ENOTFOUND {
				return err
			}
			return nil
		case row.Enabled:
			return tx.CreateExternalIDP(ctx, external(row, cust.OrgID))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newIdentityProvider(row), nil
}

func (s *identityProviders) patchIdentityProvider(row *store.IDPConfig, in IdentityProviderPatch) error {
	var err error
	prevIssuer := row.Issuer
	if in.Name != nil {
		if row.Name, err = required("name", *in.Name, 100); err != nil {
			return err
		}
	}
	if in.Issuer != nil {
		if row.Issuer, err = endpointURL("issuer", *in.Issuer); err != nil {
			return err
		}
	}
	if in.ClientID != nil {
		if row.ClientID, err = required("clientId", *in.ClientID, 255); err != nil {
			return err
		}
	}
	if in.ClientSecret != nil {
		secret, err := required("clientSecret", *in.ClientSecret, 1000)
		if err != nil {
			return err
		}
		row.ClientSecretSealed = s.secrets().Seal([]byte(secret), secrets.LabelIDPSecret(row.ID))
	}
	if in.Scopes != nil {
		if row.Scopes, err = identityScopes(*in.Scopes); err != nil {
			return err
		}
	}
	if in.Enabled != nil {
		row.Enabled = *in.Enabled
	}
	if row.Issuer != prevIssuer && in.LinkTrusted == nil {
		row.LinkTrusted = false // the trust was in the old issuer
	}
	if in.LinkTrusted != nil {
		row.LinkTrusted = *in.LinkTrusted
	}
	if in.GroupsClaim != nil {
		row.GroupsClaim = *in.GroupsClaim
	}
	if in.GroupMapping != nil {
		row.GroupMapping = *in.GroupMapping
	}
	if in.MFAEnforced != nil {
		row.MFAEnforced = *in.MFAEnforced
	}
	row.UpdatedAt = s.stamp()
	return nil
}

// DeleteIdentityProvider removes an identity provider from the customer and
// from sign-in. ECONFLICT for the last provider of an SSO-only customer.
func (s *identityProviders) DeleteIdentityProvider(ctx context.Context, c *access.Caller, id string) error {
	row, err := s.identityProviderFor(ctx, c, id, OpIdentityProviderDelete)
	if err != nil {
		return err
	}
	cust, err := s.store.Customer(ctx, row.CustomerID)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpIdentityProviderDelete, on(row.CustomerID, "identity-providers", id), func(tx *store.Store) error {
		if row.Enabled {
			if err := keepsSSO(ctx, tx, cust.OrgID, id); err != nil {
				return err
			}
			if err := tx.DeleteExternalIDP(ctx, id); err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
				return err
			}
		}
		return tx.DeleteIDPConfig(ctx, id)
	})
}

func identityProviderResource(c *store.IDPConfig) authz.Resource {
	return authz.Resource{CustomerID: c.CustomerID}
}

// IdentityProviderResource is the customer of the identity provider id.
func (s *identityProviders) IdentityProviderResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(identityProviderResource)(s.store.IDPConfig(ctx, id))
}

// MaxGroupMapping bounds a provider's group mapping, in entries.
const MaxGroupMapping = 100

var claimRE = regexp.MustCompile(`^[A-Za-z0-9_:/-]+(\.[A-Za-z0-9_:/-]+)*$`)

// groupMapping checks a provider's just-in-time groups (D-jit-groups): a
// claim name (a dotted path, at most 100 characters; "" turns the mapping
// off and needs no mapping) and at most MaxGroupMapping claim values of at
// most 200 characters, each naming a group of the organization by id or
// name (EINVALID otherwise). A claim without a mapping is refused: it would
// do nothing.
func (s *identityProviders) groupMapping(ctx context.Context, orgID, claim string, m map[string]string) (string, map[string]string, error) {
	switch {
	case claim == "" && len(m) > 0:
		return "", nil, invalid("groupMapping needs a groupsClaim")
	case claim == "":
		return "", nil, nil
	case len(claim) > 100 || !claimRE.MatchString(claim):
		return "", nil, invalid("groupsClaim must be a claim name (letters, digits, _ : / -, dotted for a nested claim)")
	case len(m) == 0:
		return "", nil, invalid("groupsClaim needs a groupMapping")
	case len(m) > MaxGroupMapping:
		return "", nil, invalid("groupMapping must have at most %d entries", MaxGroupMapping)
	}
	refs := make([]string, 0, len(m))
	for k, v := range m {
		if k == "" || len(k) > 200 || v == "" || len(v) > 200 {
			return "", nil, invalid("groupMapping keys and values must be 1 to 200 characters")
		}
		refs = append(refs, v)
	}
	found, err := s.store.GroupsNamed(ctx, orgID, refs)
	if err != nil {
		return "", nil, err
	}
	for _, ref := range refs {
		if !slices.ContainsFunc(found, func(g platform.Group) bool { return g.ID == ref || g.Name == ref }) {
			return "", nil, invalid("groupMapping names %q, which is not a group of the customer", ref)
		}
	}
	return claim, m, nil
}
