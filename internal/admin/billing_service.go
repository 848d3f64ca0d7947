package admin

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Billing (SPEC 5.7): invoices, payments and credits need view_billing to
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

// CreditView is a credit as the API shows it.
type CreditView struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customerId"`
	Amount     float64   `json:"amount"`
	Currency   string    `json:"currency"`
	Reason     string    `json:"reason"`
	IssuedBy   string    `json:"issuedBy"`
	IssuedAt   time.Time `json:"issuedAt"`
}

func newCreditView(c *store.Credit) *CreditView {
	return &CreditView{ID: c.ID, CustomerID: c.CustomerID, Amount: major(c.AmountCents), Currency: c.Currency,
		Reason: c.Reason, IssuedBy: c.IssuedBy, IssuedAt: c.IssuedAt}
}

// CreditInput issues a credit: a positive amount, its currency, and why.
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

// ListInvoices lists the invoices of the caller's customers, newest first.
func (s *Service) ListInvoices(ctx context.Context, c *access.Caller, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if err := s.access.CheckRole(ctx, c, authz.ViewBilling, false); err != nil {
		return nil, err
	}
	return s.invoices(ctx, c, f)
}

// ListCustomerInvoices lists one customer's invoices, newest first.
func (s *Service) ListCustomerInvoices(ctx context.Context, c *access.Caller, customerID string, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ViewBilling, false); err != nil {
		return nil, err
	}
	f.CustomerID = customerID
	return s.invoices(ctx, c, f)
}

func (s *Service) invoices(ctx context.Context, c *access.Caller, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if f.Status != "" {
		if _, err := oneOf("status", f.Status, "draft", "open", "paid", "void"); err != nil {
			return nil, err
		}
	}
	if f.Limit < 0 || f.Limit > 1000 {
		return nil, invalid("limit must be between 1 and 1000")
	}
	rows, next, err := s.store.Invoices(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: f.CustomerID,
		Status: f.Status, Limit: f.Limit, Cursor: f.Cursor})
	if err != nil {
		return nil, err
	}
	out := make([]*InvoiceView, 0, len(rows))
	for i := range rows {
		out = append(out, newInvoiceView(&rows[i]))
	}
	return newPage(out, next), nil
}

// Invoice returns one invoice. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *Service) Invoice(ctx context.Context, c *access.Caller, id string) (*InvoiceView, error) {
	inv, err := s.store.Invoice(ctx, id)
	if err := s.owned(ctx, c, authz.ViewBilling, false, inv.CustomerID, err); err != nil {
		return nil, err
	}
	return newInvoiceView(inv), nil
}

// ListPayments lists a customer's payments, newest first, one page.
func (s *Service) ListPayments(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*PaymentView], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ViewBilling, false); err != nil {
		return nil, err
	}
	rows, next, err := s.store.Payments(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: customerID, Limit: p.Limit,
		Cursor: p.Cursor})
	if err != nil {
		return nil, err
	}
	out := make([]*PaymentView, 0, len(rows))
	for _, p := range rows {
		v := &PaymentView{ID: p.ID, CustomerID: p.CustomerID, Amount: major(p.AmountCents), Currency: p.Currency,
			Method: p.Method, Status: p.Status, ReceivedAt: p.ReceivedAt}
		if p.InvoiceID != "" {
			v.InvoiceID = &p.InvoiceID
		}
		out = append(out, v)
	}
	return newPage(out, next), nil
}

// ListCredits lists a customer's credits, newest first, one page.
func (s *Service) ListCredits(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*CreditView], error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ViewBilling, false); err != nil {
		return nil, err
	}
	rows, next, err := s.store.Credits(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: customerID, Limit: p.Limit,
		Cursor: p.Cursor})
	if err != nil {
		return nil, err
	}
	out := make([]*CreditView, 0, len(rows))
	for i := range rows {
		out = append(out, newCreditView(&rows[i]))
	}
	return newPage(out, next), nil
}

// IssueCredit credits a customer's account (manage_billing). EINVALID.
func (s *Service) IssueCredit(ctx context.Context, c *access.Caller, customerID string, in CreditInput) (*CreditView, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageBilling, true); err != nil {
		return nil, err
	}
	cr := &store.Credit{ID: newID(), CustomerID: customerID, IssuedBy: c.UserID, IssuedAt: s.stamp()}
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
	if err := s.store.CreateCredit(ctx, cr); err != nil {
		return nil, err
	}
	return newCreditView(cr), nil
}

func newBillingSetupView(b *store.BillingSetup) *BillingSetupView {
	v := &BillingSetupView{CustomerID: b.CustomerID, BillingEmail: b.BillingEmail, CompanyName: b.CompanyName,
		Address: b.Address, Country: b.Country, TaxID: b.TaxID, Currency: b.Currency, PaymentMethod: b.PaymentMethod,
		UpdatedAt: b.UpdatedAt, UpdatedBy: b.UpdatedBy}
	if b.PlanID != "" {
		v.PlanID = &b.PlanID
	}
	return v
}

// BillingSetup returns a customer's billing setup. ENOTFOUND when it has none.
func (s *Service) BillingSetup(ctx context.Context, c *access.Caller, customerID string) (*BillingSetupView, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ViewBilling, false); err != nil {
		return nil, err
	}
	b, err := s.store.BillingSetup(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return newBillingSetupView(b), nil
}

var countryRE = regexp.MustCompile(`^[A-Z]{2}$`)

// PutBillingSetup replaces a customer's billing setup (manage_billing).
// EINVALID, also for a plan that does not exist.
func (s *Service) PutBillingSetup(ctx context.Context, c *access.Caller, customerID string, in BillingSetupInput) (*BillingSetupView, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ManageBilling, true); err != nil {
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
	if b.PlanID = strings.TrimSpace(in.PlanID); b.PlanID != "" {
		if _, err := s.store.Plan(ctx, b.PlanID); platform.ErrorCode(err) == platform.ENOTFOUND {
			return nil, invalid("planId names no plan of the catalog")
		} else if err != nil {
			return nil, err
		}
	}
	if err := s.store.PutBillingSetup(ctx, b); err != nil {
		return nil, err
	}
	return newBillingSetupView(b), nil
}

// ListUsage lists the usage rows of the caller's customers, by period
// (newest first), customer and meter; a customer filter outside the scope
// matches nothing (lists never answer 403 for scope). billedAmount is null
// for callers without view_billed_units (R5.7-redact). EINVALID for a bad
// filter; EFORBIDDEN only for a role without view_usage_units.
func (s *Service) ListUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if err := s.access.CheckRole(ctx, c, authz.ViewUsageUnits, false); err != nil {
		return nil, err
	}
	return s.usage(ctx, c, f)
}

// ListCustomerUsage lists one customer's usage rows; the customer is
// checked against the caller's scope (403 or 404 per the scope mode).
func (s *Service) ListCustomerUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if _, err := s.customerFor(ctx, c, f.CustomerID, authz.ViewUsageUnits, false); err != nil {
		return nil, err
	}
	return s.usage(ctx, c, f)
}

func (s *Service) usage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	var err error
	if f.From != "" {
		if f.From, err = period("from", f.From); err != nil {
			return nil, err
		}
	}
	if f.To != "" {
		if f.To, err = period("to", f.To); err != nil {
			return nil, err
		}
	}
	if f.From != "" && f.To != "" && f.From > f.To {
		return nil, invalid("from must not be after to")
	}
	if f.Limit < 0 || f.Limit > 1000 {
		return nil, invalid("limit must be between 1 and 1000")
	}
	rows, next, err := s.store.UsageRows(ctx, store.UsageQuery{Customers: c.Scope.Filter(), CustomerID: f.CustomerID,
		MeterKey: f.Meter, From: f.From, To: f.To, Limit: f.Limit, Cursor: f.Cursor})
	if err != nil {
		return nil, err
	}
	cat := s.access.Catalog()
	out := make([]*Usage, 0, len(rows))
	for _, u := range rows {
		amount := major(u.BilledAmountCents)
		out = append(out, &Usage{ID: u.ID, CustomerID: u.CustomerID, Meter: u.MeterKey, Unit: u.Unit, Period: u.Period,
			Units: u.Units, BilledAmount: cat.RedactBilled(&c.Principal, &amount), Currency: u.Currency})
	}
	return newPage(out, next), nil
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
func (s *Service) BilledTotals(ctx context.Context, c *access.Caller, customerID, from, to string) ([]*BilledTotal, error) {
	if _, err := s.customerFor(ctx, c, customerID, authz.ViewBilledUnits, false); err != nil {
		return nil, err
	}
	var err error
	if from != "" {
		if from, err = period("from", from); err != nil {
			return nil, err
		}
	}
	if to != "" {
		if to, err = period("to", to); err != nil {
			return nil, err
		}
	}
	rows, err := s.store.BilledTotals(ctx, customerID, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]*BilledTotal, 0, len(rows))
	for _, b := range rows {
		out = append(out, &BilledTotal{Period: b.Period, Currency: b.Currency, BilledAmount: major(b.AmountCents)})
	}
	return out, nil
}
