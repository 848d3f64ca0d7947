package clientkeys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

func set(t *testing.T, keys ...jose.JSONWebKey) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(jose.JSONWebKeySet{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A client registers public signing keys only: private parts, weak or
// unknown keys, missing or repeated kids are refused with the reason.
func TestValidate(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	weak, _ := rsa.GenerateKey(rand.Reader, 1024)
	strong, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string // "" for valid
	}{
		{"OK/EC", set(t, jose.JSONWebKey{Key: ec.Public(), KeyID: "a", Use: "sig"}), ""},
		{"OK/RSAAndEC", set(t, jose.JSONWebKey{Key: strong.Public(), KeyID: "a"}, jose.JSONWebKey{Key: ec.Public(), KeyID: "b"}), ""},
		{"ErrPrivate", set(t, jose.JSONWebKey{Key: ec, KeyID: "a"}), "private parts"},
		{"ErrWeakRSA", set(t, jose.JSONWebKey{Key: weak.Public(), KeyID: "a"}), "2048"},
		{"ErrCurve", set(t, jose.JSONWebKey{Key: ec521.Public(), KeyID: "a"}), "P-256"},
		{"ErrNoKid", set(t, jose.JSONWebKey{Key: ec.Public()}), "kid"},
		{"ErrSameKid", set(t, jose.JSONWebKey{Key: ec.Public(), KeyID: "a"}, jose.JSONWebKey{Key: strong.Public(), KeyID: "a"}), "kid"},
		{"ErrEncryptionKey", set(t, jose.JSONWebKey{Key: ec.Public(), KeyID: "a", Use: "enc"}), "signing"},
		{"ErrEmpty", json.RawMessage(`{"keys":[]}`), "one to five"},
		{"ErrNotJSON", json.RawMessage(`nope`), "not a JWK Set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stored, err := Validate(tc.raw)
			if tc.want == "" {
				if err != nil || len(KeyIDs(stored)) == 0 {
					t.Fatalf("valid set refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
}
