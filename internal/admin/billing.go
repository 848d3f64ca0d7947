package admin

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// billing reads and manages customers' billing: invoices, payments,
// credits and billing setups, the next invoice and usage.
type billing struct{ *core }

// Billing (R5.7-matrix): invoices, payments and credits need view_billing to
// read; billing setup and credits need manage_billing to write; usage needs
// view_usage_units, and its billed amounts view_billed_units (R5.7-redact).
// Amounts are in major units of their currency (two decimals), kept in
// cents.

// InvoiceView is an invoice as the API shows it.
type InvoiceView struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customerId"`
	Number     string    `json:"number"`
	Period     string    `json:"period"`
	Currency   string    `json:"currency"`
	Total      float64   `json:"total"`
	Status     string    `json:"status"`
	IssuedAt   time.Time `json:"issuedAt"`
	DueAt      time.Time `json:"dueAt"`
}

func newInvoiceView(i *store.Invoice) *InvoiceView {
	return &InvoiceView{ID: i.ID, CustomerID: i.CustomerID, Number: i.Number, Period: i.Period, Currency: i.Currency,
		Total: major(i.TotalCents), Status: i.Status, IssuedAt: i.IssuedAt, DueAt: i.DueAt}
}

// InvoiceFilter narrows an invoice list: a customer (within the caller's
// scope), a status (draft, open, paid, void); a page holds at most Limit
// invoices (1 to 1000, default 100) after Cursor.
type InvoiceFilter struct {
	CustomerID string
	Status     string
	Limit      int
	Cursor     string
}

// PaymentView is a payment as the API shows it; invoiceId is null for a
// payment on account.
type PaymentView struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customerId"`
	InvoiceID  *string   `json:"invoiceId"`
	Amount     float64   `json:"amount"`
	Currency   string    `json:"currency"`
	Method     string    `json:"method"`
	Status     string    `json:"status"`
	ReceivedAt time.Time `json:"receivedAt"`
}

func newPaymentView(p *store.Payment) *PaymentView {
	return &PaymentView{ID: p.ID, CustomerID: p.CustomerID, InvoiceID: orNull(p.InvoiceID), Amount: major(p.AmountCents),
		Currency: p.Currency, Method: p.Method, Status: p.Status, ReceivedAt: p.ReceivedAt}
}

// CreditView is a credit as the API shows it: a purchase (a customer's
// prepaid top-up, charged on its next invoice) or an adjustment (an
// internal role's, which lowers it); invoiceId is null while it waits for
// the next invoice.
type CreditView struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customerId"`
	Kind       string    `json:"kind"`
	Amount     float64   `json:"amount"`
	Currency   string    `json:"currency"`
	Reason     string    `json:"reason"`
	IssuedBy   string    `json:"issuedBy"`
	IssuedAt   time.Time `json:"issuedAt"`
	InvoiceID  *string   `json:"invoiceId"`
}

func newCreditView(c *store.Credit) *CreditView {
	return &CreditView{ID: c.ID, CustomerID: c.CustomerID, Kind: c.Kind, Amount: major(c.AmountCents), Currency: c.Currency,
		Reason: c.Reason, IssuedBy: c.IssuedBy, IssuedAt: c.IssuedAt, InvoiceID: orNull(c.InvoiceID)}
}

// CreditInput issues a credit: a positive amount, its currency, and why.
// Whether it is a purchase or an adjustment follows the caller's role.
type CreditInput struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
	Reason   string  `json:"reason"`
}

// BillingSetupView is a customer's billing setup as the API shows it;
// planId is null when the customer has no plan.
type BillingSetupView struct {
	CustomerID    string    `json:"customerId"`
	PlanID        *string   `json:"planId"`
	BillingEmail  string    `json:"billingEmail"`
	CompanyName   string    `json:"companyName"`
	Address       string    `json:"address"`
	Country       string    `json:"country"`
	TaxID         string    `json:"taxId"`
	Currency      string    `json:"currency"`
	PaymentMethod string    `json:"paymentMethod"`
	UpdatedAt     time.Time `json:"updatedAt"`
	UpdatedBy     string    `json:"updatedBy"`
}

// BillingSetupInput replaces a customer's billing setup. PlanID is
// optional (a plan of the catalog); country is ISO 3166-1 alpha-2;
// paymentMethod is invoice, card or sepa_debit.
type BillingSetupInput struct {
	PlanID        string `json:"planId,omitempty"`
	BillingEmail  string `json:"billingEmail"`
	CompanyName   string `json:"companyName,omitempty"`
	Address       string `json:"address,omitempty"`
	Country       string `json:"country,omitempty"`
	TaxID         string `json:"taxId,omitempty"`
	Currency      string `json:"currency"`
	PaymentMethod string `json:"paymentMethod"`
}

// ListInvoices lists the invoices of the caller's customers, newest first.
func (s *billing) ListInvoices(ctx context.Context, c *access.Caller, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if err := s.checkRole(ctx, c, OpInvoiceList); err != nil {
		return nil, err
	}
	return s.invoices(ctx, c, f)
}

// ListCustomerInvoices lists one customer's invoices, newest first.
func (s *billing) ListCustomerInvoices(ctx context.Context, c *access.Caller, customerID string, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if _, err := s.customerFor(ctx, c, customerID, OpCustomerInvoiceList); err != nil {
		return nil, err
	}
	f.CustomerID = customerID
	return s.invoices(ctx, c, f)
}

func (s *billing) invoices(ctx context.Context, c *access.Caller, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if f.Status != "" {
		if _, err := oneOf("status", f.Status, "draft", "open", "paid", "void"); err != nil {
			return nil, err
		}
	}
	return newestPage(platform.NewestPages, f.Limit, func() ([]store.Invoice, string, error) {
		return s.store.Invoices(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: f.CustomerID,
			Status: f.Status, Limit: f.Limit, Cursor: f.Cursor})
	}, newInvoiceView)
}

// Invoice returns one invoice. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *billing) Invoice(ctx context.Context, c *access.Caller, id string) (*InvoiceView, error) {
	return viewing(newInvoiceView)(decided(ctx, s.core, c, OpInvoiceGet, invoiceResource)(s.store.Invoice(ctx, id)))
}

// customerPage answers one page, newest first, of a customer's billing
// records (load) to c, decided on op on the customer.
func customerPage[R, V any](ctx context.Context, s *core, c *access.Caller, op Operation, customerID string, p PageInput,
	load func(context.Context, store.BillingQuery) ([]R, string, error), view func(*R) V) (*Page[V], error) {
	if _, err := s.customerFor(ctx, c, customerID, op); err != nil {
		return nil, err
	}
	return newestPage(platform.NewestPages, p.Limit, func() ([]R, string, error) {
		return load(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: customerID, Limit: p.Limit, Cursor: p.Cursor})
	}, view)
}

// ListPayments lists a customer's payments, newest first, one page.
func (s *billing) ListPayments(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*PaymentView], error) {
	return customerPage(ctx, s.core, c, OpPaymentList, customerID, p, s.store.Payments, newPaymentView)
}

// ListCredits lists a customer's credits, newest first, one page.
func (s *billing) ListCredits(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*CreditView], error) {
	return customerPage(ctx, s.core, c, OpCreditList, customerID, p, s.store.Credits, newCreditView)
}

// IssueCredit credits a customer's account (manage_billing). R5.7-matrix
// gives the customer's owner, admin and billing users this action too, so
// what a credit is follows the caller's role, and no customer creates value
// for itself (D-credit-kinds): a customer role's credit is a purchase, a
// prepaid top-up that its next invoice charges (NextInvoice), and needs a
// billing setup; an internal role's is an adjustment, which lowers the next
// invoice. Either is in the setup's currency when there is one. EINVALID.
func (s *billing) IssueCredit(ctx context.Context, c *access.Caller, customerID string, in CreditInput) (*CreditView, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpCreditIssue); err != nil {
		return nil, err
	}
	cr := &store.Credit{ID: newID(), CustomerID: customerID, Kind: store.CreditAdjustment, IssuedBy: c.UserID, IssuedAt: s.stamp()}
	if c.Role.Portal() {
		cr.Kind = store.CreditPurchase
	}
	var err error
	if cr.AmountCents, err = cents("amount", in.Amount); err != nil {
		return nil, err
	}
	if cr.AmountCents == 0 {
		return nil, invalid("amount must be greater than 0")
	}
	if cr.Currency, err = currency("currency", in.Currency); err != nil {
		return nil, err
	}
	if cr.Reason, err = required("reason", in.Reason, 500); err != nil {
		return nil, err
	}
	setup, err := s.store.BillingSetup(ctx, customerID)
	switch {
	case platform.ErrorCode(err) == platform.ENOTFOUND && cr.Kind == store.CreditPurchase:
		return nil, invalid("a credit you issue is a prepaid top-up charged on the customer's next invoice; the customer has no billing setup yet")
	case platform.ErrorCode(err) == platform.ENOTFOUND:
	case err != nil:
		return nil, err
	case cr.Currency != setup.Currency:
		return nil, invalid("currency must be the customer's billing currency, %s", setup.Currency)
	}
	err = s.audited(ctx, c, OpCreditIssue, on(customerID, "customers", customerID, "credits", cr.ID), func(tx *store.Store) error {
		return tx.CreateCredit(ctx, cr)
	})
	if err != nil {
		return nil, err
	}
	return newCreditView(cr), nil
}

func newBillingSetupView(b *store.BillingSetup) *BillingSetupView {
	return &BillingSetupView{CustomerID: b.CustomerID, PlanID: orNull(b.PlanID), BillingEmail: b.BillingEmail,
		CompanyName: b.CompanyName, Address: b.Address, Country: b.Country, TaxID: b.TaxID, Currency: b.Currency,
		PaymentMethod: b.PaymentMethod, UpdatedAt: b.UpdatedAt, UpdatedBy: b.UpdatedBy}
}

// BillingSetup returns a customer's billing setup. ENOTFOUND when it has none.
func (s *billing) BillingSetup(ctx context.Context, c *access.Caller, customerID string) (*BillingSetupView, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBillingSetupGet); err != nil {
		return nil, err
	}
	return viewing(newBillingSetupView)(s.store.BillingSetup(ctx, customerID))
}

var countryRE = regexp.MustCompile(`^[A-Z]{2}$`)

// PutBillingSetup replaces a customer's billing setup (manage_billing).
// A customer role changes the plan only to one offered to it (checkPlan).
// EINVALID, also for a plan that does not exist or is in another currency;
// EFORBIDDEN for a plan the caller may not choose.
func (s *billing) PutBillingSetup(ctx context.Context, c *access.Caller, customerID string, in BillingSetupInput) (*BillingSetupView, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBillingSetupPut); err != nil {
		return nil, err
	}
	b := &store.BillingSetup{CustomerID: customerID, UpdatedAt: s.stamp(), UpdatedBy: c.UserID}
	var err error
	b.BillingEmail = strings.TrimSpace(in.BillingEmail)
	if !platform.ValidEmail(b.BillingEmail) {
		return nil, invalid("billingEmail must be an e-mail address")
	}
	if b.CompanyName, err = text("companyName", in.CompanyName, 200); err != nil {
		return nil, err
	}
	if b.Address, err = text("address", in.Address, 1000); err != nil {
		return nil, err
	}
	if b.Country = strings.TrimSpace(in.Country); b.Country != "" && !countryRE.MatchString(b.Country) {
		return nil, invalid("country must be an ISO 3166-1 alpha-2 code such as DE")
	}
	if b.TaxID, err = text("taxId", in.TaxID, 50); err != nil {
		return nil, err
	}
	if b.Currency, err = currency("currency", in.Currency); err != nil {
		return nil, err
	}
	if b.PaymentMethod, err = oneOf("paymentMethod", in.PaymentMethod, "invoice", "card", "sepa_debit"); err != nil {
		return nil, err
	}
	b.PlanID = strings.TrimSpace(in.PlanID)
	if err := s.checkPlan(ctx, c, b); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpBillingSetupPut, on(customerID, "customers", customerID, "billing-setup"), func(tx *store.Store) error {
		return tx.PutBillingSetup(ctx, b)
	})
	if err != nil {
		return nil, err
	}
	return newBillingSetupView(b), nil
}

// checkPlan checks the plan the billing setup b names (D-credit-kinds): a
// plan of the catalog, billed in the setup's currency. An internal role
// assigns any plan. A customer role keeps the plan the customer is on, or
// chooses one offered to it: active and public; it cannot leave its plan
// for none, which would end the monthly fee. EINVALID for a plan that does
// not exist or is in another currency; EFORBIDDEN (audited) for one the
// caller may not choose.
func (s *billing) checkPlan(ctx context.Context, c *access.Caller, b *store.BillingSetup) error {
	current := ""
	if old, err := s.store.BillingSetup(ctx, b.CustomerID); err == nil {
		current = old.PlanID
	} else if platform.ErrorCode(err) != platform.ENOTFOUND {
		return err
	}
	var plan *store.Plan
	if b.PlanID != "" {
		var err error
		if plan, err = s.store.Plan(ctx, b.PlanID); platform.ErrorCode(err) == platform.ENOTFOUND {
			return invalid("planId names no plan of the catalog")
		} else if err != nil {
			return err
		}
		if plan.Currency != b.Currency {
			return invalid("the plan is billed in %s; currency must be %s", plan.Currency, plan.Currency)
		}
	}
	if !c.Role.Portal() || b.PlanID == current {
		return nil
	}
	if plan == nil || !plan.Active || !plan.Public {
		d := authz.Decision{Status: 403, Reason: "plan not offered to the customer"}
		s.access.Audit(ctx, c, authz.ManageBilling.String(), "customers/"+b.CustomerID+"/billing-setup", b.CustomerID, d)
		return platform.Errorf(platform.EFORBIDDEN,
			"your role may change the plan only to a plan offered to the customer (active and public); the platform's staff assign the others")
	}
	return nil
}

func invoiceResource(i *store.Invoice) authz.Resource {
	return authz.Resource{CustomerID: i.CustomerID}
}

// InvoiceResource is the customer of the invoice id.
func (s *billing) InvoiceResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(invoiceResource)(s.store.Invoice(ctx, id))
}

// Kinds of the lines of a computed invoice.
const (
	LinePlan       = "plan"       // the plan's monthly fee
	LineUsage      = "usage"      // the period's billed usage
	LinePurchase   = "purchase"   // prepaid top-ups the customer bought (credits of kind purchase)
	LineAdjustment = "adjustment" // credits of the platform's staff, applied (negative)
)

// InvoiceLine is one line of a computed invoice; Amount is negative for a
// line that lowers the invoice.
type InvoiceLine struct {
	Kind        string  `json:"kind"`
	Description string  `json:"description"`
	Amount      float64 `json:"amount"`
}

// NextInvoiceView is the invoice the platform computes for a customer's
// current period so far (D-credit-kinds): the plan's monthly fee, the
// period's billed usage and the prepaid top-ups bought since the last
// invoice are charged (Charges); the staff's credits lower the charges, at
// most to zero (Credited), and what they leave is carried to the invoice
// after (CarriedForward). Total is Charges less Credited.
type NextInvoiceView struct {
	CustomerID     string        `json:"customerId"`
	Period         string        `json:"period"`
	Currency       string        `json:"currency"`
	Lines          []InvoiceLine `json:"lines"`
	Charges        float64       `json:"charges"`
	Credited       float64       `json:"credited"`
	Total          float64       `json:"total"`
	CarriedForward float64       `json:"carriedForward"`
}

// NextInvoice computes a customer's next invoice, in the currency of its
// billing setup, for the period the service's clock is in (view_billing).
// Credits in another currency wait for an invoice in theirs. ENOTFOUND when
// the customer has no billing setup (it is not billed); EFORBIDDEN or
// ENOTFOUND per the scope mode.
func (s *billing) NextInvoice(ctx context.Context, c *access.Caller, customerID string) (*NextInvoiceView, error) {
	setup, err := ofCustomer(ctx, s.core, c, OpInvoiceNext, customerID, s.store.BillingSetup)
	if err != nil {
		return nil, err
	}
	period := s.now().UTC().Format("2006-01")
	var charges, adjustments int64
	var lines []InvoiceLine
	charge := func(kind, desc string, cents int64) {
		charges += cents
		lines = append(lines, InvoiceLine{Kind: kind, Description: desc, Amount: major(cents)})
	}
	if setup.PlanID != "" {
		plan, err := s.store.Plan(ctx, setup.PlanID)
		if err != nil {
			return nil, err
		}
		charge(LinePlan, fmt.Sprintf("%s plan, monthly fee", plan.Name), plan.MonthlyFeeCents)
	}
	totals, err := s.store.BilledTotals(ctx, customerID, period, period)
	if err != nil {
		return nil, err
	}
	for _, t := range totals {
		if t.Currency == setup.Currency && t.AmountCents > 0 {
			charge(LineUsage, "Metered usage "+period, t.AmountCents)
		}
	}
	credits, err := s.store.OpenCredits(ctx, customerID, setup.Currency)
	if err != nil {
		return nil, err
	}
	var adjusted int
	for _, t := range credits {
		switch t.Kind {
		case store.CreditPurchase:
			charge(LinePurchase, fmt.Sprintf("Prepaid top-ups (%d)", t.Count), t.AmountCents)
		case store.CreditAdjustment:
			adjustments, adjusted = adjustments+t.AmountCents, adjusted+t.Count
		}
	}
	applied := min(adjustments, charges)
	if applied > 0 {
		lines = append(lines, InvoiceLine{Kind: LineAdjustment, Description: fmt.Sprintf("Credits (%d)", adjusted), Amount: -major(applied)})
	}
	if lines == nil {
		lines = []InvoiceLine{}
	}
	return &NextInvoiceView{CustomerID: customerID, Period: period, Currency: setup.Currency, Lines: lines,
		Charges: major(charges), Credited: major(applied), Total: major(charges - applied),
		CarriedForward: major(adjustments - applied)}, nil
}

// Usage (R5.7-matrix, see Billing above): view_usage_units reads it, and its
// billed amounts need view_billed_units (R5.7-redact).

// Usage is a usage row as the API and GraphQL show it: billedAmount is
// null for callers without view_billed_units (R5.7-redact).
type Usage struct {
	ID           string   `json:"id"`
	CustomerID   string   `json:"customerId"`
	Meter        string   `json:"meter"`
	Unit         string   `json:"unit"`
	Period       string   `json:"period"`
	Units        float64  `json:"units"`
	BilledAmount *float64 `json:"billedAmount"`
	Currency     string   `json:"currency"`
}

// UsageFilter narrows a usage list: a customer (within the caller's
// scope), a meter key, periods From and To (YYYY-MM, inclusive); a page
// holds at most Limit rows (1 to 1000, default 100) after Cursor (the
// previous page's nextCursor).
type UsageFilter struct {
	CustomerID string
	Meter      string
	From, To   string
	Limit      int
	Cursor     string
}

// ListUsage lists the usage rows of the caller's customers, by period
// (newest first), customer and meter; a customer filter outside the scope
// matches nothing (lists never answer 403 for scope). billedAmount is null
// for callers without view_billed_units (R5.7-redact). EINVALID for a bad
// filter; EFORBIDDEN only for a role without view_usage_units.
func (s *billing) ListUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if err := s.checkRole(ctx, c, OpUsageList); err != nil {
		return nil, err
	}
	return s.usage(ctx, c, f)
}

// ListCustomerUsage lists one customer's usage rows; the customer is
// checked against the caller's scope (403 or 404 per the scope mode).
func (s *billing) ListCustomerUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if _, err := s.customerFor(ctx, c, f.CustomerID, OpCustomerUsageList); err != nil {
		return nil, err
	}
	return s.usage(ctx, c, f)
}

func (s *billing) usage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	var err error
	if f.From, f.To, err = periods(f.From, f.To); err != nil {
		return nil, err
	}
	if f.From != "" && f.To != "" && f.From > f.To {
		return nil, invalid("from must not be after to")
	}
	cat := s.access.Catalog()
	return newestPage(platform.NewestPages, f.Limit, func() ([]store.UsageRow, string, error) {
		return s.store.UsageRows(ctx, store.UsageQuery{Customers: c.Scope.Filter(), CustomerID: f.CustomerID,
			MeterKey: f.Meter, From: f.From, To: f.To, Limit: f.Limit, Cursor: f.Cursor})
	}, func(u *store.UsageRow) *Usage {
		amount := major(u.BilledAmountCents)
		return &Usage{ID: u.ID, CustomerID: u.CustomerID, Meter: u.MeterKey, Unit: u.Unit, Period: u.Period,
			Units: u.Units, BilledAmount: cat.RedactBilled(&c.Principal, &amount), Currency: u.Currency}
	})
}

// BilledTotal is what a customer was billed for its usage in one period and currency.
type BilledTotal struct {
	Period       string  `json:"period"`
	Currency     string  `json:"currency"`
	BilledAmount float64 `json:"billedAmount"`
}

// BilledTotals sums a customer's billed usage by period (newest first) and
// currency, periods from and to (YYYY-MM, inclusive, optional). It needs
// view_billed_units: without it the caller gets EFORBIDDEN, as the
// amounts in usage rows are null for it (R5.7-redact).
func (s *billing) BilledTotals(ctx context.Context, c *access.Caller, customerID, from, to string) ([]*BilledTotal, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBilledTotals); err != nil {
		return nil, err
	}
	var err error
	if from, to, err = periods(from, to); err != nil {
		return nil, err
	}
	return listing(func(b *store.BilledTotal) *BilledTotal {
		return &BilledTotal{Period: b.Period, Currency: b.Currency, BilledAmount: major(b.AmountCents)}
	})(s.store.BilledTotals(ctx, customerID, from, to))
}
