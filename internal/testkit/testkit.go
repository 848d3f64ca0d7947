// Package testkit holds what tests of several packages share: waiting for a
// condition with a bounded total wait (Eventually) and RSA signing keys made
// once per test binary (SigningKey). It is imported by tests only.
package testkit

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"strings"
	"sync"
	"testing"
	"time"
)

// Wait is the longest Eventually waits: far beyond what any condition of the
// suite needs on a loaded machine, and short of the test binary's timeout.
const Wait = 30 * time.Second

// poll is how often Eventually looks again.
const poll = 10 * time.Millisecond

// Eventually waits until cond holds, looking every few milliseconds, and
// fails the test with what (the thing waited for) when it still does not
// hold after Wait.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !EventuallyWithin(Wait, cond) {
		t.Fatalf("%s: not so after %s", what, Wait)
	}
}

// EventuallyWithin reports whether cond holds within d, looking every few
// milliseconds; for tests that go on (or fail their own way) when it does not.
func EventuallyWithin(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(poll)
	}
}

// rsaKeys is the binary's pool of RSA keys (PKCS#8 DER) and, per top-level
// test, which of them are in use.
var rsaKeys struct {
	mu   sync.Mutex
	pool [][]byte
	used map[string]map[int]bool
}

// SigningKey returns an RSA-2048 private key (PKCS#8 DER) for a provider the
// test starts, instead of the provider generating one (tens to hundreds of
// milliseconds each). Keys come from a pool made once per test binary: the
// providers alive at one time in one top-level test (its subtests included)
// each get a different key, so a test of one provider refusing another's
// tokens still has two keys; the key goes back to the pool when the test
// (or subtest) that took it ends.
func SigningKey(t testing.TB) []byte {
	t.Helper()
	root, _, _ := strings.Cut(t.Name(), "/")
	rsaKeys.mu.Lock()
	defer rsaKeys.mu.Unlock()
	if rsaKeys.used == nil {
		rsaKeys.used = map[string]map[int]bool{}
	}
	used := rsaKeys.used[root]
	if used == nil {
		used = map[int]bool{}
		rsaKeys.used[root] = used
	}
	i := 0
	for used[i] {
		i++
	}
	for len(rsaKeys.pool) <= i {
		priv, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		rsaKeys.pool = append(rsaKeys.pool, der)
	}
	used[i] = true
	t.Cleanup(func() {
		rsaKeys.mu.Lock()
		defer rsaKeys.mu.Unlock()
		delete(used, i)
	})
	return rsaKeys.pool[i]
}
