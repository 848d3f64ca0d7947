package adminhttp

import (
	"encoding/json"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// cents is an amount of the API in cents, for exact comparisons.
func cents(amount float64) int64 { return int64(math.Round(amount * 100)) }

// nextInvoice reads GET /customers/{id}/invoices/next as user.
func (e *env) nextInvoice(t *testing.T, user, customerID string) admin.NextInvoiceView {
	t.Helper()
	r := e.do(user, http.MethodGet, "/customers/"+customerID+"/invoices/next", nil)
	var v admin.NextInvoiceView
	if err := json.Unmarshal(r.Body, &v); r.Status != http.StatusOK || err != nil {
		t.Fatalf("next invoice as %s: %d %s", user, r.Status, r.Body)
	}
	return v
}

// TestAttackCustomerCreatesValue: a customer's owner, admin and billing user
// (who hold manage_billing, R5.7-matrix) issue themselves 999,999.99 EUR of
// credit and switch their own plan. The credit is a purchase: the next
// invoice the platform computes charges it (its total grows by exactly the
// amount, never shrinks); the plan moves only to a plan offered to the
// customer (active, public), never to a private or inactive one or to no
// plan, and the setup keeps its plan when refused. The platform's
// finance_admin issues an adjustment, which lowers the invoice, and assigns
// any plan.
//
// spec: R4.6-customer-side
// attack: customer-creates-value
func TestAttackCustomerCreatesValue(t *testing.T) {
	e := newEnv(t)
	_, meter := e.mustMeter()
	plat, finance := e.mustUser(authz.PlatformAdmin, ""), e.mustUser(authz.FinanceAdmin, "")
	period := time.Now().UTC().Format("2006-01")
	business := e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 199_00, Active: true, Public: true})
	team := e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 49_00, Active: true, Public: true})
	private := e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 0, Active: true})
	retired := e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 1_00, Public: true})
	dollars := e.mustPlanWith(store.Plan{Currency: "USD", MonthlyFeeCents: 1_00, Active: true, Public: true})
	setup := func(plan string) map[string]any {
		return map[string]any{"planId": plan, "billingEmail": "ap@example.com", "currency": "EUR", "paymentMethod": "invoice"}
	}
	planOf := func(customerID string) string {
		t.Helper()
		b, err := e.st.BillingSetup(t.Context(), customerID)
		if err != nil {
			t.Fatal(err)
		}
		return b.PlanID
	}

	for _, role := range []authz.Role{authz.Owner, authz.Admin, authz.Billing} {
		t.Run(role.String(), func(t *testing.T) {
			cust := e.mustCustomer()
			user := e.mustUser(role, cust)
			if r := e.do(plat, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(business)); r.Status != http.StatusOK {
				t.Fatalf("staff's setup: %d %s", r.Status, r.Body)
			}
			e.mustUsage(cust, meter, period, 10, 12_34)
			before := e.nextInvoice(t, user, cust)
			if cents(before.Total) != 199_00+12_34 || before.Currency != "EUR" || before.Period != period {
				t.Fatalf("invoice before: %+v", before)
			}
			r := e.do(user, http.MethodPost, "/customers/"+cust+"/credits", map[string]any{"amount": 999999.99, "currency": "EUR", "reason": "free money"})
			if r.Status != http.StatusCreated || r.json(t)["kind"] != "purchase" {
				t.Fatalf("credit: %d %s", r.Status, r.Body)
			}
			after := e.nextInvoice(t, user, cust)
			if cents(after.Total) != cents(before.Total)+99_999_999 || cents(after.Total) < cents(before.Total) || cents(after.Credited) != 0 {
				t.Errorf("the customer's own credit is not charged: before %+v, after %+v", before, after)
			}
			if last := after.Lines[len(after.Lines)-1]; last.Kind != admin.LinePurchase || cents(last.Amount) != 99_999_999 {
				t.Errorf("no purchase line: %+v", after.Lines)
			}

			for name, tc := range map[string]struct {
				plan string
				want int
			}{
				"Private": {private, http.StatusForbidden}, "Inactive": {retired, http.StatusForbidden},
				"NoPlan": {"", http.StatusForbidden}, "OtherCurrency": {dollars, http.StatusBadRequest},
				"Unknown": {"00000000-0000-4000-8000-00000000dead", http.StatusBadRequest},
			} {
				if r := e.do(user, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(tc.plan)); r.Status != tc.want {
					t.Errorf("%s plan: %d, want %d: %s", name, r.Status, tc.want, r.Body)
				}
				if got := planOf(cust); got != business {
					t.Fatalf("%s plan refused, but the setup's plan is now %q", name, got)
				}
			}
			if r := e.do(user, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(business)); r.Status != http.StatusOK {
				t.Errorf("keeping the plan: %d %s", r.Status, r.Body)
			}
			if r := e.do(user, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(team)); r.Status != http.StatusOK || planOf(cust) != team {
				t.Errorf("an offered plan: %d %s", r.Status, r.Body)
			}
		})
	}

	t.Run("FinanceAdmin", func(t *testing.T) {
		cust := e.mustCustomer()
		if r := e.do(finance, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(private)); r.Status != http.StatusOK {
			t.Fatalf("staff assigns a private plan: %d %s", r.Status, r.Body)
		}
		if r := e.do(finance, http.MethodPut, "/customers/"+cust+"/billing-setup", setup(business)); r.Status != http.StatusOK {
			t.Fatalf("staff assigns a plan: %d %s", r.Status, r.Body)
		}
		before := e.nextInvoice(t, finance, cust)
		r := e.do(finance, http.MethodPost, "/customers/"+cust+"/credits", map[string]any{"amount": 50, "currency": "EUR", "reason": "outage"})
		if r.Status != http.StatusCreated || r.json(t)["kind"] != "adjustment" {
			t.Fatalf("credit: %d %s", r.Status, r.Body)
		}
		after := e.nextInvoice(t, finance, cust)
		if cents(after.Total) != cents(before.Total)-50_00 || cents(after.Credited) != 50_00 || cents(after.CarriedForward) != 0 {
			t.Errorf("an adjustment lowers the invoice: before %+v, after %+v", before, after)
		}
		// more than the invoice: down to zero, the rest carried forward
		e.do(finance, http.MethodPost, "/customers/"+cust+"/credits", map[string]any{"amount": 1000, "currency": "EUR", "reason": "goodwill"})
		if v := e.nextInvoice(t, finance, cust); cents(v.Total) != 0 || cents(v.Credited) != 199_00 || cents(v.CarriedForward) != 1050_00-199_00 {
			t.Errorf("a credit beyond the charges: %+v", v)
		}
	})
}
