package idp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/audit"
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

// grantIDOf is the grant_id claim of an access token (not verified: the
// test reads its own token).
func grantIDOf(t *testing.T, tok *oauth2.Token) string {
	t.Helper()
	parts := strings.Split(tok.AccessToken, ".")
	if len(parts) != 3 {
		t.Fatalf("access token is not a JWT: %q", tok.AccessToken)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		GrantID string `json:"grant_id"`
	}
	if err := json.Unmarshal(raw, &c); err != nil || c.GrantID == "" {
		t.Fatalf("grant_id: %v %s", err, raw)
	}
	return c.GrantID
}

// The account page lists the applications the user is signed in to and
// revokes one: its refresh token fails, its application gets a
// back-channel logout, the browser session stays, and the revocation is a
// token.revoked event.
func TestAccountRevokesGrant(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	lr := newLogoutReceiver(t)
	ti.withBackchannelLogout(lr.srv.URL)
	r := ti.rp("openid", "offline_access")
	b := ti.browser()
	sid, tok := signedIn(t, ti, r, b, alice)
	grant := grantIDOf(t, tok)
	_, page := b.get(ti.issuer + PathAccount)
	for _, want := range []string{"Applications you are signed in to", "(signed in from this browser): access granted", `name="grant" value="` + grant + `"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("account page lacks %q:\n%s", want, page)
		}
	}
	resp, done := b.submitForm(ti.issuer+PathAccountRevokeGrant, page, "grant", grant)
	if resp.StatusCode != http.StatusOK || !strings.Contains(done, "access was revoked") || strings.Contains(done, `value="`+grant+`"`) {
		t.Fatalf("revoke: %d\n%s", resp.StatusCode, done)
	}
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("the revoked grant's refresh token still works")
	}
	if n := ti.deliver(t); n != 1 {
		t.Fatalf("%d logouts delivered, want 1", n)
	}
	if lt := ti.verifyLogout(t, lr.received()[0]); lt.SessionID != sid {
		t.Fatalf("logout for sid %q, want %q", lt.SessionID, sid)
	}
	if !strings.Contains(done, alice) {
		t.Fatal("the browser session ended with the grant")
	}
	if events := ti.events(audit.TokenRevoked, everyone); len(events) != 1 || events[0].Reason != "revoked_by_user" {
		t.Fatalf("token.revoked events: %+v", events)
	}
}

// Revoking another user's grant by its id is answered like one that just
// ended, and the grant keeps working.
// attack: revoke-other-users-grant
func TestAttackRevokeOtherUsersGrant(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	r := ti.rp("openid", "offline_access")
	mallory := ti.browser()
	signedIn(t, ti, r, mallory, alice)
	_, victimTok := signedIn(t, ti, r, ti.browser(), bob)
	_, page := mallory.get(ti.issuer + PathAccount)
	_, done := mallory.submitForm(ti.issuer+PathAccountRevokeGrant, page, "grant", grantIDOf(t, victimTok))
	if !strings.Contains(done, "access was revoked") {
		t.Fatalf("answer:\n%s", done)
	}
	if _, err := r.cfg.TokenSource(r.ctx, &oauth2.Token{RefreshToken: victimTok.RefreshToken}).Token(); err != nil {
		t.Fatalf("the other user's grant was revoked: %v", err)
	}
}
