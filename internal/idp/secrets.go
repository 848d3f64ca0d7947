package idp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base32"
	"errors"
)

// sealer encrypts secrets kept in the database (external client secrets,
// TOTP seeds) with AES-256-GCM under the platform's secrets key. The row's
// purpose is bound as additional data, so a sealed value cannot be moved to
// another row or column.
type sealer struct{ aead cipher.AEAD }

func newSealer(key []byte) (*sealer, error) {
	if len(key) != 32 {
		return nil, errors.New("idp: the secrets key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

func (s *sealer) seal(plaintext []byte, purpose string) []byte {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	return s.aead.Seal(nonce, nonce, plaintext, []byte(purpose))
}

func (s *sealer) open(sealed []byte, purpose string) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("idp: sealed value too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], []byte(purpose))
}

var base32NoPad = base32.StdEncoding.WithPadding(base32.NoPadding)
