package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Usage (R5.7-matrix, see billing.go): view_usage_units reads it, and its
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
func (s *Service) ListUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if err := s.checkRole(ctx, c, OpUsageList); err != nil {
		return nil, err
	}
	return s.usage(ctx, c, f)
}

// ListCustomerUsage lists one customer's usage rows; the customer is
// checked against the caller's scope (403 or 404 per the scope mode).
func (s *Service) ListCustomerUsage(ctx context.Context, c *access.Caller, f UsageFilter) (*Page[*Usage], error) {
	if _, err := s.customerFor(ctx, c, f.CustomerID, OpCustomerUsageList); err != nil {
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
	if err := platform.NewestPages.Check("limit", f.Limit); err != nil {
		return nil, err
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
	if _, err := s.customerFor(ctx, c, customerID, OpBilledTotals); err != nil {
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
