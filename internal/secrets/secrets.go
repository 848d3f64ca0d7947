// Package secrets seals values kept at rest (external client secrets, TOTP
// seeds, refresh tokens held by the tenant backend) with AES-256-GCM under
// the platform's secrets key.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
)

// Sealer encrypts and authenticates values. The label (labels.go: the row
// and column a value belongs to) is bound as additional data, so a sealed
// value cannot be moved to another row or column.
type Sealer struct{ aead cipher.AEAD }

// New returns a Sealer for a 32-byte key.
func New(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, errors.New("secrets: the key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plaintext under label.
func (s *Sealer) Seal(plaintext []byte, label Label) []byte {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return s.aead.Seal(nonce, nonce, plaintext, []byte(label))
}

// Open decrypts a sealed value; it fails when the value or label differ.
func (s *Sealer) Open(sealed []byte, label Label) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("secrets: sealed value too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], []byte(label))
}
