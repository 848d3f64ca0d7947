package store

import (
	"context"
	"time"
)

// SigningKey is a stored RS256 key. A key is published in the JWKS from its
// creation, used for signing from NotBefore, and kept until ExpiresAt so tokens
// signed with it keep verifying.
type SigningKey struct {
	ID         string
	Algorithm  string
	PrivateKey []byte // PKCS#8 DER
	CreatedAt  time.Time
	NotBefore  time.Time
	ExpiresAt  time.Time
}

const signingKeyColumns = `id, algorithm, private_key, created_at, not_before, expires_at`

// CreateSigningKey stores a key.
func (s *OIDC) CreateSigningKey(ctx context.Context, k *SigningKey) error {
	_, err := s.db.Exec(ctx, `INSERT INTO signing_keys (`+signingKeyColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		k.ID, k.Algorithm, k.PrivateKey, k.CreatedAt.UTC(), k.NotBefore.UTC(), k.ExpiresAt.UTC())
	return wrap(err, "signing key")
}

// SigningKeys returns the keys not yet expired at now, newest first.
func (s *OIDC) SigningKeys(ctx context.Context, now time.Time) ([]*SigningKey, error) {
	return queryAll(ctx, s.db, func(r Row) (*SigningKey, error) {
		var k SigningKey
		err := r.Scan(&k.ID, &k.Algorithm, &k.PrivateKey, &k.CreatedAt, &k.NotBefore, &k.ExpiresAt)
		return &k, err
	}, `SELECT `+signingKeyColumns+` FROM signing_keys WHERE expires_at > $1 ORDER BY not_before DESC, id`, now.UTC())
}
