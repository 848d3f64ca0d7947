package testkit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// DPoPKey is a client's DPoP key (ES256) that makes proofs (RFC 9449) for
// tests, written out by hand so that tests can also make the proofs a
// server must refuse.
type DPoPKey struct {
	key *ecdsa.PrivateKey
}

// NewDPoPKey makes a fresh P-256 key.
func NewDPoPKey(t testing.TB) *DPoPKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &DPoPKey{key: k}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func (k *DPoPKey) coord(n interface{ FillBytes([]byte) []byte }) string {
	return b64(n.FillBytes(make([]byte, 32)))
}

// JWK is the public key as a JWK.
func (k *DPoPKey) JWK() map[string]any {
	return map[string]any{"kty": "EC", "crv": "P-256", "x": k.coord(k.key.X), "y": k.coord(k.key.Y)}
}

// JKT is the key's RFC 7638 thumbprint.
func (k *DPoPKey) JKT() string {
	j := k.JWK()
	sum := sha256.Sum256([]byte(fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, j["x"], j["y"])))
	return b64(sum[:])
}

// ProofOpts are the parts of a proof a test sets; the zero value makes a
// correct proof of now without ath and nonce.
type ProofOpts struct {
	AccessToken string    // ath is its hash
	Nonce       string    // the server's nonce
	IssuedAt    time.Time // zero: now
	JTI         string    // zero: random
	// Header and Claims replace or add (a nil value removes) entries of
	// the proof's header and claims.
	Header map[string]any
	Claims map[string]any
}

// Proof makes a proof for method and uri.
func (k *DPoPKey) Proof(method, uri string, o ProofOpts) string {
	iat := o.IssuedAt
	if iat.IsZero() {
		iat = time.Now()
	}
	jti := o.JTI
	if jti == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		jti = b64(b)
	}
	h := map[string]any{"typ": "dpop+jwt", "alg": "ES256", "jwk": k.JWK()}
	c := map[string]any{"jti": jti, "htm": method, "htu": uri, "iat": iat.Unix()}
	if o.AccessToken != "" {
		sum := sha256.Sum256([]byte(o.AccessToken))
		c["ath"] = b64(sum[:])
	}
	if o.Nonce != "" {
		c["nonce"] = o.Nonce
	}
	merge(h, o.Header)
	merge(c, o.Claims)
	hb, _ := json.Marshal(h)
	cb, _ := json.Marshal(c)
	input := b64(hb) + "." + b64(cb)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, k.key, sum[:])
	if err != nil {
		panic(err)
	}
	sig := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	return input + "." + b64(sig)
}

// PrivateJWK is the key with its private part, which no proof may carry.
func (k *DPoPKey) PrivateJWK() map[string]any {
	j := k.JWK()
	j["d"] = k.coord(k.key.D)
	return j
}

func merge(dst, src map[string]any) {
	for key, v := range src {
		if v == nil {
			delete(dst, key)
		} else {
			dst[key] = v
		}
	}
}
