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

func newPaymentView(p *store.Payment) *PaymentView {
	return &PaymentView{ID: p.ID, CustomerID: p.CustomerID, InvoiceID: orNull(p.InvoiceID), Amount: major(p.AmountCents),
		Currency: p.Currency, Method: p.Method, Status: p.Status, ReceivedAt: p.ReceivedAt}
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
	return newPage(views(rows, newInvoiceView), next), nil
}

// Invoice returns one invoice. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *Service) Invoice(ctx context.Context, c *access.Caller, id string) (*InvoiceView, error) {
	return viewing(newInvoiceView)(decided(ctx, s, c, authz.ViewBilling, false, invoiceResource)(s.store.Invoice(ctx, id)))
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
	return newPage(views(rows, newPaymentView), next), nil
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
	return newPage(views(rows, newCreditView), next), nil
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
	return &BillingSetupView{CustomerID: b.CustomerID, PlanID: orNull(b.PlanID), BillingEmail: b.BillingEmail,
		CompanyName: b.CompanyName, Address: b.Address, Country: b.Country, TaxID: b.TaxID, Currency: b.Currency,
		PaymentMethod: b.PaymentMethod, UpdatedAt: b.UpdatedAt, UpdatedBy: b.UpdatedBy}
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
