package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testImpersonation: an impersonation's subject token is spent once, by its
// actor only, unexpired, while the customer allows it; ending it revokes its
// grant; the customer's list is newest first; turning the permission off
// ends the running ones (D-impersonation).
func testImpersonation(t *testing.T, st *store.Store) {
	mustImpersonationParties(t, st)
	if ok, err := st.CustomerImpersonation(ctx, "cust-i"); err != nil || ok {
		t.Fatalf("allowed by default: %v %v", ok, err)
	}
	if err := st.SetCustomerImpersonation(ctx, "missing", true, "x", ts); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("a missing customer: %v", err)
	}
	start := func(id string, at time.Time) {
		t.Helper()
		if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: id, CustomerID: "cust-i", UserID: "u-i", ActorID: "actor-i",
			Reason: "r " + id, TokenHash: "h-" + id, CreatedAt: at, TokenExpiresAt: at.Add(time.Minute), ExpiresAt: at.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	start("imp-1", ts)
	if _, err := st.ExchangeImpersonation(ctx, "h-imp-1", "actor-i", "", ts, ts.Add(time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("exchanged while the customer does not allow it: %v", err)
	}
	if err := st.SetCustomerImpersonation(ctx, "cust-i", true, "owner", ts); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ExchangeImpersonation(ctx, "h-imp-1", "someone-else", "", ts, ts.Add(time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("another actor: %v", err)
	}
	if _, err := st.ExchangeImpersonation(ctx, "h-imp-1", "actor-i", "", ts.Add(time.Minute), ts.Add(time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("an expired subject token: %v", err)
	}
	m, err := st.ExchangeImpersonation(ctx, "h-imp-1", "actor-i", "", ts.Add(time.Second), ts.Add(time.Hour))
	if err != nil || m.ID != "imp-1" || m.ExchangedAt == nil || !m.ExpiresAt.Equal(ts.Add(time.Hour)) || m.UserEmail != "u@i.example" ||
		m.ActorEmail != "actor@admin.example" {
		t.Fatalf("exchange: %+v %v", m, err)
	}
	if _, err := st.ExchangeImpersonation(ctx, "h-imp-1", "actor-i", "", ts.Add(2*time.Second), ts.Add(time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("a replay: %v", err)
	}
	if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-i", FamilyID: "imp-1", ClientID: "console", UserID: "u-i",
		CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	ended, err := st.EndImpersonation(ctx, "imp-1", "owner", ts.Add(time.Minute))
	if err != nil || !ended {
		t.Fatalf("end: %v %v", ended, err)
	}
	if g, err := st.TokenGrant(ctx, "imp-1"); err != nil || g.RevokedAt.IsZero() {
		t.Fatalf("the grant after the end: %+v %v", g, err)
	}
	if again, err := st.EndImpersonation(ctx, "imp-1", "owner", ts.Add(time.Minute)); err != nil || again {
		t.Fatalf("ended twice: %v %v", again, err)
	}
	start("imp-2", ts.Add(time.Second))
	if _, err := st.ExchangeImpersonation(ctx, "h-imp-2", "actor-i", "", ts.Add(2*time.Second), ts.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	page, next, err := st.ImpersonationPage(ctx, "cust-i", "", 1)
	if err != nil || len(page) != 1 || page[0].ID != "imp-2" || next == "" {
		t.Fatalf("first page: %+v %q %v", page, next, err)
	}
	if page, _, err = st.ImpersonationPage(ctx, "cust-i", next, 1); err != nil || len(page) != 1 || page[0].ID != "imp-1" ||
		page[0].EndedBy != "owner" || page[0].EndedAt == nil {
		t.Fatalf("second page: %+v %v", page, err)
	}
	if err := st.SetCustomerImpersonation(ctx, "cust-i", false, "owner", ts.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if m, err := st.Impersonation(ctx, "imp-2"); err != nil || m.EndedAt == nil || m.EndedBy != "owner" {
		t.Fatalf("a running one after the customer forbade it: %+v %v", m, err)
	}
}

// testImpersonationApproval: a customer's approver round-trips; a request
// awaiting approval is decided once, by its approver only, before it
// lapses; a denial ends it; an approved one's subject token is issued once,
// to its actor only, and only then exchanged (D-impersonation-approval).
func testImpersonationApproval(t *testing.T, st *store.Store) {
	mustImpersonationParties(t, st)
	mustUser(t, st, "appr-ia", "org-i", "approver@ia.example")
	if err := st.SetCustomerImpersonation(ctx, "cust-i", true, "owner", ts); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCustomerImpersonationApprover(ctx, "cust-i", "appr-ia"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.CustomerImpersonationApprover(ctx, "cust-i"); err != nil || got != "appr-ia" {
		t.Fatalf("approver = %q, %v", got, err)
	}
	wantCode(t, st.SetCustomerImpersonationApprover(ctx, "missing", "x"), platform.ENOTFOUND)
	request := func(id string) {
		t.Helper()
		if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: id, CustomerID: "cust-i", UserID: "u-i", ActorID: "actor-i",
			Reason: "r", TokenHash: store.PendingTokenHash(id), CreatedAt: ts, TokenExpiresAt: ts.Add(15 * time.Minute),
			ExpiresAt: ts.Add(15 * time.Minute), Approval: store.ApprovalPending, ApproverID: "appr-ia"}); err != nil {
			t.Fatal(err)
		}
	}
	request("ia-1")
	got, err := st.Impersonation(ctx, "ia-1")
	if err != nil || got.Approval != store.ApprovalPending || got.ApproverID != "appr-ia" || got.ApproverEmail != "approver@ia.example" ||
		got.DecidedAt != nil {
		t.Fatalf("request = %+v, %v", got, err)
	}
	// nothing is exchanged before the approval, not even by the marker
	_, err = st.ExchangeImpersonation(ctx, store.PendingTokenHash("ia-1"), "actor-i", "", ts, ts.Add(time.Hour))
	wantCode(t, err, platform.ENOTFOUND)
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-i", "h-ia-1", ts, ts.Add(time.Minute)), platform.ENOTFOUND)
	// only its approver, before it lapses
	wantCode(t, st.DecideImpersonation(ctx, "ia-1", "someone", store.ApprovalApproved, ts), platform.ENOTFOUND)
	wantCode(t, st.DecideImpersonation(ctx, "ia-1", "appr-ia", store.ApprovalApproved, ts.Add(15*time.Minute)), platform.ENOTFOUND)
	if err := st.DecideImpersonation(ctx, "ia-1", "appr-ia", store.ApprovalApproved, ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.DecideImpersonation(ctx, "ia-1", "appr-ia", store.ApprovalDenied, ts.Add(time.Minute)), platform.ENOTFOUND)
	if got, err = st.Impersonation(ctx, "ia-1"); err != nil || got.Approval != store.ApprovalApproved || got.DecidedAt == nil ||
		got.EndedAt != nil {
		t.Fatalf("approved = %+v, %v", got, err)
	}
	// the token: to its actor, once
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-1", "someone", "h-ia-1", ts.Add(2*time.Minute), ts.Add(3*time.Minute)), platform.ENOTFOUND)
	if err := st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-i", "h-ia-1", ts.Add(2*time.Minute), ts.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-i", "h-ia-2", ts.Add(2*time.Minute), ts.Add(3*time.Minute)), platform.ENOTFOUND)
	if m, err := st.ExchangeImpersonation(ctx, "h-ia-1", "actor-i", "", ts.Add(2*time.Minute), ts.Add(time.Hour)); err != nil || m.ID != "ia-1" {
		t.Fatalf("exchange after approval = %+v, %v", m, err)
	}
	// a denial ends the request
	request("ia-2")
	if err := st.DecideImpersonation(ctx, "ia-2", "appr-ia", store.ApprovalDenied, ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, err = st.Impersonation(ctx, "ia-2"); err != nil || got.Approval != store.ApprovalDenied || got.EndedAt == nil ||
		got.EndedBy != "appr-ia" {
		t.Fatalf("denied = %+v, %v", got, err)
	}
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-2", "actor-i", "h-ia-3", ts.Add(2*time.Minute), ts.Add(3*time.Minute)), platform.ENOTFOUND)
}

// testImpersonationEndsWithActorGrant: an impersonation ends with the
// support user's grant whose token it was exchanged with (the support
// user's sign-out, D-impersonation): ended by its actor, its own grant and
// tokens revoked; another one, exchanged with another grant, runs on.
func testImpersonationEndsWithActorGrant(t *testing.T, st *store.Store) {
	mustImpersonationParties(t, st)
	if err := st.SetCustomerImpersonation(ctx, "cust-i", true, "owner", ts); err != nil {
		t.Fatal(err)
	}
	// RevokeFamily ends as of the clock's now: the impersonations run past it
	until := time.Now().Add(time.Hour)
	for _, run := range []struct{ id, actorGrant string }{{"imp-a", "g-actor"}, {"imp-b", "g-other"}} {
		if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-" + run.actorGrant, FamilyID: run.actorGrant, ClientID: "console",
			UserID: "actor-i", CreatedAt: ts, ExpiresAt: until}); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: run.id, CustomerID: "cust-i", UserID: "u-i", ActorID: "actor-i",
			Reason: "r", TokenHash: "h-" + run.id, CreatedAt: ts, TokenExpiresAt: ts.Add(time.Minute), ExpiresAt: ts.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ExchangeImpersonation(ctx, "h-"+run.id, "actor-i", run.actorGrant, ts.Add(time.Second), until); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: "at-" + run.id, FamilyID: run.id, ClientID: "instance", UserID: "u-i",
			CreatedAt: ts, ExpiresAt: until}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.RevokeFamily(ctx, "g-actor"); err != nil {
		t.Fatal(err)
	}
	if m, err := st.Impersonation(ctx, "imp-a"); err != nil || m.EndedAt == nil || m.EndedBy != "actor-i" {
		t.Fatalf("the impersonation of the revoked grant: %+v %v", m, err)
	}
	if g, err := st.TokenGrant(ctx, "imp-a"); err != nil || g.RevokedAt.IsZero() {
		t.Fatalf("its grant: %+v %v", g, err)
	}
	if _, err := st.ActiveAccessToken(ctx, "at-imp-a", ts.Add(time.Minute)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("its access token is still active: %v", err)
	}
	if m, err := st.Impersonation(ctx, "imp-b"); err != nil || m.EndedAt != nil {
		t.Fatalf("the other impersonation: %+v %v", m, err)
	}
	if _, err := st.ActiveAccessToken(ctx, "at-imp-b", ts.Add(time.Minute)); err != nil {
		t.Fatalf("the other impersonation's access token: %v", err)
	}
}

// testImpersonationPruning: impersonations over (ended or expired) before
// the retention's start are deleted, oldest first and at most limit a
// pass; a running one and one over since are kept (D-audit-retention).
func testImpersonationPruning(t *testing.T, st *store.Store) {
	mustImpersonationParties(t, st)
	for _, m := range []struct {
		id      string
		expires time.Time
		ended   bool
	}{{"old-expired", ts.Add(time.Hour), false}, {"old-ended", ts.Add(10 * time.Hour), true}, {"recent", ts.Add(30 * time.Hour), false},
		{"running", ts.Add(1000 * time.Hour), false}} {
		if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: m.id, CustomerID: "cust-i", UserID: "u-i", ActorID: "actor-i",
			Reason: "r", TokenHash: "h-" + m.id, CreatedAt: ts, TokenExpiresAt: m.expires, ExpiresAt: m.expires}); err != nil {
			t.Fatal(err)
		}
		if m.ended {
			if _, err := st.EndImpersonation(ctx, m.id, "owner", ts.Add(2*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := ts.Add(24 * time.Hour)
	if n, err := st.PruneImpersonations(ctx, before, 1); err != nil || n != 1 {
		t.Fatalf("first pass: %d %v", n, err)
	}
	if _, err := st.Impersonation(ctx, "old-expired"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("the oldest is still there: %v", err)
	}
	if n, err := st.PruneImpersonations(ctx, before, 100); err != nil || n != 1 {
		t.Fatalf("second pass: %d %v", n, err)
	}
	for id, kept := range map[string]bool{"old-ended": false, "recent": true, "running": true} {
		if _, err := st.Impersonation(ctx, id); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", id, err == nil, kept)
		}
	}
}

// mustImpersonationParties stores the parties of an impersonation: the
// customer cust-i (organization org-i) with its user u-i, and actor-i of the
// administrator organization org-admin.
func mustImpersonationParties(t *testing.T, st *store.Store) {
	t.Helper()
	mustCustomer(t, st, "cust-i", "Imp", "org-i")
	mustUser(t, st, "u-i", "org-i", "u@i.example")
	mustOrg(t, st, "org-admin")
	mustUser(t, st, "actor-i", "org-admin", "actor@admin.example")
}
