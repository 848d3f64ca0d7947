package main

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/store"
)

// Demo ids of the seeded catalog.
const (
	DemoPlanTeamID     = "9a1a0000-0000-4000-8000-000000000001"
	DemoPlanBusinessID = "9a1a0000-0000-4000-8000-000000000002"
)

// SeedAdminResources adds a little billing and catalog data for the demo
// customers, so the portal has usage, invoices and a plan to show: the
// plans Team and Business, three meters, three months of usage for Acme
// and Globex with billed amounts, an invoice per month, a payment and a
// credit, and one open discrepancy. Call it once, inside SeedDemo.
func SeedAdminResources(ctx context.Context, st *store.Store) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []store.Plan{
		{ID: DemoPlanTeamID, Code: "team", Name: "Team", Description: "Up to 50 users", Currency: "EUR", MonthlyFeeCents: 49_00, Active: true, Public: true},
		{ID: DemoPlanBusinessID, Code: "business", Name: "Business", Description: "Unlimited users, SSO", Currency: "EUR", MonthlyFeeCents: 199_00, Active: true, Public: true},
	} {
		p.CreatedAt, p.UpdatedAt = now, now
		if err := st.CreatePlan(ctx, &p); err != nil {
			return err
		}
	}
	meters := []struct {
		store.Meter
		centsPerUnit float64
	}{
		{store.Meter{ID: "9a1b0000-0000-4000-8000-000000000001", Key: "api_calls", Name: "API calls", Unit: "1k calls", Aggregation: "sum"}, 20},
		{store.Meter{ID: "9a1b0000-0000-4000-8000-000000000002", Key: "storage_gb", Name: "Storage", Unit: "GB-month", Aggregation: "max"}, 10},
		{store.Meter{ID: "9a1b0000-0000-4000-8000-000000000003", Key: "active_users", Name: "Active users", Unit: "user", Aggregation: "max"}, 300},
	}
	for _, m := range meters {
		m.CreatedAt, m.UpdatedAt = now, now
		if err := st.CreateMeter(ctx, &m.Meter); err != nil {
			return err
		}
	}
	customers := []struct {
		id, plan string
		scale    float64
	}{{DemoAcmeCustomerID, DemoPlanBusinessID, 1}, {DemoGlobexCustomerID, DemoPlanTeamID, 0.4}}
	for ci, c := range customers {
		if err := st.PutBillingSetup(ctx, &store.BillingSetup{CustomerID: c.id, PlanID: c.plan, BillingEmail: "billing@" +
			[]string{"acme", "globex"}[ci] + ".example", CompanyName: []string{"Acme Construction", "Globex Engineering"}[ci],
			Country: "DE", Currency: "EUR", PaymentMethod: "invoice", UpdatedAt: now, UpdatedBy: "seed"}); err != nil {
			return err
		}
		for back := 3; back >= 1; back-- {
			m := month.AddDate(0, -back, 0)
			period := m.Format("2006-01")
			var total int64
			for mi, meter := range meters {
				units := float64(int((120+float64(40*mi)+float64(15*(3-back)))*c.scale*10)) / 10
				billed := int64(units * meter.centsPerUnit)
				total += billed
				if err := st.PutUsageRow(ctx, &store.UsageRow{ID: newSeedID(), CustomerID: c.id, MeterKey: meter.Key, Period: period,
					Units: units, BilledAmountCents: billed, Currency: "EUR"}); err != nil {
					return err
				}
			}
			status := "paid"
			if back == 1 {
				status = "open"
			}
			inv := &store.Invoice{ID: newSeedID(), CustomerID: c.id, Number: "INV-" + period + "-" + []string{"ACME", "GLOBEX"}[ci],
				Period: period, Currency: "EUR", TotalCents: total, Status: status, IssuedAt: m.AddDate(0, 1, 0),
				DueAt: m.AddDate(0, 1, 14)}
			if err := st.CreateInvoice(ctx, inv); err != nil {
				return err
			}
			if status == "paid" {
				if err := st.CreatePayment(ctx, &store.Payment{ID: newSeedID(), CustomerID: c.id, InvoiceID: inv.ID, AmountCents: total,
					Currency: "EUR", Method: "bank_transfer", Status: "succeeded", ReceivedAt: inv.IssuedAt.AddDate(0, 0, 7)}); err != nil {
					return err
				}
			}
		}
	}
	if err := st.CreateCredit(ctx, &store.Credit{ID: newSeedID(), CustomerID: DemoGlobexCustomerID, Kind: store.CreditAdjustment, AmountCents: 25_00,
		Currency: "EUR", Reason: "Service credit for the March outage", IssuedBy: "seed", IssuedAt: now}); err != nil {
		return err
	}
	return st.CreateDiscrepancy(ctx, &store.Discrepancy{ID: newSeedID(), Kind: "billing_mismatch", CustomerID: DemoGlobexCustomerID,
		Resource: "invoices", Summary: "Invoice total differs from metered usage by 0.40 EUR", Status: store.DiscrepancyOpen,
		DetectedAt: now})
}

func newSeedID() string { return uuid.NewString() }
