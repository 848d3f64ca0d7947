package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"slices"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/webhook"
)

// Customer-side configuration (R4.6-customer-side): every method needs
// manage_customer_config on the resource's customer. Secrets are sealed
// (identity providers, webhooks) or hashed (service accounts) and never
// returned, except a generated secret once, in the answer that creates or
// rotates it.

// ---- identity providers and SSO settings ----

// A customer's identity providers are the external OIDC providers of its
// organization at the identity provider: each is kept in
// customer_idp_configs (the console's record, with its enabled flag) and,
// while enabled, in the identity provider's external_idps under the same id,
// written in one transaction, so SSO configured here is what sign-in uses
// (resolve-org lists it, the identity provider redirects to it). The client
// secret is sealed once, for the identity provider's purpose.

// idpSecretPurpose is the purpose the identity provider opens external
// client secrets with (internal/idp/sso.go, oauthConfig).
func idpSecretPurpose(id string) string { return "idp-secret:" + id }

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
	MFAEnforced bool      `json:"mfaEnforced"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func newIdentityProvider(c *store.IDPConfig) *IdentityProvider {
	return &IdentityProvider{ID: c.ID, CustomerID: c.CustomerID, Name: c.Name, Issuer: c.Issuer, ClientID: c.ClientID,
		ClientSecretSet: len(c.ClientSecretSealed) > 0, Scopes: c.Scopes, Enabled: c.Enabled, LinkTrusted: c.LinkTrusted,
		MFAEnforced: c.MFAEnforced, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
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
}

// TrustInput sets whether a provider is trusted to link accounts; LinkTrusted is required.
type TrustInput struct {
	LinkTrusted *bool `json:"linkTrusted"`
}

// TrustIdentityProvider marks a provider trusted for linking accounts on the
// customer's domains, or not (D-linking; trust_identity_provider, which only
// platform_admin holds). EINVALID without linkTrusted.
func (s *Service) TrustIdentityProvider(ctx context.Context, c *access.Caller, id string, in TrustInput) (*IdentityProvider, error) {
	if in.LinkTrusted == nil {
		return nil, invalid("linkTrusted is required (true or false)")
	}
	return s.UpdateIdentityProvider(ctx, c, id, IdentityProviderPatch{LinkTrusted: in.LinkTrusted})
}

// checkTrust refuses, unless c holds trust_identity_provider, a request
// that would make a provider trusted for linking.
func (s *Service) checkTrust(ctx context.Context, c *access.Caller, customerID string, trusted *bool) error {
	if trusted == nil || !*trusted {
		return nil
	}
	return s.access.Check(ctx, c, authz.TrustIdentityProvider, authz.Resource{CustomerID: customerID}, true)
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

// external is the identity provider's record of an enabled provider.
func external(c *store.IDPConfig, orgID string) *platform.ExternalIDP {
	return &platform.ExternalIDP{ID: c.ID, OrgID: orgID, Name: c.Name, Issuer: c.Issuer, ClientID: c.ClientID,
		SecretSealed: c.ClientSecretSealed, Scopes: c.Scopes, LinkTrusted: c.LinkTrusted, MFAEnforced: c.MFAEnforced,
		CreatedAt: c.CreatedAt}
}

// ListIdentityProviders lists a customer's identity providers.
func (s *Service) ListIdentityProviders(ctx context.Context, c *access.Caller, customerID string) (*Page[*IdentityProvider], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, false); err != nil {
		return nil, err
	}
	rows, err := s.store.IDPConfigs(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]*IdentityProvider, 0, len(rows))
	for i := range rows {
		out = append(out, newIdentityProvider(&rows[i]))
	}
	return WholePage(out), nil
}

// CreateIdentityProvider adds an identity provider to a customer; enabled,
// its users can sign in with it. EINVALID; ECONFLICT when the customer has
// one of that name.
func (s *Service) CreateIdentityProvider(ctx context.Context, c *access.Caller, customerID string, in IdentityProviderInput) (*IdentityProvider, error) {
	cust, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, true)
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
	if row.Issuer, err = endpointURL("issuer", in.Issuer); err != nil {
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
	row.ClientSecretSealed = s.secrets().Seal([]byte(secret), idpSecretPurpose(row.ID))
	err = s.store.InTx(ctx, func(tx *store.Store) error {
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

// identityProviderFor loads an identity provider and checks act on it.
func (s *Service) identityProviderFor(ctx context.Context, c *access.Caller, id string, write bool) (*store.IDPConfig, error) {
	row, err := s.store.IDPConfig(ctx, id)
	if err := s.owned(ctx, c, authz.ManageCustomerConfig, write, row.CustomerID, err); err != nil {
		return nil, err
	}
	return row, nil
}

// IdentityProvider returns one identity provider. ENOTFOUND or EFORBIDDEN
// per the scope mode.
func (s *Service) IdentityProvider(ctx context.Context, c *access.Caller, id string) (*IdentityProvider, error) {
	row, err := s.identityProviderFor(ctx, c, id, false)
	if err != nil {
		return nil, err
	}
	return newIdentityProvider(row), nil
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
func (s *Service) UpdateIdentityProvider(ctx context.Context, c *access.Caller, id string, in IdentityProviderPatch) (*IdentityProvider, error) {
	old, err := s.identityProviderFor(ctx, c, id, true)
	if err != nil {
		return nil, err
	}
	if err := s.checkTrust(ctx, c, old.CustomerID, in.LinkTrusted); err != nil {
		return nil, err
	}
	cust, err := s.store.Customer(ctx, old.CustomerID)
	if err != nil {
		return nil, err
	}
	var row *store.IDPConfig
	err = s.store.InTx(ctx, func(tx *store.Store) error {
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

func (s *Service) patchIdentityProvider(row *store.IDPConfig, in IdentityProviderPatch) error {
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
		row.ClientSecretSealed = s.secrets().Seal([]byte(secret), idpSecretPurpose(row.ID))
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
	if in.MFAEnforced != nil {
		row.MFAEnforced = *in.MFAEnforced
	}
	row.UpdatedAt = s.stamp()
	return nil
}

// DeleteIdentityProvider removes an identity provider from the customer and
// from sign-in. ECONFLICT for the last provider of an SSO-only customer.
func (s *Service) DeleteIdentityProvider(ctx context.Context, c *access.Caller, id string) error {
	row, err := s.identityProviderFor(ctx, c, id, true)
	if err != nil {
		return err
	}
	cust, err := s.store.Customer(ctx, row.CustomerID)
	if err != nil {
		return err
	}
	return s.store.InTx(ctx, func(tx *store.Store) error {
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

// SSOSettings is how a customer's users sign in: the login policy of its
// organization at the identity provider, and how many identity providers
// are enabled.
type SSOSettings struct {
	PasswordAllowed   bool `json:"passwordAllowed"`
	SSOAllowed        bool `json:"ssoAllowed"`
	SSOCreateUsers    bool `json:"ssoCreateUsers"`
	MFAForced         bool `json:"mfaForced"`
	IdentityProviders int  `json:"identityProviders"`
}

// SSOSettingsInput changes sign-in; nil fields stay. SSO only (passwords
// off) needs an enabled identity provider.
type SSOSettingsInput struct {
	PasswordAllowed *bool `json:"passwordAllowed,omitempty"`
	SSOAllowed      *bool `json:"ssoAllowed,omitempty"`
	SSOCreateUsers  *bool `json:"ssoCreateUsers,omitempty"`
	MFAForced       *bool `json:"mfaForced,omitempty"`
}

// SSOSettings returns how a customer's users sign in.
func (s *Service) SSOSettings(ctx context.Context, c *access.Caller, customerID string) (*SSOSettings, error) {
	cust, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, false)
	if err != nil {
		return nil, err
	}
	return ssoSettings(ctx, s.store, cust.OrgID)
}

func ssoSettings(ctx context.Context, st *store.Store, orgID string) (*SSOSettings, error) {
	p, err := st.LoginPolicy(ctx, orgID)
	if err != nil {
		return nil, err
	}
	xs, err := st.ExternalIDPs(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &SSOSettings{PasswordAllowed: p.PasswordAllowed, SSOAllowed: p.SSOAllowed, SSOCreateUsers: p.SSOCreateUsers,
		MFAForced: p.MFAForced, IdentityProviders: len(xs)}, nil
}

// PutSSOSettings changes how a customer's users sign in. EINVALID when no
// method would remain, or SSO only without an identity provider.
func (s *Service) PutSSOSettings(ctx context.Context, c *access.Caller, customerID string, in SSOSettingsInput) (*SSOSettings, error) {
	cust, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, true)
	if err != nil {
		return nil, err
	}
	var out *SSOSettings
	err = s.store.InTx(ctx, func(tx *store.Store) error {
		p, err := tx.LoginPolicy(ctx, cust.OrgID)
		if err != nil {
			return err
		}
		xs, err := tx.ExternalIDPs(ctx, cust.OrgID)
		if err != nil {
			return err
		}
		for _, f := range []struct {
			in  *bool
			out *bool
		}{{in.PasswordAllowed, &p.PasswordAllowed}, {in.SSOAllowed, &p.SSOAllowed}, {in.SSOCreateUsers, &p.SSOCreateUsers},
			{in.MFAForced, &p.MFAForced}} {
			if f.in != nil {
				*f.out = *f.in
			}
		}
		if err := p.Validate(len(xs)); err != nil {
			return err
		}
		p.UpdatedAt = s.stamp()
		if err := tx.PutLoginPolicy(ctx, p); err != nil {
			return err
		}
		out, err = ssoSettings(ctx, tx, cust.OrgID)
		return err
	})
	return out, err
}

// ---- webhooks ----

// WebhookView is a webhook as the API shows it; the signing secret is not part of it.
type WebhookView struct {
	ID          string    `json:"id"`
	CustomerID  string    `json:"customerId"`
	URL         string    `json:"url"`
	Description string    `json:"description"`
	Events      []string  `json:"events"`
	Active      bool      `json:"active"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// WebhookSecret is a webhook with its signing secret, answered once when
// the webhook is created or its secret rotated.
type WebhookSecret struct {
	*WebhookView
	Secret string `json:"secret"`
}

func newWebhookView(w *store.Webhook) *WebhookView {
	return &WebhookView{ID: w.ID, CustomerID: w.CustomerID, URL: w.URL, Description: w.Description, Events: w.Events,
		Active: w.Active, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

// WebhookInput creates a webhook. Events are action names of the
// capability matrix (manage_tenant, manage_billing, …) or "*" for every
// event of the customer; default ["*"]. Active defaults to true.
type WebhookInput struct {
	URL         string   `json:"url"`
	Description string   `json:"description,omitempty"`
	Events      []string `json:"events,omitempty"`
	Active      *bool    `json:"active,omitempty"`
}

// WebhookPatch changes a webhook; nil fields stay.
type WebhookPatch struct {
	URL         *string   `json:"url,omitempty"`
	Description *string   `json:"description,omitempty"`
	Events      *[]string `json:"events,omitempty"`
	Active      *bool     `json:"active,omitempty"`
}

// WebhookAllEvents subscribes a webhook to every event of its customer.
const WebhookAllEvents = "*"

func webhookEvents(in []string) ([]string, error) {
	if in == nil {
		return []string{WebhookAllEvents}, nil
	}
	if len(in) == 0 || len(in) > 50 {
		return nil, invalid("events must name 1 to 50 events")
	}
	out := []string{}
	for _, e := range in {
		if e != WebhookAllEvents {
			if _, err := authz.ParseAction(e); err != nil {
				return nil, invalid("event %q is not an event type; use an action name or \"*\"", e)
			}
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// webhookURL validates a webhook URL: endpointURL's rules, and no address
// the egress policy refuses. A name that does not resolve yet is accepted;
// every delivery checks the address it connects to.
func (s *Service) webhookURL(ctx context.Context, raw string) (string, error) {
	u, err := endpointURL("url", raw)
	if err != nil {
		return "", err
	}
	if err := s.egress.CheckURL(ctx, u); errors.Is(err, egress.ErrBlocked) {
		return "", invalid("url must reach a public address; the platform's egress policy refuses this one")
	}
	return u, nil
}

func newWebhookSecret() string { return "whsec_" + randomHex(32) }

// ListWebhooks lists a customer's webhooks.
func (s *Service) ListWebhooks(ctx context.Context, c *access.Caller, customerID string) (*Page[*WebhookView], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, false); err != nil {
		return nil, err
	}
	rows, err := s.store.Webhooks(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]*WebhookView, 0, len(rows))
	for i := range rows {
		out = append(out, newWebhookView(&rows[i]))
	}
	return WholePage(out), nil
}

// CreateWebhook subscribes a URL to a customer's events and answers its
// signing secret, this once. EINVALID.
func (s *Service) CreateWebhook(ctx context.Context, c *access.Caller, customerID string, in WebhookInput) (*WebhookSecret, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageCustomerConfig, true); err != nil {
		return nil, err
	}
	now := s.stamp()
	w := &store.Webhook{ID: newID(), CustomerID: customerID, Active: true, CreatedAt: now, UpdatedAt: now}
	var err error
	if w.URL, err = s.webhookURL(ctx, in.URL); err != nil {
		return nil, err
	}
	if w.Description, err = text("description", in.Description, 500); err != nil {
		return nil, err
	}
	if w.Events, err = webhookEvents(in.Events); err != nil {
		return nil, err
	}
	if in.Active != nil {
		w.Active = *in.Active
	}
	secret := newWebhookSecret()
	w.SecretSealed = s.secrets().Seal([]byte(secret), webhook.SecretPurpose(w.ID))
	if err := s.store.CreateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return &WebhookSecret{WebhookView: newWebhookView(w), Secret: secret}, nil
}

func (s *Service) webhookFor(ctx context.Context, c *access.Caller, id string, write bool) (*store.Webhook, error) {
	w, err := s.store.Webhook(ctx, id)
	if err := s.owned(ctx, c, authz.ManageCustomerConfig, write, w.CustomerID, err); err != nil {
		return nil, err
	}
	return w, nil
}

// Webhook returns one webhook. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *Service) Webhook(ctx context.Context, c *access.Caller, id string) (*WebhookView, error) {
	w, err := s.webhookFor(ctx, c, id, false)
	if err != nil {
		return nil, err
	}
	return newWebhookView(w), nil
}

// UpdateWebhook changes a webhook. EINVALID.
func (s *Service) UpdateWebhook(ctx context.Context, c *access.Caller, id string, in WebhookPatch) (*WebhookView, error) {
	if _, err := s.webhookFor(ctx, c, id, true); err != nil {
		return nil, err
	}
	var newURL string
	if in.URL != nil { // checked before the transaction: it may look the name up
		var err error
		if newURL, err = s.webhookURL(ctx, *in.URL); err != nil {
			return nil, err
		}
	}
	w, err := s.store.UpdateWebhook(ctx, id, func(w *store.Webhook) error {
		var err error
		if in.URL != nil {
			w.URL = newURL
		}
		if in.Description != nil {
			if w.Description, err = text("description", *in.Description, 500); err != nil {
				return err
			}
		}
		if in.Events != nil {
			if *in.Events == nil {
				return invalid("events must name 1 to 50 events")
			}
			if w.Events, err = webhookEvents(*in.Events); err != nil {
				return err
			}
		}
		if in.Active != nil {
			w.Active = *in.Active
		}
		w.UpdatedAt = s.stamp()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newWebhookView(w), nil
}

// RotateWebhookSecret replaces a webhook's signing secret and answers the
// new one, this once.
func (s *Service) RotateWebhookSecret(ctx context.Context, c *access.Caller, id string) (*WebhookSecret, error) {
	if _, err := s.webhookFor(ctx, c, id, true); err != nil {
		return nil, err
	}
	secret := newWebhookSecret()
	w, err := s.store.UpdateWebhook(ctx, id, func(w *store.Webhook) error {
		w.SecretSealed, w.UpdatedAt = s.secrets().Seal([]byte(secret), webhook.SecretPurpose(w.ID)), s.stamp()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &WebhookSecret{WebhookView: newWebhookView(w), Secret: secret}, nil
}

// DeleteWebhook removes a webhook and its deliveries.
func (s *Service) DeleteWebhook(ctx context.Context, c *access.Caller, id string) error {
	if _, err := s.webhookFor(ctx, c, id, true); err != nil {
		return err
	}
	return s.store.DeleteWebhook(ctx, id)
}

// WebhookDeliveryView is one event on its way to a webhook, as the API
// shows it (without the payload); deliveredAt is null until delivered.
type WebhookDeliveryView struct {
	ID             string     `json:"id"`
	WebhookID      string     `json:"webhookId"`
	EventID        string     `json:"eventId"`
	EventType      string     `json:"eventType"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  time.Time  `json:"nextAttemptAt"`
	LastStatusCode int        `json:"lastStatusCode"`
	LastError      string     `json:"lastError"`
	CreatedAt      time.Time  `json:"createdAt"`
	DeliveredAt    *time.Time `json:"deliveredAt"`
}

func newWebhookDeliveryView(d *store.WebhookDelivery) *WebhookDeliveryView {
	return &WebhookDeliveryView{ID: d.ID, WebhookID: d.WebhookID, EventID: d.EventID, EventType: d.EventType, Status: d.Status,
		Attempts: d.Attempts, NextAttemptAt: d.NextAttemptAt, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
}

// ListWebhookDeliveries lists a webhook's latest deliveries, newest first.
func (s *Service) ListWebhookDeliveries(ctx context.Context, c *access.Caller, id string, limit int) (*Page[*WebhookDeliveryView], error) {
	if _, err := s.webhookFor(ctx, c, id, false); err != nil {
		return nil, err
	}
	rows, err := s.store.WebhookDeliveries(ctx, id, limit)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newWebhookDeliveryView)), nil
}

// ---- service accounts ----

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
	out := make([]*ServiceAccountView, 0, len(rows))
	for i := range rows {
		out = append(out, newServiceAccountView(&rows[i]))
	}
	return WholePage(out), nil
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
	a, err := s.store.ServiceAccount(ctx, id)
	if err := s.owned(ctx, c, authz.ManageCustomerConfig, write, a.CustomerID, err); err != nil {
		return nil, err
	}
	return a, nil
}

// ServiceAccount returns one service account.
func (s *Service) ServiceAccount(ctx context.Context, c *access.Caller, id string) (*ServiceAccountView, error) {
	a, err := s.serviceAccountFor(ctx, c, id, false)
	if err != nil {
		return nil, err
	}
	return newServiceAccountView(a), nil
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
