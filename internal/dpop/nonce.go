package dpop

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"time"
)

// NonceStep is the time window a nonce is made for; a nonce of the current
// or the previous window is accepted, so one lives between one and two
// steps.
const NonceStep = 5 * time.Minute

// Nonces makes and checks server nonces without keeping them: a nonce is
// its window's number and an HMAC over it, so any replica with the same
// key accepts it.
type Nonces struct {
	key []byte
}

// NewNonces returns the nonces of key (derived from the platform's secrets
// key; at least 32 bytes).
func NewNonces(key []byte) *Nonces {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("dpop-nonce"))
	return &Nonces{key: m.Sum(nil)}
}

func (n *Nonces) mac(window uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], window)
	m := hmac.New(sha256.New, n.key)
	m.Write(b[:])
	return append(b[:], m.Sum(nil)[:16]...)
}

func windowOf(t time.Time) uint64 { return uint64(t.Unix()) / uint64(NonceStep/time.Second) }

// Issue answers the nonce of now's window.
func (n *Nonces) Issue(now time.Time) string {
	return base64.RawURLEncoding.EncodeToString(n.mac(windowOf(now)))
}

// Valid reports whether nonce was issued in now's window or the one before.
func (n *Nonces) Valid(nonce string, now time.Time) bool {
	b, err := base64.RawURLEncoding.DecodeString(nonce)
	if err != nil || len(b) != 24 {
		return false
	}
	w := windowOf(now)
	got := binary.BigEndian.Uint64(b[:8])
	if got != w && got+1 != w {
		return false
	}
	return hmac.Equal(b, n.mac(got))
}
