package idp

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A flood of sign-ins never has more password verifications in flight than
// the queue's slots (each holds its argon2id memory), and a sign-in that
// finds no free slot within the wait is answered 503 with Retry-After,
// without a hash, the same for a known and an unknown address.
// attack: hash-flood
func TestAttackHashFlood(t *testing.T) {
	ti := mustIDP(t, func(c *Config) { c.PasswordHashSlots, c.PasswordHashWait = 2, 200*time.Millisecond })
	r := ti.rp()
	release := make(chan struct{})
	var inFlight, peak atomic.Int64
	ti.p.factors.hashes = new(atomic.Int64)
	ti.p.factors.hashGate = func(string) {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		inFlight.Add(-1)
	}
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow()))
	var wg sync.WaitGroup
	for i := range 2 { // fill both slots
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.submitLogin(ti.issuer, page, alice, "guess "+string(rune('a'+i)))
		}()
	}
	for ti.p.factors.hashes.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	// Both slots held: these wait out the queue's wait and are refused.
	for _, email := range []string{alice, "nobody@example.com"} {
		resp, body := b.submitLogin(ti.issuer, page, email, goodPass)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s with every slot held: %d Retry-After=%q, want 503 with Retry-After", email, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		if strings.Contains(body, msgLoginFailed) {
			t.Fatalf("%s: a busy answer must not read as a failed login", email)
		}
	}
	if n := ti.p.factors.hashes.Load(); n != 2 {
		t.Fatalf("%d hashes computed, want the 2 in flight only", n)
	}
	// Many at once, released: they all get their verification, in turn.
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.submitLogin(ti.issuer, page, "nobody@example.com", "guess "+string(rune('k'+i)))
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if p := peak.Load(); p > 2 {
		t.Fatalf("%d verifications were in flight at once, want at most the 2 slots", p)
	}
	// The queue drained: the right password signs in.
	code := ti.login(b, r, newFlow(), alice, goodPass)
	if code == "" {
		t.Fatal("no code after the flood")
	}
}

// The queue answers errHashBusy at once when its waiters are many.
func TestHashQueueWaitersBounded(t *testing.T) {
	q := newHashQueue(1, time.Hour) // a wait would outlast the test
	q.maxWaiting = 0
	hold := make(chan struct{})
	started := make(chan struct{})
	go func() { _ = q.do(t.Context(), func() { close(started); <-hold }) }()
	<-started
	if err := q.do(t.Context(), func() { t.Error("ran without a slot") }); err != errHashBusy {
		t.Fatalf("err = %v, want errHashBusy", err)
	}
	close(hold)
}
