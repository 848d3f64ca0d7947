package graph_test

import (
	"slices"
	"strings"
	"testing"
)

// Resending and revoking an invitation, and unlocking, through GraphQL run
// the same service methods as REST: a customer's owner invites, resends and
// revokes; a viewer may not unlock (FORBIDDEN), the owner may.
func TestInvitationMutations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.gql(ownerA, `mutation($c: ID!) { inviteUser(customerId: $c, input: {email: "gina@example.com", name: "Gina", role: "viewer"}) { id status } }`,
		map[string]any{"c": custAcme})
	if len(r.Errors) > 0 {
		t.Fatalf("invite: %s", r.Raw)
	}
	id := dig(r.Data, "inviteUser", "id").(string)
	if r := e.gql(ownerA, `mutation($id: ID!) { resendInvitation(id: $id) { id status } }`, map[string]any{"id": id}); len(r.Errors) > 0 ||
		dig(r.Data, "resendInvitation", "status") != "invited" {
		t.Fatalf("resend: %s", r.Raw)
	}
	// revoking removes the pending account
	if r := e.gql(ownerA, `mutation($id: ID!) { revokeInvitation(id: $id) }`, map[string]any{"id": id}); len(r.Errors) > 0 ||
		dig(r.Data, "revokeInvitation") != true {
		t.Fatalf("revoke: %s", r.Raw)
	}
	if r := e.gql(ownerA, `query($id: ID!) { user(id: $id) { id } }`, map[string]any{"id": id}); !slices.Equal(r.codes(), []string{"NOT_FOUND"}) {
		t.Fatalf("the revoked user: %v %s", r.codes(), r.Raw)
	}
	// an accepted invitation cannot be resent
	r = e.gql(ownerA, `mutation($id: ID!) { resendInvitation(id: $id) { id } }`, map[string]any{"id": viewerA})
	if !slices.Equal(r.codes(), []string{"BAD_USER_INPUT"}) && !slices.Equal(r.codes(), []string{"INVALID"}) {
		t.Fatalf("resend to an active user: %v %s", r.codes(), r.Raw)
	}
	const unlock = `mutation($id: ID!) { unlockUser(id: $id) { id } }`
	if r := e.gql(viewerA, unlock, map[string]any{"id": memberA}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
		t.Fatalf("viewer unlocking: %v %s", r.codes(), r.Raw)
	}
	if r := e.gql(ownerA, unlock, map[string]any{"id": memberA}); len(r.Errors) > 0 {
		t.Fatalf("owner unlocking: %s", r.Raw)
	}
}

// The same for internal users: platform_admin resends, unlocks and revokes
// an internal user's invitation; an account manager may not.
func TestInternalInvitationMutations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.gql(platAdm, `mutation { createInternalUser(input: {email: "ivy@platform.example", name: "Ivy", role: "reader"}) { id } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("create: %s", r.Raw)
	}
	id := dig(r.Data, "createInternalUser", "id").(string)
	for _, m := range []string{"resendInternalInvitation", "unlockInternalUser", "revokeInternalInvitation"} {
		q := `mutation($id: ID!) { ` + m + `(id: $id) { id email status } }`
		if m == "revokeInternalInvitation" {
			q = `mutation($id: ID!) { ` + m + `(id: $id) }`
		}
		if r := e.gql(acctMgr, q, map[string]any{"id": id}); !slices.Equal(r.codes(), []string{"FORBIDDEN"}) {
			t.Fatalf("%s by an account manager: %v %s", m, r.codes(), r.Raw)
		}
		r := e.gql(platAdm, q, map[string]any{"id": id})
		if len(r.Errors) > 0 || (m != "revokeInternalInvitation" && (dig(r.Data, m, "email") != "ivy@platform.example" ||
			dig(r.Data, m, "status") != "invited")) {
			t.Fatalf("%s: %s", m, r.Raw)
		}
	}
	if r := e.gql(platAdm, `query($id: ID!) { internalUser(id: $id) { id } }`, map[string]any{"id": id}); !slices.Equal(r.codes(), []string{"NOT_FOUND"}) {
		t.Fatalf("the revoked internal user: %v %s", r.codes(), r.Raw)
	}
}

// An invitation is sent again at most five times an hour per user, customer
// or internal: the sixth resend is RATE_LIMITED and queues no message, so a
// script or a stolen console token cannot flood someone's inbox from the
// platform's mail server. Another user's invitations keep their own count.
//
// attack: invitation-resend-flood
func TestAttackInvitationResendFlood(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	invite := func(email string) string {
		r := e.gql(ownerA, `mutation($c: ID!, $e: String!) { inviteUser(customerId: $c, input: {email: $e, name: "Gina", role: "viewer"}) { id } }`,
			map[string]any{"c": custAcme, "e": email})
		if len(r.Errors) > 0 {
			t.Fatalf("invite: %s", r.Raw)
		}
		return dig(r.Data, "inviteUser", "id").(string)
	}
	messages := func(to string) int {
		all, err := e.st.Mailbox(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range all {
			if m.Recipient == to {
				n++
			}
		}
		return n
	}
	r := e.gql(platAdm, `mutation { createInternalUser(input: {email: "ivy@platform.example", name: "Ivy", role: "reader"}) { id } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("create: %s", r.Raw)
	}
	for _, c := range []struct {
		caller, id, to, mutation string
	}{
		{ownerA, invite("gina@example.com"), "gina@example.com", "resendInvitation"},
		{platAdm, dig(r.Data, "createInternalUser", "id").(string), "ivy@platform.example", "resendInternalInvitation"},
	} {
		q := `mutation($id: ID!) { ` + c.mutation + `(id: $id) { id } }`
		for i := 0; i < 5; i++ {
			if r := e.gql(c.caller, q, map[string]any{"id": c.id}); len(r.Errors) > 0 {
				t.Fatalf("%s %d: %s", c.mutation, i+1, r.Raw)
			}
		}
		before := messages(c.to)
		r := e.gql(c.caller, q, map[string]any{"id": c.id})
		r.expect(t, []string{"RATE_LIMITED"}, nil, []any{c.mutation})
		if !strings.Contains(string(r.Raw), "5 times this hour") {
			t.Fatalf("the refusal does not say why: %s", r.Raw)
		}
		if n := messages(c.to); n != before {
			t.Fatalf("%s past the limit queued %d messages", c.mutation, n-before)
		}
	}
	other := invite("hal@example.com")
	if r := e.gql(ownerA, `mutation($id: ID!) { resendInvitation(id: $id) { id } }`, map[string]any{"id": other}); len(r.Errors) > 0 {
		t.Fatalf("another user's resend: %s", r.Raw)
	}
}
