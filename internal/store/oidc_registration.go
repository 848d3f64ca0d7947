package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/platform"
)

// RegistrationToken is an initial access token of dynamic client
// registration (RFC 7591, D-dynamic-registration): only its hash is kept,
// with what it may register. RevokedAt is zero while it is live.
type RegistrationToken struct {
	ID                string
	CustomerID        string
	Name              string
	TokenHash         string
	AllowPublic       bool
	AllowConfidential bool
	// RedirectHosts are the hosts its clients' redirect URIs may name
	// ("*.example.com": any subdomain of example.com).
	RedirectHosts []string
	MaxUses       int
	Uses          int
	CreatedBy     string
	CreatedAt     time.Time
	ExpiresAt     time.Time
	RevokedAt     time.Time
}

const registrationTokenColumns = `id, customer_id, name, token_hash, allow_public, allow_confidential, redirect_hosts,
	max_uses, uses, created_by, created_at, expires_at, revoked_at`

func scanRegistrationToken(r Row) (RegistrationToken, error) {
	var t RegistrationToken
	var hosts string
	var revoked sql.NullTime
	err := r.Scan(&t.ID, &t.CustomerID, &t.Name, &t.TokenHash, &t.AllowPublic, &t.AllowConfidential, &hosts,
		&t.MaxUses, &t.Uses, &t.CreatedBy, &t.CreatedAt, &t.ExpiresAt, &revoked)
	if err == nil {
		err = json.Unmarshal([]byte(hosts), &t.RedirectHosts)
	}
	t.RevokedAt = revoked.Time
	return t, err
}

var registrationTokens = table[RegistrationToken]{"registration_tokens", "registration token", registrationTokenColumns,
	scanRegistrationToken}

// MaxRegistrationTokens is how many initial access tokens, revoked and
// expired ones included, one customer may hold; a list of them is one page.
const MaxRegistrationTokens = 50

// CreateRegistrationToken stores a token. ELIMIT when the customer holds
// MaxRegistrationTokens.
func (s *OIDC) CreateRegistrationToken(ctx context.Context, t *RegistrationToken) error {
	if err := s.underLimit(ctx, "registration_tokens", "customer_id = $1", t.CustomerID, MaxRegistrationTokens,
		"a customer holds at most %d registration tokens"); err != nil {
		return err
	}
	return registrationTokens.insert(ctx, s.db, t.ID, t.CustomerID, t.Name, t.TokenHash, t.AllowPublic, t.AllowConfidential,
		jsonList(t.RedirectHosts), t.MaxUses, 0, t.CreatedBy, t.CreatedAt.UTC(), t.ExpiresAt.UTC(), nil)
}

// RegistrationToken returns one token. ENOTFOUND.
func (s *OIDC) RegistrationToken(ctx context.Context, id string) (*RegistrationToken, error) {
	return registrationTokens.get(ctx, s.db, id)
}

// RegistrationTokens lists a customer's tokens, newest first (at most
// MaxRegistrationTokens).
func (s *OIDC) RegistrationTokens(ctx context.Context, customerID string) ([]RegistrationToken, error) {
	return registrationTokens.list(ctx, s.db, `customer_id = $1`, `created_at DESC, id`, customerID)
}

// RevokeRegistrationToken revokes a token at now; revoking it again keeps
// the first time. ENOTFOUND.
func (s *OIDC) RevokeRegistrationToken(ctx context.Context, id string, now time.Time) error {
	return s.execOne(ctx, "registration token", `UPDATE registration_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`,
		id, now.UTC())
}

// UseRegistrationToken counts one registration against the live token whose
// hash is hash (unrevoked, unexpired at now, uses left) and returns it;
// ENOTFOUND otherwise. Run it in the registration's transaction: a failed
// registration uses nothing, and two at once cannot both take the last use.
func (s *OIDC) UseRegistrationToken(ctx context.Context, hash string, now time.Time) (*RegistrationToken, error) {
	n, err := s.db.Exec(ctx, `UPDATE registration_tokens SET uses = uses + 1
		WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 AND uses < max_uses`, hash, now.UTC())
	if err != nil {
		return nil, err
	}
	if n != 1 {
		return nil, platform.Errorf(platform.ENOTFOUND, "registration token not found")
	}
	return queryOne(ctx, s.db, "registration token", scanRegistrationToken, registrationTokens.selectFrom()+` WHERE token_hash = $1`, hash)
}

// RegisteredApplications lists the applications registered with a
// customer's initial access tokens, by name.
func (s *OIDC) RegisteredApplications(ctx context.Context, customerID string) ([]*platform.Application, error) {
	return queryAll(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM applications WHERE registered_customer_id = $1
		ORDER BY name, app_id`, customerID)
}

// SetRegistrationHash replaces a registered application's registration
// access token (its hash). ENOTFOUND.
func (s *OIDC) SetRegistrationHash(ctx context.Context, appID, hash string) error {
	return s.execOne(ctx, "application", `UPDATE applications SET registration_hash = $2 WHERE app_id = $1 AND registered_customer_id <> ''`,
		appID, hash)
}

// RevokeClientGrants ends, as of now, every grant of a client with its
// tokens (a registered client deleted, RFC 7592).
func (s *OIDC) RevokeClientGrants(ctx context.Context, clientID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		return tx.endGrants(ctx, now, `client_id = $1`, clientID)
	})
}
