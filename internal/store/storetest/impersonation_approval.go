package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testImpersonationApproval: a customer's approver round-trips; a request
// awaiting approval is decided once, by its approver only, before it
// lapses; a denial ends it; an approved one's subject token is issued once,
// to its actor only, and only then exchanged (D-impersonation-approval).
func testImpersonationApproval(t *testing.T, st *store.Store) {
	mustOrg(t, st, "org-ia")
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: "cust-ia", Name: "Imp approval", OrgID: "org-ia", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	mustUser(t, st, "u-ia", "org-ia", "u@ia.example")
	mustUser(t, st, "appr-ia", "org-ia", "approver@ia.example")
	mustOrg(t, st, "org-ia-admin")
	mustUser(t, st, "actor-ia", "org-ia-admin", "actor@ia.example")
	if err := st.SetCustomerImpersonation(ctx, "cust-ia", true, "owner", ts); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCustomerImpersonationApprover(ctx, "cust-ia", "appr-ia"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.CustomerImpersonationApprover(ctx, "cust-ia"); err != nil || got != "appr-ia" {
		t.Fatalf("approver = %q, %v", got, err)
	}
	wantCode(t, st.SetCustomerImpersonationApprover(ctx, "missing", "x"), platform.ENOTFOUND)
	request := func(id string) {
		t.Helper()
		if err := st.CreateImpersonation(ctx, &store.Impersonation{ID: id, CustomerID: "cust-ia", UserID: "u-ia", ActorID: "actor-ia",
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
	_, err = st.ExchangeImpersonation(ctx, store.PendingTokenHash("ia-1"), "actor-ia", ts, ts.Add(time.Hour))
	wantCode(t, err, platform.ENOTFOUND)
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-ia", "h-ia-1", ts, ts.Add(time.Minute)), platform.ENOTFOUND)
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
	if err := st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-ia", "h-ia-1", ts.Add(2*time.Minute), ts.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-1", "actor-ia", "h-ia-2", ts.Add(2*time.Minute), ts.Add(3*time.Minute)), platform.ENOTFOUND)
	if m, err := st.ExchangeImpersonation(ctx, "h-ia-1", "actor-ia", ts.Add(2*time.Minute), ts.Add(time.Hour)); err != nil || m.ID != "ia-1" {
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
	wantCode(t, st.IssueApprovedImpersonationToken(ctx, "ia-2", "actor-ia", "h-ia-3", ts.Add(2*time.Minute), ts.Add(3*time.Minute)), platform.ENOTFOUND)
}
