package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Plan is a price plan of the catalog.
type Plan struct {
	ID              string
	Code            string
	Name            string
	Description     string
	Currency        string
	MonthlyFeeCents int64
	Active          bool
	// Public: offered to customers, who may choose it for themselves while
	// it is active (D-credit-kinds).
	Public    bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

const planColumns = `id, code, name, description, currency, monthly_fee_cents, active, public, created_at, updated_at`

func scanPlan(r Row) (Plan, error) {
	var p Plan
	err := r.Scan(&p.ID, &p.Code, &p.Name, &p.Description, &p.Currency, &p.MonthlyFeeCents, &p.Active, &p.Public, &p.CreatedAt, &p.UpdatedAt)
	return p, err
}

var plans = table[Plan]{"plans", "plan", planColumns, scanPlan}

// CreatePlan stores a plan. ECONFLICT when the code is taken.
func (s *Billing) CreatePlan(ctx context.Context, p *Plan) error {
	return plans.insert(ctx, s.db, p.ID, p.Code, p.Name, p.Description, p.Currency, p.MonthlyFeeCents, p.Active, p.Public,
		p.CreatedAt.UTC(), p.UpdatedAt.UTC())
}

// Plan returns one plan. ENOTFOUND.
func (s *Billing) Plan(ctx context.Context, id string) (*Plan, error) {
	return plans.get(ctx, s.db, id)
}

// Plans lists the plans by code.
func (s *Billing) Plans(ctx context.Context) ([]Plan, error) {
	return plans.list(ctx, s.db, "TRUE", "code, id")
}

// UpdatePlan runs fn on the stored plan in a transaction and saves what fn
// leaves. ENOTFOUND.
func (s *Billing) UpdatePlan(ctx context.Context, id string, fn func(*Plan) error) (*Plan, error) {
	return plans.update(ctx, s.querier, id, fn, `name = $2, description = $3, currency = $4, monthly_fee_cents = $5,
		active = $6, public = $7, updated_at = $8`, func(p *Plan) []any {
		return []any{p.Name, p.Description, p.Currency, p.MonthlyFeeCents, p.Active, p.Public, p.UpdatedAt.UTC()}
	})
}

// DeletePlan removes a plan; billing setups on it are left without one. ENOTFOUND.
func (s *Billing) DeletePlan(ctx context.Context, id string) error {
	return plans.delete(ctx, s.querier, id)
}

// Meter is a usage meter of the catalog.
type Meter struct {
	ID          string
	Key         string
	Name        string
	Unit        string
	Aggregation string
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const meterColumns = `id, meter_key, name, unit, aggregation, description, created_at, updated_at`

func scanMeter(r Row) (Meter, error) {
	var m Meter
	err := r.Scan(&m.ID, &m.Key, &m.Name, &m.Unit, &m.Aggregation, &m.Description, &m.CreatedAt, &m.UpdatedAt)
	return m, err
}

var meters = table[Meter]{"meters", "meter", meterColumns, scanMeter}

// CreateMeter stores a meter. ECONFLICT when the key is taken.
func (s *Billing) CreateMeter(ctx context.Context, m *Meter) error {
	return meters.insert(ctx, s.db, m.ID, m.Key, m.Name, m.Unit, m.Aggregation, m.Description, m.CreatedAt.UTC(), m.UpdatedAt.UTC())
}

// Meter returns one meter. ENOTFOUND.
func (s *Billing) Meter(ctx context.Context, id string) (*Meter, error) {
	return meters.get(ctx, s.db, id)
}

// MeterByKey returns the meter with key. ENOTFOUND.
func (s *Billing) MeterByKey(ctx context.Context, key string) (*Meter, error) {
	return queryOne(ctx, s.db, "meter", scanMeter, meters.selectFrom()+` WHERE meter_key = $1`, key)
}

// Meters lists the meters by key.
func (s *Billing) Meters(ctx context.Context) ([]Meter, error) {
	return meters.list(ctx, s.db, "TRUE", "meter_key, id")
}

// UpdateMeter runs fn on the stored meter in a transaction and saves what
// fn leaves (the key never changes). ENOTFOUND.
func (s *Billing) UpdateMeter(ctx context.Context, id string, fn func(*Meter) error) (*Meter, error) {
	return meters.update(ctx, s.querier, id, fn, `name = $2, unit = $3, aggregation = $4, description = $5, updated_at = $6`,
		func(m *Meter) []any { return []any{m.Name, m.Unit, m.Aggregation, m.Description, m.UpdatedAt.UTC()} })
}

// DeleteMeter removes a meter that no usage row refers to. ENOTFOUND;
// ECONFLICT when usage was recorded on it.
func (s *Billing) DeleteMeter(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		var used bool
		if err := tx.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM usage_rows u JOIN meters m ON m.meter_key = u.meter_key
			WHERE m.id = $1)`, id).Scan(&used); err != nil {
			return err
		}
		if used {
			return platform.Errorf(platform.ECONFLICT, "usage was recorded on this meter; it cannot be deleted")
		}
		return meters.delete(ctx, &tx.querier, id)
	})
}
