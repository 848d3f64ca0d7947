package idp

import (
	"context"
	"slices"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
)

// A provider's groups claim drives the user's memberships of the mapped
// groups at each sign-in through it (D-jit-groups): the first sign-in puts
// the new user in the group its claim value maps to, by name; a mapped
// group the claim does not name is left at the next sign-in, a group the
// mapping does not name stays; each change is a groups.synced event of the
// user's customer naming what was joined and left. A claim value mapped to
// no group, or the claim absent, changes nothing.
//
// spec: R4.1-ro-sso
func TestSSOJustInTimeGroups(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t)
	ctx, now := context.Background(), time.Now()
	ext := startExternalOP(t, ti.issuer, nil)
	idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
	for _, g := range []platform.Group{{ID: "g-crew", Name: "Field crew"}, {ID: "g-office", Name: "Office"}, {ID: "g-manual", Name: "Manual"}} {
		g.OrgID, g.Role, g.CreatedAt, g.UpdatedAt = orgB, "viewer", now, now
		if err := ti.st.CreateGroup(ctx, &g); err != nil {
			t.Fatal(err)
		}
	}
	// The example provider asserts custom_claim {"client": …, "other": "stuff"} for custom_scope.
	x, err := ti.st.ExternalIDP(ctx, idpID)
	if err != nil {
		t.Fatal(err)
	}
	x.Scopes = append(x.Scopes, "custom_scope")
	x.GroupsClaim, x.GroupMapping = "custom_claim.other", map[string]string{"stuff": "Field crew", "elsewhere": "g-office"}
	if err := ti.st.UpdateExternalIDP(ctx, x); err != nil {
		t.Fatal(err)
	}
	r := ti.rp()
	scope := "openid profile email " + ScopeOrgPrefix + orgB + " " + ScopeOrgIDPPrefix + idpID
	signIn := func() string {
		t.Helper()
		f := newFlow()
		resp, _, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", scope)))
		tok, err := r.exchange(f, callback(t, resp).Get("code"))
		if err != nil {
			t.Fatal(err)
		}
		idt, err := r.verifier.Verify(r.ctx, tok.Extra("id_token").(string))
		if err != nil {
			t.Fatal(err)
		}
		return idt.Subject
	}
	groupsOf := func(userID string) []string {
		t.Helper()
		gs, err := ti.st.UserGroups(ctx, userID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		return ids
	}

	user := signIn()
	if got := groupsOf(user); !slices.Equal(got, []string{"g-crew"}) {
		t.Fatalf("groups after the first sign-in = %v, want the group the claim maps to", got)
	}
	ev := ti.events(audit.GroupsSynced, everyone)
	if len(ev) != 1 || ev[0].Actor.UserID != user || !slices.Equal(ev[0].Details.GroupsJoined, []string{"g-crew"}) ||
		len(ev[0].Details.GroupsLeft) != 0 || ev[0].Outcome != audit.Success {
		t.Fatalf("events = %+v", ev)
	}

	// Put in a mapped group the claim does not name, and in an unmapped one.
	for _, g := range []string{"g-office", "g-manual"} {
		if _, err := ti.st.AddGroupMember(ctx, false, g, user, now); err != nil {
			t.Fatal(err)
		}
	}
	if again := signIn(); again != user {
		t.Fatalf("second sign-in is %q, first was %q", again, user)
	}
	if got := groupsOf(user); !slices.Equal(got, []string{"g-crew", "g-manual"}) {
		t.Errorf("groups after the second sign-in = %v, want the mapped group left and the unmapped one kept", got)
	}
	ev = ti.events(audit.GroupsSynced, everyone)
	if len(ev) != 2 || !slices.Equal(ev[1].Details.GroupsLeft, []string{"g-office"}) || len(ev[1].Details.GroupsJoined) != 0 {
		t.Fatalf("events = %+v", ev)
	}

	// A sign-in that changes nothing records nothing; without the claim
	// (the provider's scope dropped) the memberships stay.
	signIn()
	x.Scopes = slices.DeleteFunc(x.Scopes, func(s string) bool { return s == "custom_scope" })
	if err := ti.st.UpdateExternalIDP(ctx, x); err != nil {
		t.Fatal(err)
	}
	signIn()
	if got := groupsOf(user); !slices.Equal(got, []string{"g-crew", "g-manual"}) {
		t.Errorf("groups after sign-ins without a change = %v", got)
	}
	if ev := ti.events(audit.GroupsSynced, everyone); len(ev) != 2 {
		t.Errorf("%d groups.synced events, want 2 (nothing changed since)", len(ev))
	}
}

// claimValues reads a string, a list of strings or a nested claim, and
// nothing of another shape.
func TestClaimValues(t *testing.T) {
	t.Parallel()
	claims := map[string]any{"groups": []any{"a", 1, "b"}, "one": "x", "realm": map[string]any{"roles": []any{"r"}}, "n": 3.0}
	for path, want := range map[string][]string{"groups": {"a", "b"}, "one": {"x"}, "realm.roles": {"r"}} {
		if got, ok := claimValues(claims, path); !ok || !slices.Equal(got, want) {
			t.Errorf("%s = %v %v, want %v", path, got, ok, want)
		}
	}
	for _, path := range []string{"n", "missing", "one.deeper", "realm.missing"} {
		if got, ok := claimValues(claims, path); ok {
			t.Errorf("%s = %v, want not found", path, got)
		}
	}
}
