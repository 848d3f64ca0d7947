package graph_test

import (
	"math"
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
)

// TestAttackCustomerCreatesValueGraphQL: the same as REST (the rule is the
// admin service's): the customer's owner and billing user issue themselves
// a credit with issueCredit, and nextInvoice charges it; putBillingSetup
// refuses a private or inactive plan or none (FORBIDDEN) and the setup
// keeps its plan; an offered plan is taken. finance_admin's credit is an
// adjustment, which lowers nextInvoice.
//
// attack: customer-creates-value-graphql
func TestAttackCustomerCreatesValueGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	for _, p := range []store.Plan{
		{ID: "plan-business", Code: "business", Currency: "EUR", MonthlyFeeCents: 199_00, Active: true, Public: true},
		{ID: "plan-team", Code: "team", Currency: "EUR", MonthlyFeeCents: 49_00, Active: true, Public: true},
		{ID: "plan-partner", Code: "partner", Currency: "EUR", Active: true},
		{ID: "plan-retired", Code: "retired", Currency: "EUR", MonthlyFeeCents: 1_00, Public: true},
	} {
		p.Name, p.CreatedAt, p.UpdatedAt = p.Code, now, now
		if err := e.st.CreatePlan(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	const (
		put    = `mutation($plan: ID) { putBillingSetup(customerId: "cust-acme", input: {planId: $plan, billingEmail: "ap@acme.example", currency: "EUR", paymentMethod: "invoice"}) { planId } }`
		credit = `mutation($amount: Float!) { issueCredit(customerId: "cust-acme", input: {amount: $amount, currency: "EUR", reason: "free money"}) { kind amount } }`
		next   = `{ customer(id: "cust-acme") { nextInvoice { currency total credited lines { kind amount } } } }`
	)
	total := func(user string) int64 {
		t.Helper()
		r := e.gql(user, next, nil)
		v, ok := dig(r.Data, "customer", "nextInvoice", "total").(float64)
		if len(r.Errors) > 0 || !ok {
			t.Fatalf("nextInvoice as %s: %s", user, r.Raw)
		}
		return int64(math.Round(v * 100))
	}
	if r := e.gql(financeAdm, put, map[string]any{"plan": "plan-business"}); len(r.Errors) > 0 {
		t.Fatalf("staff's setup: %s", r.Raw)
	}
	for _, user := range []string{ownerA, billingA} {
		before := total(user)
		r := e.gql(user, credit, map[string]any{"amount": 999999.99})
		if len(r.Errors) > 0 || dig(r.Data, "issueCredit", "kind") != "purchase" {
			t.Fatalf("%s issueCredit: %s", user, r.Raw)
		}
		if after := total(user); after != before+99_999_999 {
			t.Errorf("%s's own credit: next invoice %d → %d cents, want it charged", user, before, after)
		}
		for _, plan := range []any{"plan-partner", "plan-retired", nil} {
			r := e.gql(user, put, map[string]any{"plan": plan})
			if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" {
				t.Errorf("%s moves to plan %v: %s", user, plan, r.Raw)
			}
			if b, err := e.st.BillingSetup(ctx, custAcme); err != nil || b.PlanID != "plan-business" {
				t.Fatalf("refused, but the setup is %+v %v", b, err)
			}
		}
	}
	if r := e.gql(ownerA, put, map[string]any{"plan": "plan-team"}); len(r.Errors) > 0 || dig(r.Data, "putBillingSetup", "planId") != "plan-team" {
		t.Errorf("an offered plan: %s", r.Raw)
	}
	before := total(financeAdm)
	r := e.gql(financeAdm, credit, map[string]any{"amount": 20})
	if len(r.Errors) > 0 || dig(r.Data, "issueCredit", "kind") != "adjustment" {
		t.Fatalf("finance_admin issueCredit: %s", r.Raw)
	}
	if after := total(financeAdm); after != before-20_00 {
		t.Errorf("finance_admin's credit: next invoice %d → %d cents, want 20.00 less", before, after)
	}
	if r := e.gql(financeAdm, put, map[string]any{"plan": "plan-partner"}); len(r.Errors) > 0 {
		t.Errorf("staff assigns a private plan: %s", r.Raw)
	}
	// viewers do not read invoices; nothing without a billing setup
	if r := e.gql(viewerA, next, nil); len(r.codes()) != 1 || r.codes()[0] != "FORBIDDEN" {
		t.Errorf("viewer reads the next invoice: %s", r.Raw)
	}
	if r := e.gql(ownerG, `{ customer(id: "cust-globex") { nextInvoice { total } } }`, nil); len(r.codes()) != 1 || r.codes()[0] != "NOT_FOUND" {
		t.Errorf("next invoice without a billing setup: %s", r.Raw)
	}
}
