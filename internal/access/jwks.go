package access

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// MinRefetch is the shortest time between two fetches of one key set: a
// token signed with a key the cache does not hold makes the set fetched
// again at most this often, however many such tokens arrive, so made-up
// key ids cannot turn API requests into requests to the identity provider.
const MinRefetch = 30 * time.Second

// maxKeySet bounds the body of a JWKS response.
const maxKeySet = 1 << 20

// KeySet is the identity provider's signing keys (its JWKS), fetched on
// first use and cached by key id. A key id the cache does not hold makes it
// fetch the set again, at most once per MinRefetch (concurrent callers
// share one fetch); in between, such a key is refused without a request. It
// is safe for concurrent use.
type KeySet struct {
	url    string
	client *http.Client
	now    func() time.Time

	mu        sync.Mutex
	keys      map[string]jose.JSONWebKey
	fetchedAt time.Time     // last attempt, successful or not
	inflight  chan struct{} // closed when the running fetch ends
	fetches   int
}

// NewKeySet returns the key set published at url, fetched with client
// (a 10-second client when nil).
func NewKeySet(url string, client *http.Client) *KeySet {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return &KeySet{url: url, client: client, now: time.Now}
}

// Fetches returns how many times the set was fetched (for metrics and tests).
func (k *KeySet) Fetches() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.fetches
}

// Key returns the public key kid. An unknown kid fetches the set again
// when the last fetch is MinRefetch old; otherwise it is refused at once.
func (k *KeySet) Key(ctx context.Context, kid string) (*jose.JSONWebKey, error) {
	for {
		k.mu.Lock()
		if key, ok := k.keys[kid]; ok {
			k.mu.Unlock()
			return &key, nil
		}
		if wait := k.inflight; wait != nil { // someone is fetching: its answer is ours
			k.mu.Unlock()
			select {
			case <-wait:
				k.mu.Lock()
				key, ok := k.keys[kid]
				k.mu.Unlock()
				if ok {
					return &key, nil
				}
				return nil, refuse("unknown signing key %q", clip(kid))
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if !k.fetchedAt.IsZero() && k.now().Sub(k.fetchedAt) < MinRefetch {
			k.mu.Unlock()
			return nil, refuse("unknown signing key %q", clip(kid))
		}
		done := make(chan struct{})
		k.inflight, k.fetchedAt = done, k.now()
		k.fetches++
		k.mu.Unlock()

		keys, err := k.fetch(ctx)
		k.mu.Lock()
		if err == nil {
			k.keys = keys
		}
		k.inflight = nil
		close(done)
		k.mu.Unlock()
		if err != nil {
			return nil, err
		}
		// the loop answers from the new set, and refuses without another fetch
	}
}

// fetch reads the set (the keys of use "sig" or none, by key id).
func (k *KeySet) fetch(ctx context.Context) (map[string]jose.JSONWebKey, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch the identity provider's keys: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch the identity provider's keys: status %d", resp.StatusCode)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxKeySet)).Decode(&set); err != nil {
		return nil, fmt.Errorf("read the identity provider's keys: %w", err)
	}
	keys := make(map[string]jose.JSONWebKey, len(set.Keys))
	for _, key := range set.Keys {
		if key.KeyID != "" && key.IsPublic() && (key.Use == "" || key.Use == "sig") {
			keys[key.KeyID] = key
		}
	}
	return keys, nil
}

// VerifySignature checks a JWS against the set and returns its payload. It
// makes KeySet a go-oidc KeySet, so the id_token verifier of the tenant
// backend shares the cache and the refetch limit.
func (k *KeySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, signingAlgorithms)
	if err != nil || len(jws.Signatures) != 1 {
		return nil, refuse("not a signed JWT of an accepted algorithm")
	}
	h := jws.Signatures[0].Protected
	key, err := k.Key(ctx, h.KeyID)
	if err != nil {
		return nil, err
	}
	if key.Algorithm != "" && key.Algorithm != h.Algorithm {
		return nil, refuse("key %s is not for %s", clip(h.KeyID), clip(h.Algorithm))
	}
	payload, err := jws.Verify(key.Key)
	if err != nil {
		return nil, refuse("signature does not verify")
	}
	return payload, nil
}
