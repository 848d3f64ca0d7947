package idp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// How long an external provider's keys are used before they are read
// again, and how soon a key id not among them reads them again.
const (
	ssoKeysFresh   = 5 * time.Minute
	ssoKeysRefetch = 30 * time.Second
)

// ssoSigningAlgs are the signature algorithms an external id_token may use.
var ssoSigningAlgs = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.ES256, jose.ES384, jose.ES512,
	jose.PS256, jose.PS384, jose.PS512, jose.EdDSA}

var errNoSSOKey = errors.New("the id_token's signature does not verify with the provider's keys")

// ssoKeySet is the signing keys of an external provider (its jwks_uri),
// read within the request that verifies an id_token, so by that request's
// context and deadline, through the egress client. (go-oidc's remote key
// set reads them in a goroutine of its own, detached from any request,
// which a hanging provider kept open after the sign-in had ended.) One
// request reads at a time; the others wait their turn within their own
// context and use what it read.
type ssoKeySet struct {
	client  *http.Client
	url     string
	turn    chan struct{}
	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched time.Time
}

func newSSOKeySet(client *http.Client, jwksURL string) *ssoKeySet {
	return &ssoKeySet{client: client, url: jwksURL, turn: make(chan struct{}, 1)}
}

// VerifySignature implements go-oidc's KeySet: the payload of a JWS that
// verifies with one of the provider's keys (of its key id, when it names
// one).
func (k *ssoKeySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, ssoSigningAlgs)
	if err != nil {
		return nil, fmt.Errorf("id_token: %w", err)
	}
	k.mu.Lock()
	keys, fetched := k.keys, k.fetched
	k.mu.Unlock()
	if age := time.Since(fetched); age < ssoKeysFresh {
		if payload, ok := verifyJWS(jws, keys); ok {
			return payload, nil
		}
		if age < ssoKeysRefetch {
			return nil, errNoSSOKey
		}
	}
	if keys, err = k.fetch(ctx, fetched); err != nil {
		return nil, err
	}
	if payload, ok := verifyJWS(jws, keys); ok {
		return payload, nil
	}
	return nil, errNoSSOKey
}

// fetch reads the key set, unless a request that had its turn first read
// it after seen.
func (k *ssoKeySet) fetch(ctx context.Context, seen time.Time) ([]jose.JSONWebKey, error) {
	select {
	case k.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-k.turn }()
	k.mu.Lock()
	keys, fetched := k.keys, k.fetched
	k.mu.Unlock()
	if fetched.After(seen) {
		return keys, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("keys: HTTP %d", resp.StatusCode)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	keys = keys[:0:0]
	for _, raw := range set.Keys {
		var key jose.JSONWebKey
		if json.Unmarshal(raw, &key) != nil || !key.IsPublic() || key.Use == "enc" {
			continue // a key of a kind this provider does not verify with
		}
		keys = append(keys, key)
	}
	k.mu.Lock()
	k.keys, k.fetched = keys, time.Now()
	k.mu.Unlock()
	return keys, nil
}

// verifyJWS verifies jws with the keys of its key id (all of them when it
// names none).
func verifyJWS(jws *jose.JSONWebSignature, keys []jose.JSONWebKey) ([]byte, bool) {
	kid := ""
	if len(jws.Signatures) > 0 {
		kid = jws.Signatures[0].Header.KeyID
	}
	for i := range keys {
		if kid != "" && keys[i].KeyID != kid {
			continue
		}
		if payload, err := jws.Verify(&keys[i]); err == nil {
			return payload, true
		}
	}
	return nil, false
}
