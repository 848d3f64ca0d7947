package idp

import (
	"bytes"
	"context"
	"crypto/x509"
	"testing"
)

// The provider's private signing keys are sealed at rest: whoever reads the
// signing_keys table (a backup, a read-only database account) finds no key
// that signs, a sealed key moved to another key's row does not open, and a
// key stored plain before sealing keeps signing until it expires.
// attack: signing-key-at-rest
func TestAttackSigningKeyAtRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ti := mustIDP(t) // starts with a plain key of the test pool, as stored before sealing
	r := ti.rp()
	if tok, _ := ti.loginTokens(r, alice); tok == nil {
		t.Fatal("no tokens with the key stored plain")
	}
	if err := ti.p.RotateKeys(ctx); err != nil {
		t.Fatal(err)
	}
	keys, err := ti.st.SigningKeys(ctx, ti.p.now())
	if err != nil || len(keys) < 2 {
		t.Fatalf("keys = %d, %v", len(keys), err)
	}
	made := keys[0] // the newest: made by the provider
	if !bytes.HasPrefix(made.PrivateKey, sealedKey) {
		t.Fatalf("the provider's key is stored unsealed")
	}
	if _, err := x509.ParsePKCS8PrivateKey(made.PrivateKey[len(sealedKey):]); err == nil {
		t.Fatal("the stored key parses as a private key")
	}
	// tokens signed with the sealed key verify for a relying party
	r2 := ti.rp()
	after, _ := ti.loginTokens(r2, alice)
	if _, err := r2.verifier.Verify(r2.ctx, after.Extra("id_token").(string)); err != nil {
		t.Fatalf("token of the sealed key: %v", err)
	}
	// the sealed bytes under another key's id do not open
	moved := *made
	moved.ID = keys[1].ID
	if _, err := ti.p.keys.open(&moved); err == nil {
		t.Fatal("a sealed key opened under another key's id")
	}
	// nor without the secrets key
	other := mustIDP(t)
	if _, err := other.p.keys.open(made); err == nil {
		t.Fatal("a sealed key opened with another secrets key")
	}

	// a provider whose SECRETS_KEY was replaced leaves out the keys it
	// cannot open and signs with one it can, instead of refusing to start
	cfg := ti.p.cfg
	cfg.SecretsKey = randomBytes(32)
	replaced, err := New(ctx, cfg, ti.st)
	if err != nil {
		t.Fatalf("start with another secrets key: %v", err)
	}
	t.Cleanup(replaced.WaitBackground)
	k, err := replaced.keys.SigningKey(ctx)
	if err != nil || k.ID() == made.ID {
		t.Fatalf("signing key after the secrets key changed = %v, %v", k, err)
	}
}
