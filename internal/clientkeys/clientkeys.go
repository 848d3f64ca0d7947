// Package clientkeys checks the public keys a client registers to sign its
// private_key_jwt assertions (RFC 7523), for every place that registers them.
package clientkeys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/platform/platform/internal/platform"
)

// MaxKeys is the most keys one client registers.
const MaxKeys = 5

// Validate checks a JWK Set of a client's public signing keys: one to
// MaxKeys keys, each with its own kid, RSA (2048 bits or more) or EC
// P-256/P-384, no private parts. It answers the set as it is stored, or an
// EINVALID error naming the problem.
func Validate(raw json.RawMessage) (string, error) {
	if len(raw) > 16<<10 {
		return "", invalid("jwks is larger than 16 KiB")
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(raw, &set); err != nil {
		return "", invalid("jwks is not a JWK Set: %v", err)
	}
	if len(set.Keys) == 0 || len(set.Keys) > MaxKeys {
		return "", invalid("jwks holds one to five keys")
	}
	seen := map[string]bool{}
	for _, k := range set.Keys {
		if k.KeyID == "" || len(k.KeyID) > 100 || seen[k.KeyID] {
			return "", invalid("every key needs its own kid")
		}
		seen[k.KeyID] = true
		if !k.IsPublic() {
			return "", invalid("key %s has private parts; register the public key only", k.KeyID)
		}
		if k.Use != "" && k.Use != "sig" {
			return "", invalid("key %s is not a signing key (use %q)", k.KeyID, k.Use)
		}
		switch pub := k.Key.(type) {
		case *rsa.PublicKey:
			if pub.N.BitLen() < 2048 {
				return "", invalid("key %s: RSA keys have at least 2048 bits", k.KeyID)
			}
		case *ecdsa.PublicKey:
			if pub.Curve != elliptic.P256() && pub.Curve != elliptic.P384() {
				return "", invalid("key %s: EC keys are on P-256 or P-384", k.KeyID)
			}
		default:
			return "", invalid("key %s: only RSA and EC keys", k.KeyID)
		}
	}
	b, err := json.Marshal(set)
	return string(b), err
}

// KeyIDs lists the kids of a stored set (none when it holds none).
func KeyIDs(stored string) []string {
	ids := []string{}
	var set jose.JSONWebKeySet
	if json.Unmarshal([]byte(stored), &set) == nil {
		for _, k := range set.Keys {
			ids = append(ids, k.KeyID)
		}
	}
	return ids
}

func invalid(format string, args ...any) error {
	return platform.Errorf(platform.EINVALID, format, args...)
}
