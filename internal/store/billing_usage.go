package store

import (
	"context"
	"strings"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// UsageRow is a customer's metered usage of one meter in one period
// (YYYY-MM): units, and what they were billed.
type UsageRow struct {
	ID                string
	CustomerID        string
	MeterKey          string
	Unit              string // the meter's unit, read with the row
	Period            string
	Units             float64
	BilledAmountCents int64
	Currency          string
}

// PutUsageRow records usage; a row of the same customer, meter and period
// is replaced.
func (s *Billing) PutUsageRow(ctx context.Context, u *UsageRow) error {
	_, err := s.db.Exec(ctx, `INSERT INTO usage_rows (id, customer_id, meter_key, period, units, billed_amount_cents, currency)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (customer_id, meter_key, period) DO UPDATE SET units = EXCLUDED.units,
		billed_amount_cents = EXCLUDED.billed_amount_cents, currency = EXCLUDED.currency`,
		u.ID, u.CustomerID, u.MeterKey, u.Period, u.Units, u.BilledAmountCents, u.Currency)
	return wrap(err, "usage row")
}

// UsageQuery selects usage rows of the customers of Customers, narrowed
// by the other fields when set; periods From and To are inclusive. A page
// holds at most Limit rows (default 100, at most 1000) after Cursor.
type UsageQuery struct {
	Customers  authz.Filter
	CustomerID string
	MeterKey   string
	From, To   string
	Limit      int
	Cursor     string
}

// UsageRows lists one page of usage rows by period (newest first), customer
// and meter, and the next cursor. EINVALID for a malformed cursor.
func (s *Billing) UsageRows(ctx context.Context, q UsageQuery) ([]UsageRow, string, error) {
	var args []any
	w := scopeCondition(&args, q.Customers, "u.customer_id", "")
	if q.CustomerID != "" {
		w += ` AND u.customer_id = ` + arg(&args, q.CustomerID)
	}
	if q.MeterKey != "" {
		w += ` AND u.meter_key = ` + arg(&args, q.MeterKey)
	}
	if q.From != "" {
		w += ` AND u.period >= ` + arg(&args, q.From)
	}
	if q.To != "" {
		w += ` AND u.period <= ` + arg(&args, q.To)
	}
	if q.Cursor != "" {
		period, rest, err := DecodeCursor(q.Cursor)
		cust, meter, ok := strings.Cut(rest, "\x00")
		if err != nil || !ok {
			return nil, "", platform.Errorf(platform.EINVALID, "cursor is not valid")
		}
		p, c, m := arg(&args, period), arg(&args, cust), arg(&args, meter)
		w += ` AND (u.period < ` + p + ` OR (u.period = ` + p + ` AND (u.customer_id > ` + c + ` OR (u.customer_id = ` + c +
			` AND u.meter_key > ` + m + `))))`
	}
	return onePage(ctx, s.db, `SELECT u.id, u.customer_id, u.meter_key, m.unit, u.period, u.units, u.billed_amount_cents,
		u.currency FROM usage_rows u JOIN meters m ON m.meter_key = u.meter_key WHERE `+w+`
		ORDER BY u.period DESC, u.customer_id, u.meter_key`, args, platform.NewestPages.Size(q.Limit),
		func(r Row) (UsageRow, error) {
			var u UsageRow
			err := r.Scan(&u.ID, &u.CustomerID, &u.MeterKey, &u.Unit, &u.Period, &u.Units, &u.BilledAmountCents, &u.Currency)
			return u, err
		}, func(u *UsageRow) string { return EncodeCursor(u.Period, u.CustomerID+"\x00"+u.MeterKey) })
}

// BilledTotal is the billed amount of a customer's usage in one period and currency.
type BilledTotal struct {
	Period      string
	Currency    string
	AmountCents int64
}

// BilledTotals sums a customer's billed usage by period (newest first) and
// currency; periods from and to (YYYY-MM) are inclusive when set.
func (s *Billing) BilledTotals(ctx context.Context, customerID, from, to string) ([]BilledTotal, error) {
	return queryAll(ctx, s.db, func(r Row) (BilledTotal, error) {
		var b BilledTotal
		err := r.Scan(&b.Period, &b.Currency, &b.AmountCents)
		return b, err
	}, `SELECT period, currency, CAST(SUM(billed_amount_cents) AS BIGINT) FROM usage_rows
		WHERE customer_id = $1 AND ($2 = '' OR period >= $2) AND ($3 = '' OR period <= $3)
		GROUP BY period, currency ORDER BY period DESC, currency`, customerID, from, to)
}
