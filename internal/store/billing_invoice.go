package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/authz"
)

// BillingSetup is a customer's plan, billing contact and payment method.
type BillingSetup struct {
	CustomerID    string
	PlanID        string
	BillingEmail  string
	CompanyName   string
	Address       string
	Country       string
	TaxID         string
	Currency      string
	PaymentMethod string
	UpdatedAt     time.Time
	UpdatedBy     string
}

const billingSetupColumns = `customer_id, plan_id, billing_email, company_name, address, country, tax_id, currency,
	payment_method, updated_at, updated_by`

// PutBillingSetup creates or replaces a customer's billing setup.
func (s *Billing) PutBillingSetup(ctx context.Context, b *BillingSetup) error {
	_, err := s.db.Exec(ctx, `INSERT INTO billing_setups (`+billingSetupColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (customer_id) DO UPDATE SET plan_id = EXCLUDED.plan_id, billing_email = EXCLUDED.billing_email,
		company_name = EXCLUDED.company_name, address = EXCLUDED.address, country = EXCLUDED.country, tax_id = EXCLUDED.tax_id,
		currency = EXCLUDED.currency, payment_method = EXCLUDED.payment_method, updated_at = EXCLUDED.updated_at,
		updated_by = EXCLUDED.updated_by`, b.CustomerID, nullString(b.PlanID), b.BillingEmail, b.CompanyName, b.Address,
		b.Country, b.TaxID, b.Currency, b.PaymentMethod, b.UpdatedAt.UTC(), b.UpdatedBy)
	return wrap(err, "billing setup")
}

// BillingSetup returns a customer's billing setup. ENOTFOUND when it has none.
func (s *Billing) BillingSetup(ctx context.Context, customerID string) (*BillingSetup, error) {
	return queryOne(ctx, s.db, "billing setup", func(r Row) (BillingSetup, error) {
		var b BillingSetup
		var plan sql.NullString
		err := r.Scan(&b.CustomerID, &plan, &b.BillingEmail, &b.CompanyName, &b.Address, &b.Country, &b.TaxID, &b.Currency,
			&b.PaymentMethod, &b.UpdatedAt, &b.UpdatedBy)
		b.PlanID = plan.String
		return b, err
	}, `SELECT `+billingSetupColumns+` FROM billing_setups WHERE customer_id = $1`, customerID)
}

// Invoice is a bill sent to a customer for one period (YYYY-MM).
type Invoice struct {
	ID         string
	CustomerID string
	Number     string
	Period     string
	Currency   string
	TotalCents int64
	Status     string
	IssuedAt   time.Time
	DueAt      time.Time
}

const invoiceColumns = `id, customer_id, number, period, currency, total_cents, status, issued_at, due_at`

func scanInvoice(r Row) (Invoice, error) {
	var i Invoice
	err := r.Scan(&i.ID, &i.CustomerID, &i.Number, &i.Period, &i.Currency, &i.TotalCents, &i.Status, &i.IssuedAt, &i.DueAt)
	return i, err
}

var invoices = table[Invoice]{"invoices", "invoice", invoiceColumns, scanInvoice}

// CreateInvoice stores an invoice. ECONFLICT when the number is taken.
func (s *Billing) CreateInvoice(ctx context.Context, i *Invoice) error {
	return invoices.insert(ctx, s.db, i.ID, i.CustomerID, i.Number, i.Period, i.Currency, i.TotalCents, i.Status, i.IssuedAt.UTC(),
		i.DueAt.UTC())
}

// Invoice returns one invoice. ENOTFOUND.
func (s *Billing) Invoice(ctx context.Context, id string) (*Invoice, error) {
	return invoices.get(ctx, s.db, id)
}

// BillingQuery selects the invoices, payments or credits of the customers
// of Customers, of CustomerID too when set, newest first: at most Limit
// (default 100, at most 1000) after Cursor (the previous page's next cursor).
type BillingQuery struct {
	Customers  authz.Filter
	CustomerID string
	Status     string // invoices only
	Limit      int
	Cursor     string
}

// billingPage runs one page of a billing list, the rows of t narrowed by q,
// newest first by timeCol.
func billingPage[T any](ctx context.Context, db DB, q BillingQuery, t *table[T], timeCol string,
	at func(*T) (time.Time, string)) ([]T, string, error) {
	var args []any
	w := scopeCondition(&args, q.Customers, "customer_id", "")
	if q.CustomerID != "" {
		w += ` AND customer_id = ` + arg(&args, q.CustomerID)
	}
	if q.Status != "" {
		w += ` AND status = ` + arg(&args, q.Status)
	}
	return newestPage(ctx, db, q.Cursor, q.Limit, t.selectFrom(), w, args, timeCol, t.scan, at)
}

// Invoices lists one page of invoices, newest first, and the cursor of the
// next page ("" on the last). EINVALID for a malformed cursor.
func (s *Billing) Invoices(ctx context.Context, q BillingQuery) ([]Invoice, string, error) {
	return billingPage(ctx, s.db, q, &invoices, "issued_at", func(i *Invoice) (time.Time, string) { return i.IssuedAt, i.ID })
}

// Payment is money received from a customer, for an invoice when InvoiceID is set.
type Payment struct {
	ID          string
	CustomerID  string
	InvoiceID   string
	AmountCents int64
	Currency    string
	Method      string
	Status      string
	ReceivedAt  time.Time
}

const paymentColumns = `id, customer_id, invoice_id, amount_cents, currency, method, status, received_at`

func scanPayment(r Row) (Payment, error) {
	var p Payment
	var inv sql.NullString
	err := r.Scan(&p.ID, &p.CustomerID, &inv, &p.AmountCents, &p.Currency, &p.Method, &p.Status, &p.ReceivedAt)
	p.InvoiceID = inv.String
	return p, err
}

var payments = table[Payment]{"payments", "payment", paymentColumns, scanPayment}

// CreatePayment stores a payment.
func (s *Billing) CreatePayment(ctx context.Context, p *Payment) error {
	return payments.insert(ctx, s.db, p.ID, p.CustomerID, nullString(p.InvoiceID), p.AmountCents, p.Currency, p.Method, p.Status,
		p.ReceivedAt.UTC())
}

// Payments lists one page of payments, newest first, and the next cursor.
func (s *Billing) Payments(ctx context.Context, q BillingQuery) ([]Payment, string, error) {
	q.Status = "" // no status column
	return billingPage(ctx, s.db, q, &payments, "received_at", func(p *Payment) (time.Time, string) { return p.ReceivedAt, p.ID })
}

// Kinds of credit (D-credit-kinds).
const (
	// CreditPurchase is a customer's prepaid top-up, charged on its next invoice.
	CreditPurchase = "purchase"
	// CreditAdjustment is an internal role's credit, which lowers the next invoice.
	CreditAdjustment = "adjustment"
)

// Credit is an amount credited to a customer's account: a purchase or an
// adjustment. InvoiceID is the issued invoice that charged or applied it,
// empty while it waits for the next one.
type Credit struct {
	ID          string
	CustomerID  string
	Kind        string
	AmountCents int64
	Currency    string
	Reason      string
	IssuedBy    string
	IssuedAt    time.Time
	InvoiceID   string
}

const creditColumns = `id, customer_id, kind, amount_cents, currency, reason, issued_by, issued_at, invoice_id`

func scanCredit(r Row) (Credit, error) {
	var c Credit
	var inv sql.NullString
	err := r.Scan(&c.ID, &c.CustomerID, &c.Kind, &c.AmountCents, &c.Currency, &c.Reason, &c.IssuedBy, &c.IssuedAt, &inv)
	c.InvoiceID = inv.String
	return c, err
}

var credits = table[Credit]{"credits", "credit", creditColumns, scanCredit}

// CreateCredit stores a credit.
func (s *Billing) CreateCredit(ctx context.Context, c *Credit) error {
	kind := c.Kind
	if kind == "" {
		kind = CreditAdjustment
	}
	return credits.insert(ctx, s.db, c.ID, c.CustomerID, kind, c.AmountCents, c.Currency, c.Reason, c.IssuedBy, c.IssuedAt.UTC(),
		nullString(c.InvoiceID))
}

// CreditTotal sums the credits of one kind that wait for a customer's next
// invoice.
type CreditTotal struct {
	Kind        string
	Count       int
	AmountCents int64
}

// OpenCredits sums, by kind, a customer's credits in currency that no issued
// invoice has charged or applied yet (the next invoice's), in one statement
// whatever their number.
func (s *Billing) OpenCredits(ctx context.Context, customerID, currency string) ([]CreditTotal, error) {
	return queryAll(ctx, s.db, func(r Row) (CreditTotal, error) {
		var t CreditTotal
		err := r.Scan(&t.Kind, &t.Count, &t.AmountCents)
		return t, err
	}, `SELECT kind, COUNT(*), CAST(SUM(amount_cents) AS BIGINT) FROM credits
		WHERE customer_id = $1 AND currency = $2 AND invoice_id IS NULL GROUP BY kind ORDER BY kind`, customerID, currency)
}

// Credits lists one page of credits, newest first, and the next cursor.
func (s *Billing) Credits(ctx context.Context, q BillingQuery) ([]Credit, string, error) {
	q.Status = "" // no status column
	return billingPage(ctx, s.db, q, &credits, "issued_at", func(c *Credit) (time.Time, string) { return c.IssuedAt, c.ID })
}
