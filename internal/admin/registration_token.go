package admin

import (
	"context"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// registrationTokens manages a customer's initial access tokens of dynamic
// client registration (RFC 7591, D-dynamic-registration): each is 256
// random bits shown once, kept as its SHA-256, and says what it may
// register: public and/or confidential clients, the hosts of their redirect
// URIs, until when and how many. The clients it registers belong to the
// customer and are listed with it.
type registrationTokens struct{ *core }

// Client kinds an initial access token may register.
const (
	ClientKindPublic       = "public"
	ClientKindConfidential = "confidential"
)

// RegistrationTokenView is an initial access token as the API shows it:
// never the token.
type RegistrationTokenView struct {
	ID            string     `json:"id"`
	CustomerID    string     `json:"customerId"`
	Name          string     `json:"name"`
	Kinds         []string   `json:"kinds"`
	RedirectHosts []string   `json:"redirectHosts"`
	MaxUses       int        `json:"maxUses"`
	Uses          int        `json:"uses"`
	CreatedAt     time.Time  `json:"createdAt"`
	ExpiresAt     time.Time  `json:"expiresAt"`
	RevokedAt     *time.Time `json:"revokedAt"`
}

// RegistrationTokenSecret is a new token with its value, answered once.
type RegistrationTokenSecret struct {
	*RegistrationTokenView
	Token string `json:"token"`
}

// RegistrationTokenInput makes a token: a name (1 to 200 characters), the
// kinds of client it registers (public, confidential; at least one), the
// hosts their redirect URIs may name (1 to 20; "*.example.com" for its
// subdomains), when it expires (within a year) and how many clients it
// registers at most (1 to 1000).
type RegistrationTokenInput struct {
	Name          string    `json:"name"`
	Kinds         []string  `json:"kinds"`
	RedirectHosts []string  `json:"redirectHosts"`
	ExpiresAt     time.Time `json:"expiresAt"`
	MaxUses       int       `json:"maxUses"`
}

// registrationTokenPrefix starts every token, so a leaked one is recognised.
const registrationTokenPrefix = "iat_"

func newRegistrationTokenView(t *store.RegistrationToken) *RegistrationTokenView {
	v := &RegistrationTokenView{ID: t.ID, CustomerID: t.CustomerID, Name: t.Name, RedirectHosts: t.RedirectHosts,
		MaxUses: t.MaxUses, Uses: t.Uses, CreatedAt: t.CreatedAt, ExpiresAt: t.ExpiresAt, RevokedAt: timeOrNull(t.RevokedAt),
		Kinds: []string{}}
	if t.AllowPublic {
		v.Kinds = append(v.Kinds, ClientKindPublic)
	}
	if t.AllowConfidential {
		v.Kinds = append(v.Kinds, ClientKindConfidential)
	}
	if v.RedirectHosts == nil {
		v.RedirectHosts = []string{}
	}
	return v
}

// ListRegistrationTokens lists a customer's tokens, newest first; one page.
func (s *registrationTokens) ListRegistrationTokens(ctx context.Context, c *access.Caller, customerID string) (*Page[*RegistrationTokenView], error) {
	return customerList(ctx, s.core, c, OpRegistrationTokenList, customerID, s.store.RegistrationTokens, newRegistrationTokenView)
}

// CreateRegistrationToken makes an initial access token of the customer and
// answers it, this once. EINVALID; ELIMIT past store.MaxRegistrationTokens.
func (s *registrationTokens) CreateRegistrationToken(ctx context.Context, c *access.Caller, customerID string,
	in RegistrationTokenInput) (*RegistrationTokenSecret, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpRegistrationTokenCreate); err != nil {
		return nil, err
	}
	name, err := required("name", in.Name, 200)
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	t := &store.RegistrationToken{ID: newID(), CustomerID: customerID, Name: name, MaxUses: in.MaxUses, CreatedBy: c.UserID,
		CreatedAt: now, ExpiresAt: in.ExpiresAt.UTC().Truncate(time.Second)}
	if len(in.Kinds) == 0 || len(in.Kinds) > 2 {
		return nil, platform.Errorf(platform.EINVALID, "kinds must name public, confidential or both")
	}
	for _, k := range in.Kinds {
		switch k {
		case ClientKindPublic:
			t.AllowPublic = true
		case ClientKindConfidential:
			t.AllowConfidential = true
		default:
			return nil, platform.Errorf(platform.EINVALID, "kinds must name public, confidential or both")
		}
	}
	if t.RedirectHosts, err = redirectHosts(in.RedirectHosts); err != nil {
		return nil, err
	}
	switch {
	case !t.ExpiresAt.After(now):
		return nil, platform.Errorf(platform.EINVALID, "expiresAt must be in the future")
	case t.ExpiresAt.After(now.AddDate(1, 0, 0)):
		return nil, platform.Errorf(platform.EINVALID, "expiresAt must be within a year")
	case t.MaxUses < 1 || t.MaxUses > 1000:
		return nil, platform.Errorf(platform.EINVALID, "maxUses must be from 1 to 1000")
	}
	token := registrationTokenPrefix + randomHex(32)
	t.TokenHash = platform.HashSecret(token)
	err = s.audited(ctx, c, OpRegistrationTokenCreate, on(customerID, "registration-tokens", t.ID), func(tx *store.Store) error {
		return tx.CreateRegistrationToken(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	return &RegistrationTokenSecret{RegistrationTokenView: newRegistrationTokenView(t), Token: token}, nil
}

// redirectHosts checks the hosts a token's clients may redirect to:
// 1 to 20 host names (lower case), each optionally "*." and a domain.
func redirectHosts(in []string) ([]string, error) {
	if len(in) == 0 || len(in) > 20 {
		return nil, platform.Errorf(platform.EINVALID, "redirectHosts must name 1 to 20 hosts")
	}
	out := make([]string, 0, len(in))
	for _, h := range in {
		h = strings.ToLower(strings.TrimSpace(h))
		name := strings.TrimPrefix(h, "*.")
		if !platform.ValidHostName(name) || (h != name && !strings.Contains(name, ".")) {
			return nil, platform.Errorf(platform.EINVALID, "redirectHosts: %q is not a host name (or *. and a domain)", clipped(h))
		}
		out = append(out, h)
	}
	return out, nil
}

func clipped(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// RevokeRegistrationToken revokes a token: registrations with it are
// refused at once; the clients it registered stay.
func (s *registrationTokens) RevokeRegistrationToken(ctx context.Context, c *access.Caller, id string) error {
	t, err := decided(ctx, s.core, c, OpRegistrationTokenRevoke, registrationTokenResource)(s.store.RegistrationToken(ctx, id))
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpRegistrationTokenRevoke, on(t.CustomerID, "registration-tokens", id), func(tx *store.Store) error {
		return tx.RevokeRegistrationToken(ctx, id, s.stamp())
	})
}

func registrationTokenResource(t *store.RegistrationToken) authz.Resource {
	return authz.Resource{CustomerID: t.CustomerID}
}

// RegistrationTokenResource is the customer of the token id.
func (s *registrationTokens) RegistrationTokenResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(registrationTokenResource)(s.store.RegistrationToken(ctx, id))
}

// RegisteredClient is a client a customer's initial access token
// registered (Registered is always true: the console lists it among
// applications with that mark).
type RegisteredClient struct {
	ClientID     string    `json:"clientId"`
	Name         string    `json:"name"`
	Kind         string    `json:"kind"`
	AuthMethod   string    `json:"authMethod"`
	RedirectURIs []string  `json:"redirectUris"`
	Registered   bool      `json:"registered"`
	TokenID      string    `json:"registrationTokenId"`
	CreatedAt    time.Time `json:"createdAt"`
}

// ListRegisteredClients lists the clients the customer's tokens registered,
// by name; one page.
func (s *registrationTokens) ListRegisteredClients(ctx context.Context, c *access.Caller, customerID string) (*Page[*RegisteredClient], error) {
	return customerList(ctx, s.core, c, OpRegisteredClientList, customerID, s.store.RegisteredApplications,
		func(a **platform.Application) *RegisteredClient { return newRegisteredClient(*a) })
}

func newRegisteredClient(a *platform.Application) *RegisteredClient {
	uris := a.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	return &RegisteredClient{ClientID: a.ClientID, Name: a.Name, Kind: a.Kind, AuthMethod: a.TokenAuthMethod(),
		RedirectURIs: uris, Registered: true, TokenID: a.RegistrationTokenID, CreatedAt: a.CreatedAt}
}
