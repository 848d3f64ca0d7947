package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// scimTokens manages the bearer tokens a customer's directory provisions
// its users with (D-scim), and the administrator organization's, which
// provision internal users and groups (D-scim-internal). A token is 256
// random bits shown once; only its SHA-256 is stored. A token reaches only
// its organization and, revoked, is refused at once.
type scimTokens struct{ *core }

// SCIMTokenView is a SCIM token as the API shows it: never the token.
// CustomerID is null for the administrator organization's.
type SCIMTokenView struct {
	ID         string     `json:"id"`
	CustomerID *string    `json:"customerId"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// SCIMTokenSecret is a new token with its value, answered once.
type SCIMTokenSecret struct {
	*SCIMTokenView
	Token string `json:"token"`
}

// SCIMTokenInput names a new token (1 to 200 characters).
type SCIMTokenInput struct {
	Name string `json:"name"`
}

func newSCIMTokenView(t *store.SCIMToken) *SCIMTokenView {
	return &SCIMTokenView{ID: t.ID, CustomerID: orNull(t.CustomerID), Name: t.Name, CreatedAt: t.CreatedAt,
		LastUsedAt: timeOrNull(t.LastUsedAt), RevokedAt: timeOrNull(t.RevokedAt)}
}

// scimTokenPrefix starts every token, so a leaked one is recognised.
const scimTokenPrefix = "scim_"

// ListSCIMTokens lists a customer's tokens, newest first; one page (at most
// store.MaxSCIMTokens).
func (s *scimTokens) ListSCIMTokens(ctx context.Context, c *access.Caller, customerID string) (*Page[*SCIMTokenView], error) {
	return customerList(ctx, s.core, c, OpSCIMTokenList, customerID, s.store.SCIMTokens, newSCIMTokenView)
}

// ListInternalSCIMTokens lists the administrator organization's tokens,
// newest first; one page.
func (s *scimTokens) ListInternalSCIMTokens(ctx context.Context, c *access.Caller) (*Page[*SCIMTokenView], error) {
	return internalList(ctx, s.core, c, OpInternalSCIMTokenList, s.store.SCIMTokens, newSCIMTokenView)
}

// CreateSCIMToken makes a token for the customer's directory and answers
// it, this once. EINVALID; ELIMIT past store.MaxSCIMTokens.
func (s *scimTokens) CreateSCIMToken(ctx context.Context, c *access.Caller, customerID string, in SCIMTokenInput) (*SCIMTokenSecret, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpSCIMTokenCreate); err != nil {
		return nil, err
	}
	return s.create(ctx, c, OpSCIMTokenCreate, customerID, in)
}

// CreateInternalSCIMToken makes a token for the administrator
// organization's directory (D-scim-internal) and answers it, this once.
func (s *scimTokens) CreateInternalSCIMToken(ctx context.Context, c *access.Caller, in SCIMTokenInput) (*SCIMTokenSecret, error) {
	if err := s.infra(ctx, c, OpInternalSCIMTokenCreate); err != nil {
		return nil, err
	}
	return s.create(ctx, c, OpInternalSCIMTokenCreate, "", in)
}

func (s *scimTokens) create(ctx context.Context, c *access.Caller, op Operation, customerID string, in SCIMTokenInput) (*SCIMTokenSecret, error) {
	name, err := required("name", in.Name, 200)
	if err != nil {
		return nil, err
	}
	token := scimTokenPrefix + randomHex(32)
	t := &store.SCIMToken{ID: newID(), CustomerID: customerID, Name: name, TokenHash: platform.HashSecret(token),
		CreatedBy: c.UserID, CreatedAt: s.stamp()}
	err = s.audited(ctx, c, op, on(customerID, "scim-tokens", t.ID), func(tx *store.Store) error {
		return tx.CreateSCIMToken(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	return &SCIMTokenSecret{SCIMTokenView: newSCIMTokenView(t), Token: token}, nil
}

// RevokeSCIMToken revokes a customer's token: the next request with it is
// refused. The administrator organization's tokens are not found here
// (RevokeInternalSCIMToken).
func (s *scimTokens) RevokeSCIMToken(ctx context.Context, c *access.Caller, id string) error {
	t, err := decided(ctx, s.core, c, OpSCIMTokenRevoke, scimTokenResource)(s.customerToken(ctx, id))
	if err != nil {
		return err
	}
	return s.revoke(ctx, c, OpSCIMTokenRevoke, t)
}

// RevokeInternalSCIMToken revokes a token of the administrator
// organization. ENOTFOUND for a customer's.
func (s *scimTokens) RevokeInternalSCIMToken(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, OpInternalSCIMTokenRevoke); err != nil {
		return err
	}
	t, err := s.store.SCIMToken(ctx, id)
	if err == nil && t.CustomerID != "" {
		err = platform.Errorf(platform.ENOTFOUND, "SCIM token not found")
	}
	if err != nil {
		return err
	}
	return s.revoke(ctx, c, OpInternalSCIMTokenRevoke, t)
}

func (s *scimTokens) revoke(ctx context.Context, c *access.Caller, op Operation, t *store.SCIMToken) error {
	return s.audited(ctx, c, op, on(t.CustomerID, "scim-tokens", t.ID), func(tx *store.Store) error {
		return tx.RevokeSCIMToken(ctx, t.ID, s.stamp())
	})
}

// customerToken loads a customer's token; the administrator organization's
// are not found (a customer's decision must never meet a resource of no
// customer).
func (s *scimTokens) customerToken(ctx context.Context, id string) (*store.SCIMToken, error) {
	t, err := s.store.SCIMToken(ctx, id)
	if err == nil && t.CustomerID == "" {
		return nil, platform.Errorf(platform.ENOTFOUND, "SCIM token not found")
	}
	return t, err
}

func scimTokenResource(t *store.SCIMToken) authz.Resource {
	return authz.Resource{CustomerID: t.CustomerID}
}

// SCIMTokenResource is the customer of the customer's token id.
func (s *scimTokens) SCIMTokenResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(scimTokenResource)(s.customerToken(ctx, id))
}

// SCIMCaller is the caller a live token acts as, named in the audit log as
// "scim-token:<id>": its customer's admin, deciding like any admin of the
// customer, so it reaches only that customer's users and cannot act on the
// owner (D-owner-protect); or, for the administrator organization's token,
// a caller of no customer that manages internal users (platform_admin's
// role, D-scim-internal), which the SCIM server uses for that
// organization's users and groups alone. EUNAUTHORIZED for a token that is
// unknown or revoked.
func (s *scimTokens) SCIMCaller(ctx context.Context, token string) (*access.Caller, error) {
	t, err := s.store.UseSCIMToken(ctx, platform.HashSecret(token), s.stamp())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "the token is not valid")
	}
	if err != nil {
		return nil, err
	}
	p := authz.Principal{UserID: SCIMActorPrefix + t.ID, Role: authz.Admin, CustomerID: t.CustomerID}
	if t.CustomerID == "" {
		p.Role = authz.PlatformAdmin
	}
	return &access.Caller{Principal: p, Scope: authz.ResolveScope(p), Via: access.ViaBearer}, nil
}

// SCIMActorPrefix starts the actor id of what a SCIM token does.
const SCIMActorPrefix = "scim-token:"
