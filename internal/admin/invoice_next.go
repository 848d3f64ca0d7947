package admin

import (
	"context"
	"fmt"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

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
	if _, err := s.customerFor(ctx, c, customerID, OpInvoiceNext); err != nil {
		return nil, err
	}
	setup, err := s.store.BillingSetup(ctx, customerID)
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
