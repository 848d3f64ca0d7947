package secrets

import (
	"bytes"
	"testing"
)

func TestSealOpen(t *testing.T) {
	s, err := New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	sealed := s.Seal([]byte("client secret"), "idp-secret:1")
	if bytes.Contains(sealed, []byte("client secret")) {
		t.Fatal("plaintext visible in the sealed value")
	}
	if got, err := s.Open(sealed, "idp-secret:1"); err != nil || string(got) != "client secret" {
		t.Fatalf("open = %q, %v", got, err)
	}
	if _, err := s.Open(sealed, "idp-secret:2"); err == nil {
		t.Fatal("a value opened under another purpose")
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := s.Open(sealed, "idp-secret:1"); err == nil {
		t.Fatal("a tampered value opened")
	}
	other, _ := New(bytes.Repeat([]byte{8}, 32))
	if _, err := other.Open(s.Seal([]byte("x"), "p"), "p"); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("accepted a short key")
	}
}
