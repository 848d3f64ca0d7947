package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/platform"
)

// requireApproval makes approverID (an owner or admin of Acme) the approver
// of Acme's impersonations, through the policy Alice (the owner) sets.
func (w *impersonationWorld) requireApproval(t *testing.T, approverID string) {
	t.Helper()
	if code, body := adminCall(t, w.m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy",
		map[string]any{"allowed": true, "approverId": approverID}); code != http.StatusOK || body["approvalRequired"] != (approverID != "") {
		t.Fatalf("policy with approver %q: %d %v", approverID, code, body)
	}
}

// request starts an impersonation of userID by the caller of token while
// approval is required: it answers the request's id, which has no subject
// token yet.
func (w *impersonationWorld) request(t *testing.T, token, userID string) string {
	t.Helper()
	_, start := w.start(t, token, userID)
	if start["approval"] != "pending" || start["subjectToken"] != "" || start["approverEmail"] != "alice@acme.example" ||
		start["expiresIn"] != float64(15*60) {
		t.Fatalf("a start awaiting approval: %v", start)
	}
	return start["id"].(string)
}

// stateOf answers the state of impersonation id as the caller of token reads it.
func (w *impersonationWorld) stateOf(t *testing.T, token, id string) string {
	t.Helper()
	code, body := adminCall(t, w.m, token, "GET", "/impersonations/"+id, nil)
	if code != http.StatusOK {
		t.Fatalf("GET /impersonations/%s: %d %v", id, code, body)
	}
	return body["state"].(string)
}

// A customer that names an approver: a support user's start waits for it
// (no subject token), the support user and the customer see it awaiting
// approval; the approver approves it through GraphQL, the support user
// collects the one-time subject token once and exchanges it as without an
// approver; a denied request ends and gives no token. The policy's
// approver must be an active owner or admin of the customer. Every step is
// in the customer's audit log.
// spec: D-impersonation-approval
func TestImpersonationApproval(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	m := w.m
	for name, id := range map[string]string{"a member": demoBobID, "an internal user": demoAdminID, "not an id": "nobody",
		"unknown": uuid.NewString()} {
		if code, body := adminCall(t, m, w.alice, "PUT", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy",
			map[string]any{"allowed": true, "approverId": id}); code != http.StatusBadRequest {
			t.Fatalf("%s as approver: %d %v, want 400", name, code, body)
		}
	}
	w.requireApproval(t, demoAliceID)
	if code, p := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonation-policy", nil); code != http.StatusOK ||
		p["approverId"] != demoAliceID || p["approvalRequired"] != true || p["allowed"] != true {
		t.Fatalf("the policy read back: %d %v", code, p)
	}

	id := w.request(t, w.admin, demoBobID)
	if s := w.stateOf(t, w.admin, id); s != "awaiting_approval" {
		t.Fatalf("the support user reads %q, want awaiting_approval", s)
	}
	_, list := adminCall(t, m, w.alice, "GET", "/customers/"+DemoAcmeCustomerID+"/impersonations", nil)
	if it := list["items"].([]any)[0].(map[string]any); it["state"] != "awaiting_approval" || it["approval"] != "pending" ||
		it["approverEmail"] != "alice@acme.example" {
		t.Fatalf("the customer's list: %v", it)
	}
	a := consoleGraphQL(t, m, w.alice, `mutation($id: ID!) { approveImpersonation(id: $id) { state approval decidedAt } }`,
		map[string]any{"id": id})
	if code, msg := gqlCode(a); code != "" {
		t.Fatalf("approve through GraphQL: %s %s", code, msg)
	}
	if got := a.body["data"].(map[string]any)["approveImpersonation"].(map[string]any); got["state"] != "approved" ||
		got["approval"] != "approved" || got["decidedAt"] == nil {
		t.Fatalf("approved: %v", got)
	}
	code, tok := adminCall(t, m, w.admin, "POST", "/impersonations/"+id+"/subject-token", nil)
	subject, _ := tok["subjectToken"].(string)
	if code != http.StatusCreated || subject == "" || tok["expiresIn"] != float64(60) {
		t.Fatalf("collect: %d %v", code, tok)
	}
	if code, again := adminCall(t, m, w.admin, "POST", "/impersonations/"+id+"/subject-token", nil); code != http.StatusConflict {
		t.Fatalf("a second collection: %d %v, want 409", code, again)
	}
	ans := w.exchange(t, subject, w.admin)
	act, _ := jwtClaims(t, ans.accessToken())["act"].(map[string]any)
	if ans.status != http.StatusOK || act["sub"] != demoAdminID {
		t.Fatalf("the exchange after approval: %d %v", ans.status, ans.body)
	}
	if s := w.stateOf(t, w.alice, id); s != "active" {
		t.Fatalf("after the exchange: %q, want active", s)
	}

	// denied: it ends, and there is nothing to collect
	denied := w.request(t, w.admin, demoBobID)
	if code, body := adminCall(t, m, w.alice, "POST", "/impersonations/"+denied+"/deny", nil); code != http.StatusOK ||
		body["state"] != "denied" || body["endedBy"] != demoAliceID {
		t.Fatalf("deny: %d %v", code, body)
	}
	if code, body := adminCall(t, m, w.admin, "POST", "/impersonations/"+denied+"/subject-token", nil); code != http.StatusConflict {
		t.Fatalf("collect after a denial: %d %v, want 409", code, body)
	}
	if code, body := adminCall(t, m, w.alice, "POST", "/impersonations/"+denied+"/approve", nil); code != http.StatusConflict {
		t.Fatalf("approve after a denial: %d %v, want 409", code, body)
	}

	// the approver's decisions and the collection are in the customer's audit log
	_, log := adminCall(t, m, w.alice, "GET", "/audit-log?limit=50", nil)
	seen := map[string]bool{}
	for _, e := range log["items"].([]any) {
		ev := e.(map[string]any)
		op, _ := ev["operation"].(string)
		seen[op] = true
	}
	for _, op := range []string{"user.impersonate", "impersonation.approve", "impersonation.deny", "impersonation.token",
		"impersonation.policy_put"} {
		if !seen[op] {
			t.Errorf("the customer's audit log lacks %s: %v", op, seen)
		}
	}
}

// An unanswered request lapses: once its fifteen minutes are over it
// reads expired, and neither an approval nor a collection revives it.
// attack: impersonation-approval-lapsed
func TestAttackImpersonationApprovalLapsed(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	w.requireApproval(t, demoAliceID)
	id := w.request(t, w.admin, demoBobID)
	lapse := func() {
		t.Helper()
		past := time.Now().Add(-time.Second).UTC()
		if _, err := w.m.Store.Conn().Exec(context.Background(),
			`UPDATE impersonations SET token_expires_at = $1, expires_at = $1 WHERE id = $2`, past, id); err != nil {
			t.Fatal(err)
		}
	}
	lapse()
	if s := w.stateOf(t, w.alice, id); s != "expired" {
		t.Fatalf("a lapsed request reads %q, want expired", s)
	}
	if code, body := adminCall(t, w.m, w.alice, "POST", "/impersonations/"+id+"/approve", nil); code != http.StatusConflict {
		t.Fatalf("approving a lapsed request: %d %v, want 409", code, body)
	}
	// approved in time, but not collected in time
	id = w.request(t, w.admin, demoBobID)
	if code, body := adminCall(t, w.m, w.alice, "POST", "/impersonations/"+id+"/approve", nil); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, body)
	}
	lapse()
	if code, body := adminCall(t, w.m, w.admin, "POST", "/impersonations/"+id+"/subject-token", nil); code != http.StatusConflict {
		t.Fatalf("collecting after the approval lapsed: %d %v, want 409", code, body)
	}
}

// The support user cannot act before the approval: its start answers no
// subject token, collecting one is refused, and nothing it can present
// (no token, the request's id) is exchanged; the request is still the
// approver's to decide afterwards.
// attack: impersonation-before-approval
func TestAttackImpersonationBeforeApproval(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	w.requireApproval(t, demoAliceID)
	id := w.request(t, w.admin, demoBobID)
	if code, body := adminCall(t, w.m, w.admin, "POST", "/impersonations/"+id+"/subject-token", nil); code != http.StatusConflict {
		t.Fatalf("collecting before the approval: %d %v, want 409", code, body)
	}
	for name, subject := range map[string]string{"empty": "", "the request's id": id, "the pending marker": "pending:" + id} {
		if a := w.exchange(t, subject, w.admin); a.status == http.StatusOK {
			t.Fatalf("%s exchanged before the approval: %v", name, a.body)
		}
	}
	if s := w.stateOf(t, w.admin, id); s != "awaiting_approval" {
		t.Fatalf("after the attempts: %q, want awaiting_approval", s)
	}
	// the same through GraphQL
	a := consoleGraphQL(t, w.m, w.admin, `mutation($id: ID!) { impersonationSubjectToken(id: $id) { subjectToken } }`,
		map[string]any{"id": id})
	if code, _ := gqlCode(a); code != "CONFLICT" {
		t.Fatalf("collecting through GraphQL before the approval: %v", a.body)
	}
}

// Nobody but the named approver, acting as itself, decides: not the
// support user who asked (its own request), not another admin of the
// customer, not the approver of another customer, not support acting as
// the approver through an impersonation of the approver; each refusal
// leaves the request awaiting approval.
// attack: impersonation-approval-by-others
func TestAttackImpersonationApprovalByOthers(t *testing.T) {
	t.Parallel()
	w := newImpersonationWorld(t, true)
	m := w.m
	ctx := context.Background()
	now := time.Now().UTC()
	// another admin of Acme, who is not the approver
	erin := uuid.NewString()
	mustConsoleUser(t, m, erin, DemoAcmeOrgID, "erin@acme.example", "Erin Admin", "admin", DemoAcmeCustomerID)
	erinTok, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "erin@acme.example")
	// another customer whose owner is its approver
	org, cust, olga := uuid.NewString(), uuid.NewString(), uuid.NewString()
	if err := m.Store.CreateOrganization(ctx, &platform.Organization{ID: org, Name: "Umbrella", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := m.Store.CreateCustomer(ctx, &platform.Customer{ID: cust, Name: "Umbrella " + cust[:8], OrgID: org, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	mustConsoleUser(t, m, olga, org, "olga@umbrella.example", "Olga Owner", "owner", cust)
	olgaTok, _ := demoLogin(t, m, m.Config.ConsoleClientID, m.Config.ConsoleURL+"/callback", "olga@umbrella.example")
	if code, body := adminCall(t, m, olgaTok.AccessToken, "PUT", "/customers/"+cust+"/impersonation-policy",
		map[string]any{"allowed": true, "approverId": olga}); code != http.StatusOK {
		t.Fatalf("the other customer's policy: %d %v", code, body)
	}

	w.requireApproval(t, demoAliceID)
	id := w.request(t, w.admin, demoBobID)
	for _, tc := range []struct{ who, token string }{
		{"the support user who asked", w.admin},
		{"another admin of the customer", erinTok.AccessToken},
		{"the approver of another customer", olgaTok.AccessToken},
	} {
		for _, verb := range []string{"approve", "deny"} {
			if code, body := adminCall(t, m, tc.token, "POST", "/impersonations/"+id+"/"+verb, nil); code != http.StatusForbidden &&
				code != http.StatusNotFound {
				t.Fatalf("%s may %s: %d %v", tc.who, verb, code, body)
			}
		}
		a := consoleGraphQL(t, m, tc.token, `mutation($id: ID!) { approveImpersonation(id: $id) { state } }`, map[string]any{"id": id})
		if code, _ := gqlCode(a); code != "FORBIDDEN" && code != "NOT_FOUND" {
			t.Fatalf("%s approves through GraphQL: %v", tc.who, a.body)
		}
	}
	if s := w.stateOf(t, w.admin, id); s != "awaiting_approval" {
		t.Fatalf("after the refusals: %q, want awaiting_approval", s)
	}

	// support acting as the approver: Alice approves an impersonation of
	// herself; with its token, support tries to approve its other request
	self := w.request(t, w.admin, demoAliceID)
	if code, body := adminCall(t, m, w.alice, "POST", "/impersonations/"+self+"/approve", nil); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, body)
	}
	_, tok := adminCall(t, m, w.admin, "POST", "/impersonations/"+self+"/subject-token", nil)
	asAlice := w.exchange(t, tok["subjectToken"].(string), w.admin)
	if asAlice.status != http.StatusOK {
		t.Fatalf("exchange: %d %v", asAlice.status, asAlice.body)
	}
	if code, body := adminCall(t, m, asAlice.accessToken(), "POST", "/impersonations/"+id+"/approve", nil); code != http.StatusForbidden {
		t.Fatalf("support acting as the approver approves: %d %v", code, body)
	}
	if s := w.stateOf(t, w.admin, id); s != "awaiting_approval" {
		t.Fatalf("after support acting as the approver: %q, want awaiting_approval", s)
	}
}
