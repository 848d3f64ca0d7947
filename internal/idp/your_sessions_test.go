package idp

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// signedIn signs b in as email through r and answers the session's sid and
// the tokens.
func signedIn(t *testing.T, ti *testIDP, r *rp, b *browser, email string) (string, *oauth2.Token) {
	t.Helper()
	f := newFlow()
	tok, err := r.exchange(f, ti.login(b, r, f, email, goodPass))
	if err != nil {
		t.Fatal(err)
	}
	idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		SID string `json:"sid"`
	}
	_ = idt.Claims(&c)
	return c.SID, tok
}

// The account page lists each browser with its browser, system and
// network, and signs out one other browser: its applications get a
// back-channel logout, its refresh token stops working, its next visit
// asks it to sign in again, and this browser stays signed in.
func TestAccountEndsOneSession(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL)
	r := ti.rp("openid", "offline_access")
	here, other := ti.browser(), ti.browser()
	hereSID, _ := signedIn(t, ti, r, here, alice)
	otherSID, otherTok := signedIn(t, ti, r, other, alice)
	_, page := here.get(ti.issuer + PathAccount)
	for _, want := range []string{"<strong>This browser</strong>", "Another browser", "network 127.0.0.0/24",
		`name="sid" value="` + otherSID + `"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("account page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, `name="sid" value="`+hereSID+`"`) {
		t.Fatalf("this browser has a sign-out-of form of its own")
	}
	resp, done := here.submitForm(ti.issuer+PathAccountEndSession, page, "sid", otherSID)
	if resp.StatusCode != http.StatusOK || !strings.Contains(done, "That browser was signed out") {
		t.Fatalf("end session: %d\n%s", resp.StatusCode, done)
	}
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d logouts delivered, want 1", n)
	}
	if lt := ti.verifyLogout(t, lr.received()[0]); lt.SessionID != otherSID {
		t.Fatalf("logout for sid %q, want %q", lt.SessionID, otherSID)
	}
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: otherTok.RefreshToken}).Token(); err == nil {
		t.Fatal("the ended session's refresh token still works")
	}
	if _, body := other.get(ti.issuer + PathAccount); strings.Contains(body, alice) {
		t.Fatalf("the ended browser still sees the account:\n%s", body)
	}
	if _, body := here.get(ti.issuer + PathAccount); !strings.Contains(body, alice) {
		t.Fatalf("this browser was signed out too:\n%s", body)
	}
}

// Ending another user's session by its sid from one's own account page is
// answered as a session that just ended, and ends nothing: the other user
// stays signed in and no logout is sent.
// attack: end-other-users-session
func TestAttackEndOtherUsersSession(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL)
	r := ti.rp()
	mallory, victim := ti.browser(), ti.browser()
	signedIn(t, ti, r, mallory, alice)
	victimSID, _ := signedIn(t, ti, r, victim, bob)
	_, page := mallory.get(ti.issuer + PathAccount)
	_, done := mallory.submitForm(ti.issuer+PathAccountEndSession, page, "sid", victimSID)
	_, page = mallory.get(ti.issuer + PathAccount)
	_, unknown := mallory.submitForm(ti.issuer+PathAccountEndSession, page, "sid", "no-such-session")
	if !strings.Contains(done, "That browser was signed out") || !strings.Contains(unknown, "That browser was signed out") {
		t.Fatalf("answers differ or fail:\n%s\n---\n%s", done, unknown)
	}
	if _, body := victim.get(ti.issuer + PathAccount); !strings.Contains(body, bob) {
		t.Fatalf("the other user's session ended:\n%s", body)
	}
	if n := ti.deliver(t); n != 0 {
		t.Fatalf("%d logouts sent", n)
	}
	if ss, err := ti.st.UserSessions(context.Background(), userBob, ti.p.now()); err != nil || len(ss) != 1 {
		t.Fatalf("bob's sessions: %d %v", len(ss), err)
	}
}
