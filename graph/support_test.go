package graph_test

import (
	"slices"
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
)

// The support tools over GraphQL (D-support-tools) run the service methods
// of the REST routes with the same decisions: a user's status and second
// factors, its sessions and signing out of them, the second factor reset;
// a viewer is refused (FORBIDDEN), another customer's owner finds nothing
// (NOT_FOUND), the owner of the user's customer acts, the reader reads the
// sessions and acts on nothing.
//
// spec: D-support-tools
func TestSupportToolsGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	for _, sid := range []string{"sid-member-1", "sid-member-2"} {
		if err := e.st.CreateSession(ctx, &store.Session{IDHash: "h-" + sid, SID: sid, UserID: memberA, AuthTime: now, AMR: []string{"pwd", "otp", "mfa"},
			CreatedAt: now, ExpiresAt: now.Add(time.Hour), UserAgent: "Mozilla/5.0 Firefox/128.0", Address: "192.0.2.44"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.st.PutTOTP(ctx, &store.TOTPFactor{UserID: memberA, SecretSealed: []byte("sealed"), CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if ok, err := e.st.UseTOTPStep(ctx, memberA, 1); err != nil || !ok {
		t.Fatal(ok, err)
	}
	until := now.Add(time.Hour)
	for range 2 {
		if _, err := e.st.RecordLoginFailure(ctx, memberA, 2, until); err != nil {
			t.Fatal(err)
		}
	}
	const user = `query($id: ID!) { user(id: $id) { status lockedUntil failedSignIns authenticatorApp passkeys } }`
	r := e.gql(ownerA, user, map[string]any{"id": memberA})
	if len(r.Errors) > 0 || dig(r.Data, "user", "status") != "locked" || dig(r.Data, "user", "failedSignIns") != 2.0 ||
		dig(r.Data, "user", "authenticatorApp") != true || dig(r.Data, "user", "lockedUntil") == nil {
		t.Fatalf("user: %s", r.Raw)
	}

	const sessions = `query($id: ID!) { userSessions(id: $id, first: 1) { items { id userAgent address signedInAt lastSeenAt expiresAt methods } nextCursor } }`
	for _, who := range []string{ownerA, readerU} {
		r := e.gql(who, sessions, map[string]any{"id": memberA})
		items, _ := dig(r.Data, "userSessions", "items").([]any)
		if len(r.Errors) > 0 || len(items) != 1 || dig(r.Data, "userSessions", "nextCursor") == nil ||
			items[0].(map[string]any)["address"] != "192.0.2.44" {
			t.Fatalf("sessions as %s: %s", who, r.Raw)
		}
	}
	for who, code := range map[string]string{viewerA: "FORBIDDEN", ownerG: "NOT_FOUND"} {
		if r := e.gql(who, sessions, map[string]any{"id": memberA}); !slices.Equal(r.codes(), []string{code}) {
			t.Errorf("sessions as %s: %v %s", who, r.codes(), r.Raw)
		}
	}

	writes := []struct{ query, field string }{
		{`mutation($id: ID!) { endUserSession(id: $id, sessionId: "sid-member-1") }`, "endUserSession"},
		{`mutation($id: ID!) { unlockUser(id: $id) { status failedSignIns } }`, "unlockUser"},
		{`mutation($id: ID!) { resetSecondFactor(id: $id) { authenticatorApp passkeys } }`, "resetSecondFactor"},
		{`mutation($id: ID!) { endUserSessions(id: $id) }`, "endUserSessions"},
	}
	for _, w := range writes {
		for who, code := range map[string]string{viewerA: "FORBIDDEN", readerU: "FORBIDDEN", ownerG: "NOT_FOUND"} {
			if r := e.gql(who, w.query, map[string]any{"id": memberA}); !slices.Equal(r.codes(), []string{code}) {
				t.Errorf("%s as %s: %v %s", w.field, who, r.codes(), r.Raw)
			}
		}
	}
	if r := e.gql(ownerA, user, map[string]any{"id": memberA}); dig(r.Data, "user", "status") != "locked" {
		t.Fatalf("refused writes changed the user: %s", r.Raw)
	}
	for _, w := range writes {
		if r := e.gql(ownerA, w.query, map[string]any{"id": memberA}); len(r.Errors) > 0 {
			t.Fatalf("%s as the owner: %s", w.field, r.Raw)
		}
	}
	r = e.gql(ownerA, user, map[string]any{"id": memberA})
	if dig(r.Data, "user", "status") != "active" || dig(r.Data, "user", "authenticatorApp") != false || dig(r.Data, "user", "failedSignIns") != 0.0 {
		t.Fatalf("after the tools: %s", r.Raw)
	}
	if r := e.gql(ownerA, sessions, map[string]any{"id": memberA}); len(dig(r.Data, "userSessions", "items").([]any)) != 0 {
		t.Fatalf("sessions after signing out: %s", r.Raw)
	}
	// an internal user's, platform_admin's alone
	const internal = `mutation($id: ID!) { endInternalUserSessions(id: $id) }`
	if r := e.gql(acctMgr, internal, map[string]any{"id": readerU}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Errorf("internal sign-out by an account manager: %v %s", r.codes(), r.Raw)
	}
	if r := e.gql(platAdm, `query($id: ID!) { internalUser(id: $id) { status } internalUserSessions(id: $id) { items { id } } }`,
		map[string]any{"id": readerU}); len(r.Errors) > 0 || dig(r.Data, "internalUser", "status") != "active" {
		t.Errorf("internal user as platform_admin: %s", r.Raw)
	}
}
