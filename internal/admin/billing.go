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
func (s *Service) ListInvoices(ctx context.Context, c *access.Caller, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if err := s.checkRole(ctx, c, OpInvoiceList); err != nil {
		return nil, err
	}
	return s.invoices(ctx, c, f)
}

// ListCustomerInvoices lists one customer's invoices, newest first.
func (s *Service) ListCustomerInvoices(ctx context.Context, c *access.Caller, customerID string, f InvoiceFilter) (*Page[*InvoiceView], error) {
	if _, err := s.customerFor(ctx, c, customerID, OpCustomerInvoiceList); err != nil {
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
	if err := platform.NewestPages.Check("limit", f.Limit); err != nil {
		return nil, err
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
	return viewing(newInvoiceView)(decided(ctx, s, c, OpInvoiceGet, invoiceResource)(s.store.Invoice(ctx, id)))
}

// billingPage checks the caller may perform op, a read of customerID's
// billing, and the page's size (platform.NewestPages).
func (s *Service) billingPage(ctx context.Context, c *access.Caller, customerID string, op Operation, p PageInput) error {
	if _, err := s.customerFor(ctx, c, customerID, op); err != nil {
		return err
	}
	return platform.NewestPages.Check("limit", p.Limit)
}

// ListPayments lists a customer's payments, newest first, one page.
func (s *Service) ListPayments(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*PaymentView], error) {
	if err := s.billingPage(ctx, c, customerID, OpPaymentList, p); err != nil {
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
	if err := s.billingPage(ctx, c, customerID, OpCreditList, p); err != nil {
		return nil, err
	}
	rows, next, err := s.store.Credits(ctx, store.BillingQuery{Customers: c.Scope.Filter(), CustomerID: customerID, Limit: p.Limit,
		Cursor: p.Cursor})
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, newCreditView), next), nil
}

// IssueCredit credits a customer's account (manage_billing). R5.7-matrix
// gives the customer's owner, admin and billing users this action too, so
// what a credit is follows the caller's role, and no customer creates value
// for itself (D-credit-kinds): a customer role's credit is a purchase, a
// prepaid top-up that its next invoice charges (NextInvoice), and needs a
// billing setup; an internal role's is an adjustment, which lowers the next
// invoice. Either is in the setup's currency when there is one. EINVALID.
func (s *Service) IssueCredit(ctx context.Context, c *access.Caller, customerID string, in CreditInput) (*CreditView, error) {
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
func (s *Service) BillingSetup(ctx context.Context, c *access.Caller, customerID string) (*BillingSetupView, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpBillingSetupGet); err != nil {
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
// A customer role changes the plan only to one offered to it (checkPlan).
// EINVALID, also for a plan that does not exist or is in another currency;
// EFORBIDDEN for a plan the caller may not choose.
func (s *Service) PutBillingSetup(ctx context.Context, c *access.Caller, customerID string, in BillingSetupInput) (*BillingSetupView, error) {
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
func (s *Service) checkPlan(ctx context.Context, c *access.Caller, b *store.BillingSetup) error {
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
