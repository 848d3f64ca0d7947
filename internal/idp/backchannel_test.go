package idp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/egress"
)

// logoutReceiver is an application's back-channel logout endpoint: it
// answers the statuses queued in fail first, then 200, and keeps the
// tokens it received.
type logoutReceiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	fail   []int
	tokens []string
	hits   int // requests of any kind
}

func newLogoutReceiver(t *testing.T, fail ...int) *logoutReceiver {
	lr := &logoutReceiver{fail: fail}
	lr.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lr.mu.Lock()
		defer lr.mu.Unlock()
		lr.hits++
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if len(lr.fail) > 0 {
			w.WriteHeader(lr.fail[0])
			lr.fail = lr.fail[1:]
			return
		}
		lr.tokens = append(lr.tokens, r.PostFormValue("logout_token"))
	}))
	t.Cleanup(lr.srv.Close)
	return lr
}

func (lr *logoutReceiver) received() []string {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	return append([]string(nil), lr.tokens...)
}

// withBackchannelLogout registers uri as the test application's
// back-channel logout URI.
func (ti *testIDP) withBackchannelLogout(uri string) {
	ti.t.Helper()
	ctx := context.Background()
	app, err := ti.st.ApplicationByClientID(ctx, appClientID)
	if err != nil {
		ti.t.Fatal(err)
	}
	app.BackchannelLogoutURI = uri
	if err := ti.st.UpdateApplication(ctx, app); err != nil {
		ti.t.Fatal(err)
	}
}

// verifyLogout checks a logout token as a relying party would.
func (ti *testIDP) verifyLogout(t *testing.T, raw string) *access.LogoutToken {
	t.Helper()
	v := access.NewTokenVerifier(ti.issuer, appClientID, access.NewKeySet(ti.issuer+PathKeys, ti.srv.Client()))
	lt, err := v.VerifyLogout(context.Background(), raw)
	if err != nil {
		t.Fatalf("logout token does not verify: %v", err)
	}
	return lt
}

// deliver runs one delivery round and answers how many arrived.
func (ti *testIDP) deliver(t *testing.T) int {
	t.Helper()
	n, err := ti.p.logouts.deliverLogouts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Signing out at the provider sends the application a logout token naming
// the user and the provider session its id_token named; an application the
// user never signed in to gets nothing, and nothing is sent twice.
func TestBackchannelLogoutOnSignOut(t *testing.T) {
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL + "/logout")
	r := ti.rp()
	b := ti.browser()
	f := newFlow()
	tok, err := r.exchange(f, ti.login(b, r, f, alice, goodPass))
	if err != nil {
		t.Fatal(err)
	}
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		SID string `json:"sid"`
	}
	if err := idt.Claims(&claims); err != nil || claims.SID == "" {
		t.Fatalf("the id_token carries no sid (%v)", err)
	}
	if n := ti.deliver(t); n != 0 {
		t.Fatalf("%d logouts delivered before anyone signed out", n)
	}

	_, page := b.get(ti.issuer + PathEndSession)
	if resp, _ := b.submitForm(ti.issuer+PathEndSession, page); resp.Request.URL.Path != PathLoggedOut {
		t.Fatalf("sign-out ended at %s", resp.Request.URL)
	}
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d logouts delivered after sign-out, want 1", n)
	}
	got := lr.received()
	lt := ti.verifyLogout(t, got[0])
	if lt.Subject != userAlice || lt.SessionID != claims.SID {
		t.Fatalf("logout token names sub %q sid %q, want %q %q", lt.Subject, lt.SessionID, userAlice, claims.SID)
	}
	if n := ti.deliver(t); n != 0 || len(lr.received()) != 1 {
		t.Fatalf("a delivered logout was sent again (%d)", n)
	}
}

// A session that another user's sign-in replaces in the same browser ends
// with a logout token for its sid; signing in again as the same user keeps
// the session and its sid.
func TestBackchannelLogoutOnUserSwitch(t *testing.T) {
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL)
	r := ti.rp()
	b := ti.browser()
	sid := func(code string, f flow) string {
		tok, err := r.exchange(f, code)
		if err != nil {
			t.Fatal(err)
		}
		idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
		var c struct {
			SID string `json:"sid"`
		}
		_ = idt.Claims(&c)
		return c.SID
	}
	f1, f2 := newFlow(), newFlow()
	first := sid(ti.login(b, r, f1, alice, goodPass), f1)
	again := sid(ti.login(b, r, f2, alice, goodPass, forceLogin()), f2)
	if first == "" || again != first {
		t.Fatalf("signing in again as the same user changed the sid: %q → %q", first, again)
	}
	ti.login(b, r, newFlow(), bob, goodPass, forceLogin())
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d logouts after another user signed in, want 1", n)
	}
	if lt := ti.verifyLogout(t, lr.received()[0]); lt.Subject != userAlice || lt.SessionID != first {
		t.Fatalf("logout names %q %q, want alice's session", lt.Subject, lt.SessionID)
	}
}

// Ending every credential of a user (suspension, deletion, password
// change) sends a logout token with sub and no sid. A receiver that fails
// is retried with backoff by the provider's clock, and a logout is given
// up after logoutMaxAttempts.
func TestBackchannelLogoutRetries(t *testing.T) {
	ti := mustIDP(t)
	lr := newLogoutReceiver(t, http.StatusServiceUnavailable, http.StatusFound)
	ti.withBackchannelLogout(lr.srv.URL)
	ti.loginTokens(ti.rp(), alice)
	if err := ti.st.EndUserCredentials(context.Background(), userAlice, ti.p.now()); err != nil {
		t.Fatal(err)
	}
	if n := ti.deliver(t); n != 0 {
		t.Fatalf("a 503 counted as delivered (%d)", n)
	}
	if n := ti.deliver(t); n != 0 {
		t.Fatal("a failed logout was retried before its backoff")
	}
	ti.clock.offset += logoutBackoff(1) + time.Second
	if n := ti.deliver(t); n != 0 {
		t.Fatal("a redirect counted as delivered")
	}
	ti.clock.offset += logoutBackoff(2) + time.Second
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d delivered after the backoff, want 1", n)
	}
	lt := ti.verifyLogout(t, lr.received()[0])
	if lt.Subject != userAlice || lt.SessionID != "" {
		t.Fatalf("logout names %q %q, want alice and no sid", lt.Subject, lt.SessionID)
	}

	// a receiver that never answers 200 is given up
	lr.mu.Lock()
	for range logoutMaxAttempts {
		lr.fail = append(lr.fail, http.StatusInternalServerError)
	}
	lr.mu.Unlock()
	ti.loginTokens(ti.rp(), alice)
	if err := ti.st.EndUserCredentials(context.Background(), userAlice, ti.p.now()); err != nil {
		t.Fatal(err)
	}
	for i := range logoutMaxAttempts {
		ti.deliver(t)
		ti.clock.offset += logoutBackoff(i+1) + time.Second
	}
	lr.mu.Lock()
	lr.fail = nil
	lr.mu.Unlock()
	ti.clock.offset += time.Hour
	if n := ti.deliver(t); n != 0 || len(lr.received()) != 1 {
		t.Fatalf("a logout was still delivered after %d failures", logoutMaxAttempts)
	}
}

func forceLogin() oauth2.AuthCodeOption { return oauth2.SetAuthURLParam("prompt", "login") }

// "Sign out everywhere else" on the account page sends the applications a
// logout for each other browser's session, and none for this one.
func TestBackchannelLogoutOnEndOthers(t *testing.T) {
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL)
	r := ti.rp()
	sidOf := func(b *browser) string {
		f := newFlow()
		tok, err := r.exchange(f, ti.login(b, r, f, alice, goodPass))
		if err != nil {
			t.Fatal(err)
		}
		idt, _ := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
		var c struct {
			SID string `json:"sid"`
		}
		_ = idt.Claims(&c)
		return c.SID
	}
	here, other := ti.browser(), ti.browser()
	hereSID, otherSID := sidOf(here), sidOf(other)
	_, page := here.get(ti.issuer + PathAccount)
	if resp, _ := here.submitForm(ti.issuer+PathAccountEndOthers, page); resp.StatusCode != http.StatusOK {
		t.Fatalf("end others: %d", resp.StatusCode)
	}
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d logouts delivered, want 1 (the other browser's)", n)
	}
	if lt := ti.verifyLogout(t, lr.received()[0]); lt.SessionID != otherSID || lt.SessionID == hereSID {
		t.Fatalf("logout for sid %q, want the other browser's %q", lt.SessionID, otherSID)
	}
}

// A back-channel logout URI is an outbound request like any other: it goes
// through the egress policy (an address it refuses is never dialled, and
// the logout stays queued for a retry) and follows no redirect (a receiver
// that redirects does not count as delivered, and the target of the
// redirect gets nothing).
// attack: backchannel-logout-ssrf
func TestAttackBackchannelLogoutSSRF(t *testing.T) {
	t.Run("ErrAddressRefused", func(t *testing.T) {
		ti := mustIDP(t, func(c *Config) { c.Egress = egress.Policy{} }) // loopback not allowed
		lr := newLogoutReceiver(t)
		ti.withBackchannelLogout(lr.srv.URL)
		ti.loginTokens(ti.rp(), alice)
		if err := ti.st.EndUserCredentials(context.Background(), userAlice, ti.p.now()); err != nil {
			t.Fatal(err)
		}
		if n := ti.deliver(t); n != 0 {
			t.Fatalf("%d logouts delivered to a refused address", n)
		}
		lr.mu.Lock()
		defer lr.mu.Unlock()
		if lr.hits != 0 {
			t.Fatalf("a refused address received %d requests", lr.hits)
		}
	})
	t.Run("ErrRedirect", func(t *testing.T) {
		ti := mustIDP(t)
		target := newLogoutReceiver(t)
		redirector := httptest.NewServer(http.RedirectHandler(target.srv.URL, http.StatusTemporaryRedirect))
		t.Cleanup(redirector.Close)
		ti.withBackchannelLogout(redirector.URL)
		ti.loginTokens(ti.rp(), alice)
		if err := ti.st.EndUserCredentials(context.Background(), userAlice, ti.p.now()); err != nil {
			t.Fatal(err)
		}
		if n := ti.deliver(t); n != 0 {
			t.Fatalf("a redirect counted as delivered (%d)", n)
		}
		target.mu.Lock()
		defer target.mu.Unlock()
		if target.hits != 0 {
			t.Fatalf("the redirect's target received %d requests", target.hits)
		}
	})
}
