package idp

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/store"
)

// keyManager keeps the RS256 signing keys. The database is the source of
// truth, so every replica signs with the same key; a key is published in the
// JWKS PublishAhead before it signs anything, and stays published until every
// token it signed has expired.
type keyManager struct {
	store        *store.Store
	now          func() time.Time
	rotateEvery  time.Duration
	publishAhead time.Duration
	keepAfter    time.Duration // longest token lifetime
	reloadEvery  time.Duration

	mu       sync.RWMutex
	keys     []*rsaKey // newest NotBefore first
	loadedAt time.Time
}

type rsaKey struct {
	id        string
	priv      *rsa.PrivateKey
	notBefore time.Time
	expiresAt time.Time
}

// op.SigningKey and op.Key.
func (k *rsaKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *rsaKey) Algorithm() jose.SignatureAlgorithm          { return jose.RS256 }
func (k *rsaKey) ID() string                                  { return k.id }
func (k *rsaKey) Use() string                                 { return "sig" }

type signingKey struct{ *rsaKey }

func (k signingKey) Key() any { return k.priv }

type publicKey struct{ *rsaKey }

func (k publicKey) Key() any { return &k.priv.PublicKey }

var (
	_ op.SigningKey = signingKey{}
	_ op.Key        = publicKey{}
)

// load reads the keys from the database, creating or rotating when due.
func (m *keyManager) load(ctx context.Context) error {
	now := m.now()
	stored, err := m.store.SigningKeys(ctx, now)
	if err != nil {
		return err
	}
	if len(stored) == 0 || !stored[0].NotBefore.Add(m.rotateEvery-m.publishAhead).After(now) {
		notBefore := now.Add(m.publishAhead)
		if len(stored) == 0 {
			notBefore = now // nothing to sign with yet: usable at once
		}
		if err := m.create(ctx, now, notBefore); err != nil {
			return err
		}
		if stored, err = m.store.SigningKeys(ctx, now); err != nil {
			return err
		}
	}
	keys := make([]*rsaKey, 0, len(stored))
	for _, sk := range stored {
		priv, err := x509.ParsePKCS8PrivateKey(sk.PrivateKey)
		if err != nil {
			return fmt.Errorf("signing key %s: %w", sk.ID, err)
		}
		rk, ok := priv.(*rsa.PrivateKey)
		if !ok {
			return fmt.Errorf("signing key %s: not RSA", sk.ID)
		}
		keys = append(keys, &rsaKey{id: sk.ID, priv: rk, notBefore: sk.NotBefore, expiresAt: sk.ExpiresAt})
	}
	m.mu.Lock()
	m.keys, m.loadedAt = keys, now
	m.mu.Unlock()
	return nil
}

func (m *keyManager) create(ctx context.Context, now, notBefore time.Time) error {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return err
	}
	return m.store.CreateSigningKey(ctx, &store.SigningKey{
		ID: uuid.NewString(), Algorithm: string(jose.RS256), PrivateKey: der, CreatedAt: now,
		NotBefore: notBefore, ExpiresAt: notBefore.Add(m.rotateEvery + m.publishAhead + m.keepAfter),
	})
}

// rotate creates a key that signs from now on; the previous ones stay published.
func (m *keyManager) rotate(ctx context.Context) error {
	now := m.now()
	if err := m.create(ctx, now, now); err != nil {
		return err
	}
	return m.load(ctx)
}

func (m *keyManager) current(ctx context.Context) ([]*rsaKey, error) {
	m.mu.RLock()
	keys, loadedAt := m.keys, m.loadedAt
	m.mu.RUnlock()
	if keys == nil || m.now().Sub(loadedAt) > m.reloadEvery {
		if err := m.load(ctx); err != nil {
			if keys != nil {
				return keys, nil // keep serving the last known keys while the database is away
			}
			return nil, err
		}
		m.mu.RLock()
		keys = m.keys
		m.mu.RUnlock()
	}
	return keys, nil
}

// SigningKey returns the newest key whose NotBefore has passed.
func (m *keyManager) SigningKey(ctx context.Context) (op.SigningKey, error) {
	keys, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	now := m.now()
	for _, k := range keys {
		if !k.notBefore.After(now) {
			return signingKey{k}, nil
		}
	}
	return nil, errors.New("idp: no signing key is active")
}

// KeySet returns every published public key.
func (m *keyManager) KeySet(ctx context.Context) ([]op.Key, error) {
	keys, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]op.Key, len(keys))
	for i, k := range keys {
		out[i] = publicKey{k}
	}
	return out, nil
}
