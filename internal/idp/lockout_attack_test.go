package idp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
)

// Twenty wrong passwords posted at once, then the right one while they are
// still being checked: the right one is refused, because every attempt
// takes one of the five the account has before its hash is checked; the
// fifteen beyond them and the right one wait their turn, which does not
// come, and are refused uncounted; the five wrong ones lock the account.
// attack: lockout-race
func TestAttackLockoutRace(t *testing.T) {
	t.Parallel()
	// all twenty guesses in flight at once; an attempt past the five the
	// account has waits for its turn a short while, then is refused
	ti := mustIDP(t, func(c *Config) { c.PasswordHashSlots, c.PasswordHashWait = 32, 300*time.Millisecond })
	r := ti.rp()
	release := make(chan struct{})
	ti.p.factors.hashes = new(atomic.Int64)
	ti.p.factors.hashGate = func(password string) {
		if password != goodPass {
			<-release // the wrong guesses stay in flight
		}
	}
	b := ti.browser()
	b.client.Timeout = 5 * time.Minute // the guesses wait, held, for every other one to arrive: a busy machine is slow
	_, page := b.get(r.authURL(newFlow()))
	var wg sync.WaitGroup
	var done atomic.Int32
	stuck := make(chan struct{}) // closed when every guess answered without reaching its hash
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.submitLogin(ti.issuer, page, alice, "guess "+string(rune('a'+i)))
			if done.Add(1) == 20 {
				close(stuck)
			}
		}()
	}
	for ti.p.factors.hashes.Load() < 20 { // every guess is inside its one hash
		select {
		case <-time.After(time.Millisecond):
		case <-stuck:
			close(release)
			wg.Wait()
			t.Fatalf("only %d of 20 guesses reached their hash", ti.p.factors.hashes.Load())
		}
	}
	resp, body := b.submitLogin(ti.issuer, page, alice, goodPass)
	close(release)
	wg.Wait()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, msgLoginFailed) {
		t.Fatalf("the right password after 20 concurrent guesses answered %d at %s", resp.StatusCode, resp.Request.URL)
	}
	u, _ := ti.st.User(context.Background(), userAlice)
	if !u.LockedUntil.After(time.Now()) || u.FailedLogins != 5 {
		t.Fatalf("after 20 concurrent guesses: %d failures counted, locked until %v; want 5 and locked", u.FailedLogins, u.LockedUntil)
	}
	if n := ti.p.factors.hashes.Load(); n != 21 {
		t.Fatalf("%d hashes for 21 attempts, want one each", n)
	}
}

// Every sign-in attempt costs exactly one password hash, whatever the
// address: unknown, one account, accounts in two organizations, locked. The
// cost of an attempt tells nothing about the address (no timing in the test:
// the hashes are counted).
// attack: login-timing-enumeration
func TestAttackOneHashPerAttempt(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	now := time.Now()
	hash, _ := HashPassword(goodPass, ti.p.cfg.Password)
	if err := ti.st.CreateUser(context.Background(), &platform.User{ID: "alice-b", OrgID: orgB, Email: alice,
		EmailVerified: true, PasswordHash: hash, CreatedAt: now.Add(time.Hour), UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := ti.st.CreateUser(context.Background(), &platform.User{ID: "locked", OrgID: orgB, Email: "locked@b.example",
		EmailVerified: true, PasswordHash: hash, LockedUntil: now.Add(time.Hour), FailedLogins: 5, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	r := ti.rp()
	ti.p.factors.hashes = new(atomic.Int64)
	for _, tc := range []struct{ name, email, password string }{
		{"Unknown", "nobody@a.example", goodPass},
		{"OneAccountWrong", bob, "wrong password"},
		{"OneAccountRight", bob, goodPass},
		{"TwoOrganizations", alice, "wrong password"},
		{"Locked", "locked@b.example", goodPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := ti.browser()
			_, page := b.get(r.authURL(newFlow(), oauth2.SetAuthURLParam("prompt", "login")))
			before := ti.p.factors.hashes.Load()
			b.submitLogin(ti.issuer, page, tc.email, tc.password)
			if n := ti.p.factors.hashes.Load() - before; n != 1 {
				t.Fatalf("%d password hashes for one attempt, want 1", n)
			}
		})
	}
	t.Run("TwoOrganizationsSignsInTheAdminAccount", func(t *testing.T) {
		// without an org scope the administrator organization's account is the one
		tok, _ := ti.loginTokens(r, alice)
		if idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string)); idt.Subject != userAlice {
			t.Fatalf("signed in %q", idt.Subject)
		}
	})
}

// The sign-in form is rate limited per client address: beyond the limit
// the form answers 429 with Retry-After and checks no password.
// attack: login-form-flood
func TestAttackLoginRateLimit(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, func(c *Config) { c.LoginRateLimit = 3 })
	r := ti.rp()
	ti.p.factors.hashes = new(atomic.Int64)
	b := ti.browser()
	_, page := b.get(r.authURL(newFlow()))
	for i := range 3 {
		resp, body := b.submitLogin(ti.issuer, page, "nobody@a.example", "guess")
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d answered %d", i+1, resp.StatusCode)
		}
		page = body
	}
	resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth attempt in a minute answered %d (Retry-After %q)", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if n := ti.p.factors.hashes.Load(); n != 3 {
		t.Fatalf("%d hashes, want 3: a refused attempt checks no password", n)
	}
}

// Sixteen sign-ins with the right password at once, on one account whose
// lockout allows five attempts: every one succeeds (those beyond the five
// in flight wait for a right answer to give its attempt back) and no
// failure is counted (D-lockout).
func TestConcurrentRightPasswordsAllSucceed(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t, func(c *Config) { c.PasswordHashSlots = 16 }) // all sixteen may reach the hash at once
	r := ti.rp()
	// no check ends before all sixteen are in a hash, or a second after
	// five are: the attempts overlap however fast the machine (where an
	// attempt beyond the five were counted as a failure, the sixteen would
	// be there at once, eleven of them refused); here only five are, the
	// others waiting their turn, and the second lets them through
	var entered atomic.Int64
	all := make(chan struct{})
	var once sync.Once
	ti.p.factors.hashGate = func(string) {
		switch entered.Add(1) {
		case 5:
			time.AfterFunc(time.Second, func() { once.Do(func() { close(all) }) })
		case 16:
			once.Do(func() { close(all) })
		}
		<-all
	}
	var wg sync.WaitGroup
	codes := make([]string, 16)
	for i := range codes {
		b := ti.browser()
		f := newFlow()
		_, page := b.get(r.authURL(f))
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := b.submitLogin(ti.issuer, page, alice, goodPass)
			if loc, err := url.Parse(resp.Header.Get("Location")); err == nil {
				codes[i] = loc.Query().Get("code")
			}
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c == "" {
			t.Errorf("sign-in %d of 16 with the right password got no code", i+1)
		}
	}
	u, _ := ti.st.User(context.Background(), userAlice)
	if u.FailedLogins != 0 || !u.LockedUntil.IsZero() {
		t.Fatalf("after 16 right passwords: %d failures, locked until %v", u.FailedLogins, u.LockedUntil)
	}
}
