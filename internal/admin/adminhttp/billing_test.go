package adminhttp

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// usageBody decodes a usage list answer.
func usageBody(t *testing.T, r response) []admin.Usage {
	t.Helper()
	var p struct{ Items []admin.Usage }
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("usage answer: %v: %s", err, r.Body)
	}
	return p.Items
}

// billingWorld is two customers with usage, and callers of every kind.
type billingWorld struct {
	e           *env
	acme, other string
	meterKey    string
	callers     map[string]string
}

func newBillingWorld(t *testing.T) *billingWorld {
	e := newEnv(t)
	w := &billingWorld{e: e, acme: e.mustCustomer(), other: e.mustCustomer(), callers: map[string]string{}}
	_, w.meterKey = e.mustMeter()
	e.mustUsage(w.acme, w.meterKey, "2026-01", 1200.5, 24010)
	e.mustUsage(w.acme, w.meterKey, "2026-02", 10, 200)
	e.mustUsage(w.other, w.meterKey, "2026-02", 7, 140)
	for _, r := range []authz.Role{authz.Owner, authz.Admin, authz.Billing, authz.Viewer, authz.Member} {
		w.callers[r.String()] = e.mustUser(r, w.acme)
	}
	for _, r := range []authz.Role{authz.PlatformAdmin, authz.InfraOps, authz.FinanceAdmin, authz.ComplianceAdmin, authz.Reader, authz.QAAdmin} {
		w.callers[r.String()] = e.mustUser(r, "")
	}
	am := e.mustUser(authz.AccountManager, "")
	e.mustGrant(am, false, w.acme)
	w.callers["account_manager"] = am
	qa := w.callers["qa_admin"]
	e.mustGrant(qa, false, w.acme)
	focused := e.mustUser(authz.PlatformAdmin, "")
	e.mustFocus(focused, w.other)
	w.callers["platform_admin_focus_other"] = focused
	return w
}

// TestUsageRedaction: the billed amount of a usage row is a number for
// roles holding view_billed_units and null for the others, through REST
// (R5.7-redact); units show to every role in scope.
//
// spec: R5.7-redact, R4.6-customer-side
func TestUsageRedaction(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	amount := 240.1
	for caller, billed := range map[string]bool{
		"owner": true, "admin": true, "billing": true, "viewer": false, "member": false,
		"platform_admin": true, "account_manager": true, "finance_admin": true, "compliance_admin": true, "reader": true,
		"infra_ops": false, "qa_admin": false,
	} {
		t.Run(caller, func(t *testing.T) {
			r := w.e.do(w.callers[caller], "GET", "/customers/"+w.acme+"/usage?from=2026-01&to=2026-01", nil)
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
			rows := usageBody(t, r)
			if len(rows) != 1 || rows[0].Units != 1200.5 || rows[0].Meter != w.meterKey || rows[0].Unit != "call" {
				t.Fatalf("rows = %+v", rows)
			}
			var want *float64
			if billed {
				want = &amount
			}
			if diff := cmp.Diff(want, rows[0].BilledAmount); diff != "" {
				t.Errorf("billedAmount (-want +got):\n%s", diff)
			}
			// the JSON member is present and null, not left out
			var raw struct{ Items []map[string]json.RawMessage }
			_ = json.Unmarshal(r.Body, &raw)
			if got, ok := raw.Items[0]["billedAmount"]; !ok || (!billed && string(got) != "null") {
				t.Errorf("billedAmount member = %q (present %v)", got, ok)
			}
		})
	}
}

// TestUsageScope: lists are filtered by scope and never answer 403; a
// customer in the path is checked against the scope: 403 for strict scope,
// 404 for a customer role and for focus mode; an unknown customer answers
// exactly like an out-of-scope one to a scoped caller.
//
// spec: R4.6-id-scope, R5.7-strict, R5.7-soft, R7.2-status
func TestUsageScope(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	customersOf := func(rows []admin.Usage) []string {
		var out []string
		for _, r := range rows {
			out = append(out, r.CustomerID+"/"+r.Period)
		}
		return out
	}
	for _, tc := range []struct {
		caller, query string
		want          []string
	}{
		{"platform_admin", "", []string{w.acme + "/2026-02", w.other + "/2026-02", w.acme + "/2026-01"}},
		{"account_manager", "", []string{w.acme + "/2026-02", w.acme + "/2026-01"}},
		{"account_manager", "?customerId=" + w.other, nil}, // out of scope: empty, not 403
		{"owner", "", []string{w.acme + "/2026-02", w.acme + "/2026-01"}},
		{"member", "?from=2026-02", []string{w.acme + "/2026-02"}},
		{"platform_admin_focus_other", "", []string{w.other + "/2026-02"}},
	} {
		r := w.e.do(w.callers[tc.caller], "GET", "/usage"+tc.query, nil)
		if r.Status != 200 {
			t.Errorf("%s GET /usage%s = %d: %s", tc.caller, tc.query, r.Status, r.Body)
			continue
		}
		if diff := cmp.Diff(tc.want, customersOf(usageBody(t, r))); diff != "" {
			t.Errorf("%s GET /usage%s (-want +got):\n%s", tc.caller, tc.query, diff)
		}
	}
	missing := "00000000-0000-4000-8000-00000000dead"
	for _, tc := range []struct {
		caller, customer string
		want             int
	}{
		{"account_manager", w.other, 403},
		{"account_manager", missing, 403}, // same as out of scope
		{"owner", w.other, 404},
		{"owner", missing, 404},
		{"platform_admin_focus_other", w.acme, 404},
		{"platform_admin", missing, 404},
		{"platform_admin", w.other, 200},
	} {
		r := w.e.do(w.callers[tc.caller], "GET", "/customers/"+tc.customer+"/usage", nil)
		if r.Status != tc.want {
			t.Errorf("%s GET /customers/%s/usage = %d, want %d: %s", tc.caller, tc.customer, r.Status, tc.want, r.Body)
		}
	}
	for _, q := range []string{"?from=2026-13", "?from=2026-03&to=2026-01", "?limit=0", "?limit=x", "?to=26-01"} {
		if r := w.e.do(w.callers["platform_admin"], "GET", "/usage"+q, nil); r.Status != 400 {
			t.Errorf("GET /usage%s = %d, want 400: %s", q, r.Status, r.Body)
		}
	}
}

// TestBilledTotals: billed totals need view_billed_units.
//
// spec: R5.7-redact
func TestBilledTotals(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	r := w.e.do(w.callers["billing"], "GET", "/customers/"+w.acme+"/usage/billed-totals", nil)
	var p struct{ Items []admin.BilledTotal }
	if err := json.Unmarshal(r.Body, &p); r.Status != 200 || err != nil {
		t.Fatalf("billing role: %d %s", r.Status, r.Body)
	}
	want := []admin.BilledTotal{{Period: "2026-02", Currency: "EUR", BilledAmount: 2}, {Period: "2026-01", Currency: "EUR", BilledAmount: 240.1}}
	if diff := cmp.Diff(want, p.Items); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	for _, c := range []string{"viewer", "member", "infra_ops"} {
		if r := w.e.do(w.callers[c], "GET", "/customers/"+w.acme+"/usage/billed-totals", nil); r.Status != 403 {
			t.Errorf("%s: %d, want 403", c, r.Status)
		}
	}
}

// TestCredits: issuing a credit needs manage_billing; invalid input answers
// 400 with the 7.1 object and writes nothing; a customer role's credit is a
// purchase, an internal role's an adjustment (D-credit-kinds), in the
// customer's billing currency.
//
// spec: R4.6-customer-side, R7.1-shape
func TestCredits(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	path := "/customers/" + w.acme + "/credits"
	// no billing setup yet: a purchase has no invoice to be charged on
	if r := w.e.do(w.callers["billing"], "POST", path, map[string]any{"amount": 5, "currency": "EUR", "reason": "x"}); r.Status != 400 {
		t.Errorf("a purchase without a billing setup: %d %s", r.Status, r.Body)
	}
	w.e.mustBillingSetup(w.acme)
	for _, body := range []any{
		map[string]any{"amount": 5, "currency": "USD", "reason": "not the billing currency"},
		map[string]any{"amount": -1, "currency": "EUR", "reason": "x"},
		map[string]any{"amount": 0, "currency": "EUR", "reason": "x"},
		map[string]any{"amount": 1.005, "currency": "EUR", "reason": "x"},
		map[string]any{"amount": 5, "currency": "eur", "reason": "x"},
		map[string]any{"amount": 5, "currency": "EUR", "reason": " "},
		map[string]any{"amount": 5, "currency": "EUR", "reason": "x", "extra": true},
		`{"amount": 5, "currency": "EUR"`,
		`{"amount": "5", "currency": "EUR", "reason": "x"}`,
	} {
		r := w.e.do(w.callers["billing"], "POST", path, body)
		if r.Status != 400 {
			t.Errorf("POST %v = %d, want 400: %s", body, r.Status, r.Body)
			continue
		}
		checkErrorObject(t, r, path)
	}
	if r := w.e.do(w.callers["platform_admin"], "GET", path, nil); string(r.Body) != `{"items":[],"nextCursor":null}`+"\n" &&
		string(r.Body) != `{"items":[],"nextCursor":null}` {
		t.Fatalf("credits after refused requests: %s", r.Body)
	}
	for caller, want := range map[string]int{"viewer": 403, "member": 403, "compliance_admin": 403, "reader": 403, "infra_ops": 403,
		"billing": 201, "account_manager": 201, "finance_admin": 201} {
		r := w.e.do(w.callers[caller], "POST", path, map[string]any{"amount": 12.5, "currency": "EUR", "reason": "goodwill " + caller})
		if r.Status != want {
			t.Errorf("%s: %d, want %d: %s", caller, r.Status, want, r.Body)
		}
	}
	r := w.e.do(w.callers["reader"], "GET", path, nil)
	var p struct{ Items []admin.CreditView }
	_ = json.Unmarshal(r.Body, &p)
	if r.Status != 200 || len(p.Items) != 3 || p.Items[0].Amount != 12.5 {
		t.Fatalf("reader lists credits: %d %s", r.Status, r.Body)
	}
	kinds := map[string]string{}
	for _, c := range p.Items {
		kinds[c.Reason] = c.Kind
		if c.InvoiceID != nil {
			t.Errorf("a new credit is on an invoice already: %+v", c)
		}
	}
	want := map[string]string{"goodwill billing": "purchase", "goodwill account_manager": "adjustment", "goodwill finance_admin": "adjustment"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("credit kinds (-want +got):\n%s", diff)
	}
}

// TestBillingSetup: the setup is validated, refers to a plan of the
// catalog, and reads back as written.
//
// spec: R4.6-customer-side
func TestBillingSetup(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	path := "/customers/" + w.acme + "/billing-setup"
	if r := w.e.do(w.callers["owner"], "GET", path, nil); r.Status != 404 {
		t.Fatalf("no setup yet: %d", r.Status)
	}
	valid := map[string]any{"billingEmail": "ap@acme.example", "currency": "EUR", "paymentMethod": "card", "country": "DE"}
	for name, patch := range map[string]map[string]any{
		"email":   {"billingEmail": "nope"},
		"method":  {"paymentMethod": "cash"},
		"country": {"country": "Germany"},
		"plan":    {"planId": "no-such-plan"},
	} {
		body := map[string]any{}
		for k, v := range valid {
			body[k] = v
		}
		for k, v := range patch {
			body[k] = v
		}
		if r := w.e.do(w.callers["owner"], "PUT", path, body); r.Status != 400 {
			t.Errorf("%s: %d, want 400: %s", name, r.Status, r.Body)
		}
	}
	if r := w.e.do(w.callers["owner"], "GET", path, nil); r.Status != 404 {
		t.Fatalf("refused writes left a setup: %d %s", r.Status, r.Body)
	}
	plan := w.e.mustPlanWith(store.Plan{Currency: "EUR", MonthlyFeeCents: 4900, Active: true, Public: true})
	valid["planId"] = plan
	if r := w.e.do(w.callers["billing"], "PUT", path, valid); r.Status != 200 {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	r := w.e.do(w.callers["viewer"], "GET", path, nil)
	if r.Status != 403 {
		t.Errorf("viewer reads the billing setup: %d", r.Status)
	}
	r = w.e.do(w.callers["owner"], "GET", path, nil)
	var got admin.BillingSetupView
	if err := json.Unmarshal(r.Body, &got); err != nil || got.PlanID == nil || *got.PlanID != plan || got.PaymentMethod != "card" ||
		got.UpdatedBy != w.callers["billing"] {
		t.Fatalf("setup = %s", r.Body)
	}
}

// TestInvoices: invoices by id are checked against scope; lists filter.
//
// spec: R4.6-id-scope, R5.7-strict
func TestInvoices(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	mine, theirs := w.e.mustInvoice(w.acme), w.e.mustInvoice(w.other)
	for _, tc := range []struct {
		caller, id string
		want       int
	}{
		{"owner", mine, 200}, {"owner", theirs, 404}, {"viewer", mine, 403},
		{"account_manager", mine, 200}, {"account_manager", theirs, 403},
		{"finance_admin", theirs, 200}, {"reader", theirs, 200}, {"infra_ops", mine, 403},
	} {
		if r := w.e.do(w.callers[tc.caller], "GET", "/invoices/"+tc.id, nil); r.Status != tc.want {
			t.Errorf("%s GET invoice: %d, want %d", tc.caller, r.Status, tc.want)
		}
	}
	r := w.e.do(w.callers["account_manager"], "GET", "/invoices", nil)
	var p struct{ Items []admin.InvoiceView }
	_ = json.Unmarshal(r.Body, &p)
	if len(p.Items) != 1 || p.Items[0].ID != mine || p.Items[0].Total != 123.45 {
		t.Fatalf("account manager's invoices: %s", r.Body)
	}
	if r := w.e.do(w.callers["platform_admin"], "GET", "/invoices?status=unpaid", nil); r.Status != 400 {
		t.Errorf("bad status filter: %d", r.Status)
	}
	if r := w.e.do(w.callers["platform_admin"], "GET", fmt.Sprintf("/invoices?customerId=%s&status=open", w.other), nil); r.Status != 200 {
		t.Errorf("filter: %d", r.Status)
	}
}

// TestUsagePaging: ?limit= and ?cursor= walk a usage list page by page,
// each row once; a malformed cursor is 400.
func TestUsagePaging(t *testing.T) {
	t.Parallel()
	w := newBillingWorld(t)
	var got []string
	path := "/usage?limit=2"
	for i := 0; i < 5; i++ {
		r := w.e.do(w.callers["platform_admin"], "GET", path, nil)
		var p struct {
			Items      []admin.Usage
			NextCursor *string
		}
		decodeInto(t, r, &p)
		if r.Status != 200 || len(p.Items) > 2 {
			t.Fatalf("page %d: %d %s", i, r.Status, r.Body)
		}
		for _, u := range p.Items {
			got = append(got, u.CustomerID+"/"+u.Period)
		}
		if p.NextCursor == nil {
			break
		}
		path = "/usage?limit=2&cursor=" + *p.NextCursor
	}
	want := []string{w.acme + "/2026-02", w.other + "/2026-02", w.acme + "/2026-01"}
	if w.other < w.acme {
		want = []string{w.other + "/2026-02", w.acme + "/2026-02", w.acme + "/2026-01"}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if r := w.e.do(w.callers["platform_admin"], "GET", "/usage?cursor=bm9wZQ", nil); r.Status != 400 {
		t.Errorf("malformed cursor: %d", r.Status)
	}
	if r := w.e.do(w.callers["owner"], "GET", "/customers/"+w.acme+"/credits?cursor=bm9wZQ", nil); r.Status != 400 {
		t.Errorf("malformed credits cursor: %d %s", r.Status, r.Body)
	}
}
