package idp

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// keyManager keeps the signing keys (RS256 by default, ES256 when configured). The database is the source of
// truth, so every replica signs with the same key; a key is published in the
// JWKS PublishAhead before it signs anything, and stays published until every
// token it signed has expired.
type keyManager struct {
	store        *store.Store
	sealer       *secrets.Sealer // seals private keys at rest (sealedKey)
	alg          jose.SignatureAlgorithm
	now          func() time.Time
	rotateEvery  time.Duration
	publishAhead time.Duration
	keepAfter    time.Duration // longest token lifetime
	reloadEvery  time.Duration

	mu       sync.RWMutex
	keys     []*key // newest NotBefore first
	loadedAt time.Time
}

type key struct {
	id        string
	alg       jose.SignatureAlgorithm
	priv      crypto.Signer
	notBefore time.Time
	expiresAt time.Time
}

// op.SigningKey and op.Key.
func (k *key) SignatureAlgorithm() jose.SignatureAlgorithm { return k.alg }
func (k *key) Algorithm() jose.SignatureAlgorithm          { return k.alg }
func (k *key) ID() string                                  { return k.id }
func (k *key) Use() string                                 { return "sig" }

type signingKey struct{ *key }

func (k signingKey) Key() any { return k.priv }

type publicKey struct{ *key }

func (k publicKey) Key() any { return k.priv.Public() }

var (
	_ op.SigningKey = signingKey{}
	_ op.Key        = publicKey{}
)

// load reads the keys from the database, creating or rotating when due.
// Creation happens under a lock and after a second look, so replicas that
// find no key (or a key due for rotation) at the same moment create exactly
// one, and every replica signs with a key the others publish.
func (m *keyManager) load(ctx context.Context) error {
	now := m.now()
	stored, keys, err := m.readable(ctx, m.store, now)
	if err != nil {
		return err
	}
	if m.due(stored, now) {
		err := m.store.Locked(ctx, store.LockSigningKeys, func(tx *store.Store) error {
			again, _, err := m.readable(ctx, tx, now)
			if err != nil || !m.due(again, now) {
				return err // another replica created it meanwhile
			}
			notBefore := now.Add(m.publishAhead)
			if m.newest(again) == nil {
				notBefore = now // nothing to sign with in this algorithm yet: usable at once
			}
			return m.create(ctx, tx, now, notBefore)
		})
		if err != nil {
			return err
		}
		if _, keys, err = m.readable(ctx, m.store, now); err != nil {
			return err
		}
	}
	m.mu.Lock()
	m.keys, m.loadedAt = keys, now
	m.mu.Unlock()
	return nil
}

// readable reads the keys not yet expired at now that open: a key sealed
// under another SECRETS_KEY (the key was replaced) is left out with a
// warning, as if it were not stored, so the provider makes a key it can
// use instead of refusing to start.
func (m *keyManager) readable(ctx context.Context, st *store.Store, now time.Time) ([]*store.SigningKey, []*key, error) {
	stored, err := st.SigningKeys(ctx, now)
	if err != nil {
		return nil, nil, err
	}
	usable, keys := stored[:0], make([]*key, 0, len(stored))
	for _, sk := range stored {
		signer, err := m.open(sk)
		if err != nil {
			slog.WarnContext(ctx, "signing key left out: it does not open with this SECRETS_KEY", "kid", sk.ID, "err", err)
			continue
		}
		usable = append(usable, sk)
		keys = append(keys, &key{id: sk.ID, alg: jose.SignatureAlgorithm(sk.Algorithm), priv: signer,
			notBefore: sk.NotBefore, expiresAt: sk.ExpiresAt})
	}
	return usable, keys, nil
}

// due reports whether a key must be created: none of the configured
// algorithm, or the newest one is due for rotation.
func (m *keyManager) due(stored []*store.SigningKey, now time.Time) bool {
	newest := m.newest(stored)
	return newest == nil || !newest.NotBefore.Add(m.rotateEvery-m.publishAhead).After(now)
}

// newest returns the stored key of the configured algorithm with the latest NotBefore.
func (m *keyManager) newest(stored []*store.SigningKey) *store.SigningKey {
	for _, k := range stored {
		if k.Algorithm == string(m.alg) {
			return k
		}
	}
	return nil
}

func (m *keyManager) create(ctx context.Context, st *store.Store, now, notBefore time.Time) error {
	var priv crypto.Signer
	var err error
	switch m.alg {
	case jose.RS256:
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	case jose.ES256:
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		err = fmt.Errorf("signing algorithm %s is not supported", m.alg)
	}
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return err
	}
	id := uuid.NewString()
	return st.CreateSigningKey(ctx, &store.SigningKey{
		ID: id, Algorithm: string(m.alg), PrivateKey: m.seal(id, der), CreatedAt: now,
		NotBefore: notBefore, ExpiresAt: notBefore.Add(m.rotateEvery + m.publishAhead + m.keepAfter),
	})
}

// sealedKey marks a private key stored sealed under the secrets key
// (D-signing-keys-sealed): the database alone cannot sign tokens. A key
// stored before sealing is plain PKCS#8 DER, which begins with a SEQUENCE
// byte, never with this mark; it keeps signing until it expires.
var sealedKey = []byte("sealed:")

// seal seals the PKCS#8 DER of key id for the signing_keys row.
func (m *keyManager) seal(id string, der []byte) []byte {
	return append(append([]byte{}, sealedKey...), m.sealer.Seal(der, secrets.LabelSigningKey(id))...)
}

// open reads a stored key: sealed, or plain DER stored before sealing.
func (m *keyManager) open(sk *store.SigningKey) (crypto.Signer, error) {
	der := sk.PrivateKey
	if rest, ok := bytes.CutPrefix(der, sealedKey); ok {
		var err error
		if der, err = m.sealer.Open(rest, secrets.LabelSigningKey(sk.ID)); err != nil {
			return nil, err
		}
	}
	priv, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, errors.New("not a signing key")
	}
	return signer, nil
}

// rotate creates a key that signs from now on; the previous ones stay published.
func (m *keyManager) rotate(ctx context.Context) error {
	now := m.now()
	if err := m.create(ctx, m.store, now, now); err != nil {
		return err
	}
	return m.load(ctx)
}

func (m *keyManager) current(ctx context.Context) ([]*key, error) {
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

// SigningKey returns the newest key of the configured algorithm whose NotBefore has passed.
func (m *keyManager) SigningKey(ctx context.Context) (op.SigningKey, error) {
	keys, err := m.current(ctx)
	if err != nil {
		return nil, err
	}
	now := m.now()
	for _, k := range keys {
		if k.alg == m.alg && !k.notBefore.After(now) {
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

// signJWT signs claims as a JWT of header type typ with the current
// signing key.
func (m *keyManager) signJWT(ctx context.Context, typ string, claims any) (string, error) {
	key, err := m.SigningKey(ctx)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: key.SignatureAlgorithm(),
		Key: &jose.JSONWebKey{Key: key.Key(), KeyID: key.ID()}}, (&jose.SignerOptions{}).WithType(jose.ContentType(typ)))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}
