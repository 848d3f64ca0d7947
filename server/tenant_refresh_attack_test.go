package main

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"

	"github.com/platform/platform/internal/tenant"
)

// A session is renewed only with tokens of its own user and grant: a
// session row carrying another session's sealed refresh token (sealed for
// that session, so it does not open here), or a refresh that answers
// another grant's tokens, ends the session instead of renewing it, and the
// other session stays as it was.
//
// attack: tenant-refresh-other-grant
func TestAttackTenantRefreshOtherGrant(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	ctx := context.Background()
	signIn := func(email string) (*http.Client, string) {
		t.Helper()
		tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", email, "offline_access")
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		postJSON(t, c, m.Config.InstanceURL+"/auth/idp/callback", tenant.CallbackRequest{IDToken: tok.Extra("id_token").(string),
			AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"})
		var id string
		if err := m.Store.Conn().QueryRow(ctx, `SELECT id_hash FROM tenant_sessions WHERE email = $1 ORDER BY created_at DESC LIMIT 1`, email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return c, id
	}
	expire := func(id string) {
		t.Helper()
		if _, err := m.Store.Conn().Exec(ctx, `UPDATE tenant_sessions SET token_expires_at = $1 WHERE id_hash = $2`,
			time.Now().Add(-time.Minute).UTC(), id); err != nil {
			t.Fatal(err)
		}
	}
	alice, aliceID := signIn("alice@acme.example")
	bob, bobID := signIn("bob@acme.example")

	// Bob's sealed refresh token copied into Alice's session
	if _, err := m.Store.Conn().Exec(ctx, `UPDATE tenant_sessions SET refresh_sealed = (SELECT refresh_sealed FROM tenant_sessions WHERE id_hash = $1) WHERE id_hash = $2`,
		bobID, aliceID); err != nil {
		t.Fatal(err)
	}
	expire(aliceID)
	if code, s := getJSON(t, alice, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("a session renewed with another session's refresh token: %d %v", code, s)
	}
	// Bob's refresh token was not spent: his session renews
	expire(bobID)
	if code, s := getJSON(t, bob, m.Config.InstanceURL+"/auth/session"); code != 200 || dig(s, "user", "email") != "bob@acme.example" {
		t.Fatalf("bob's session after the attempt = %d %v", code, s)
	}

	// A refresh whose tokens are of another grant than the session's (the
	// session names Bob's live grant, so only the renewal's check can refuse)
	carol, carolID := signIn("alice@acme.example")
	if _, err := m.Store.Conn().Exec(ctx, `UPDATE tenant_sessions SET grant_id = (SELECT grant_id FROM tenant_sessions WHERE id_hash = $1) WHERE id_hash = $2`,
		bobID, carolID); err != nil {
		t.Fatal(err)
	}
	expire(carolID)
	if code, s := getJSON(t, carol, m.Config.InstanceURL+"/auth/session"); code != http.StatusUnauthorized {
		t.Fatalf("a session renewed with another grant's tokens: %d %v", code, s)
	}
	var n int
	if err := m.Store.Conn().QueryRow(ctx, `SELECT COUNT(*) FROM tenant_sessions WHERE id_hash = $1`, carolID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the session was not ended: %d %v", n, err)
	}
}

// dig reads a nested value of a decoded JSON object.
func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, _ := v.(map[string]any)
		v = o[k]
	}
	return v
}
