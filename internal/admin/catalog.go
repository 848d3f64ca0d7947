package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

// catalog manages the catalog of plans and meters.
type catalog struct{ *core }

// PlanView is a plan as the API shows it; monthlyFee in major units.
type PlanView struct {
	ID          string    `json:"id"`
	Code        string    `json:"code"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Currency    string    `json:"currency"`
	MonthlyFee  float64   `json:"monthlyFee"`
	Active      bool      `json:"active"`
	Public      bool      `json:"public"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func newPlanView(p *store.Plan) *PlanView {
	return &PlanView{ID: p.ID, Code: p.Code, Name: p.Name, Description: p.Description, Currency: p.Currency,
		MonthlyFee: major(p.MonthlyFeeCents), Active: p.Active, Public: p.Public, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// PlanInput creates a plan. Code is a lower-case key (a-z, 0-9, _), unique;
// Active defaults to true, Public (offered to customers, who may then
// choose it themselves) to false.
type PlanInput struct {
	Code        string  `json:"code"`
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Currency    string  `json:"currency"`
	MonthlyFee  float64 `json:"monthlyFee"`
	Active      *bool   `json:"active,omitempty"`
	Public      *bool   `json:"public,omitempty"`
}

// PlanPatch changes a plan; nil fields stay (the code never changes).
type PlanPatch struct {
	Name        *string  `json:"name,omitempty"`
	Description *string  `json:"description,omitempty"`
	Currency    *string  `json:"currency,omitempty"`
	MonthlyFee  *float64 `json:"monthlyFee,omitempty"`
	Active      *bool    `json:"active,omitempty"`
	Public      *bool    `json:"public,omitempty"`
}

// ListPlans lists the plans by code.
func (s *catalog) ListPlans(ctx context.Context, c *access.Caller) (*Page[*PlanView], error) {
	return infraList(ctx, s.core, c, OpPlanList, s.store.Plans, newPlanView)
}

// CreatePlan adds a plan. EINVALID; ECONFLICT when the code is taken.
func (s *catalog) CreatePlan(ctx context.Context, c *access.Caller, in PlanInput) (*PlanView, error) {
	now := s.stamp()
	p := &store.Plan{ID: newID(), Active: true, CreatedAt: now}
	return infraCreate(ctx, s.core, c, OpPlanCreate, on("", "plans", p.ID), p, func() (err error) {
		if p.Code, err = catalogKey("code", in.Code); err == nil {
			err = patchPlan(p, PlanPatch{Name: &in.Name, Description: &in.Description, Currency: &in.Currency,
				MonthlyFee: &in.MonthlyFee, Active: in.Active, Public: in.Public}, now)
		}
		return err
	}, (*store.Store).CreatePlan, newPlanView)
}

// Plan returns one plan. ENOTFOUND.
func (s *catalog) Plan(ctx context.Context, c *access.Caller, id string) (*PlanView, error) {
	return infraGet(ctx, s.core, c, OpPlanGet, id, s.store.Plan, newPlanView)
}

// UpdatePlan changes a plan. EINVALID, ENOTFOUND.
func (s *catalog) UpdatePlan(ctx context.Context, c *access.Caller, id string, in PlanPatch) (*PlanView, error) {
	return infraChange(ctx, s.core, c, OpPlanUpdate, on("", "plans", id), id, (*store.Store).UpdatePlan,
		func(p *store.Plan) error { return patchPlan(p, in, s.stamp()) }, newPlanView)
}

// patchPlan applies in to p, changed at now. EINVALID.
func patchPlan(p *store.Plan, in PlanPatch, now time.Time) error {
	var f fields
	f.required(&p.Name, "name", in.Name, 200)
	f.text(&p.Description, "description", in.Description, 2000)
	f.currency(&p.Currency, "currency", in.Currency)
	f.cents(&p.MonthlyFeeCents, "monthlyFee", in.MonthlyFee)
	set(&p.Active, in.Active)
	set(&p.Public, in.Public)
	p.UpdatedAt = now
	return f.err
}

// DeletePlan removes a plan; billing setups on it keep no plan. ENOTFOUND.
func (s *catalog) DeletePlan(ctx context.Context, c *access.Caller, id string) error {
	return s.infraWrite(ctx, c, OpPlanDelete, on("", "plans", id), func(tx *store.Store) error { return tx.DeletePlan(ctx, id) })
}

// MeterInput creates a meter. Key is a lower-case key, unique; aggregation
// is sum or max.
type MeterInput struct {
	Key         string `json:"key"`
	Name        string `json:"name"`
	Unit        string `json:"unit"`
	Aggregation string `json:"aggregation"`
	Description string `json:"description,omitempty"`
}

// MeterPatch changes a meter; nil fields stay (the key never changes).
type MeterPatch struct {
	Name        *string `json:"name,omitempty"`
	Unit        *string `json:"unit,omitempty"`
	Aggregation *string `json:"aggregation,omitempty"`
	Description *string `json:"description,omitempty"`
}

// MeterView is a meter as the API shows it.
type MeterView struct {
	ID          string    `json:"id"`
	Key         string    `json:"key"`
	Name        string    `json:"name"`
	Unit        string    `json:"unit"`
	Aggregation string    `json:"aggregation"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func newMeterView(m *store.Meter) *MeterView {
	return &MeterView{ID: m.ID, Key: m.Key, Name: m.Name, Unit: m.Unit, Aggregation: m.Aggregation,
		Description: m.Description, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

// ListMeters lists the meters by key.
func (s *catalog) ListMeters(ctx context.Context, c *access.Caller) (*Page[*MeterView], error) {
	return infraList(ctx, s.core, c, OpMeterList, s.store.Meters, newMeterView)
}

// CreateMeter adds a meter. EINVALID; ECONFLICT when the key is taken.
func (s *catalog) CreateMeter(ctx context.Context, c *access.Caller, in MeterInput) (*MeterView, error) {
	now := s.stamp()
	m := &store.Meter{ID: newID(), CreatedAt: now}
	return infraCreate(ctx, s.core, c, OpMeterCreate, on("", "meters", m.ID), m, func() (err error) {
		if m.Key, err = catalogKey("key", in.Key); err == nil {
			err = patchMeter(m, MeterPatch{Name: &in.Name, Unit: &in.Unit, Aggregation: &in.Aggregation, Description: &in.Description}, now)
		}
		return err
	}, (*store.Store).CreateMeter, newMeterView)
}

// Meter returns one meter. ENOTFOUND.
func (s *catalog) Meter(ctx context.Context, c *access.Caller, id string) (*MeterView, error) {
	return infraGet(ctx, s.core, c, OpMeterGet, id, s.store.Meter, newMeterView)
}

// UpdateMeter changes a meter. EINVALID, ENOTFOUND.
func (s *catalog) UpdateMeter(ctx context.Context, c *access.Caller, id string, in MeterPatch) (*MeterView, error) {
	return infraChange(ctx, s.core, c, OpMeterUpdate, on("", "meters", id), id, (*store.Store).UpdateMeter,
		func(m *store.Meter) error { return patchMeter(m, in, s.stamp()) }, newMeterView)
}

// patchMeter applies in to m, changed at now. EINVALID.
func patchMeter(m *store.Meter, in MeterPatch, now time.Time) error {
	var f fields
	f.required(&m.Name, "name", in.Name, 200)
	f.required(&m.Unit, "unit", in.Unit, 50)
	f.oneOf(&m.Aggregation, "aggregation", in.Aggregation, "sum", "max")
	f.text(&m.Description, "description", in.Description, 2000)
	m.UpdatedAt = now
	return f.err
}

// DeleteMeter removes a meter without recorded usage. ENOTFOUND; ECONFLICT
// when usage was recorded on it.
func (s *catalog) DeleteMeter(ctx context.Context, c *access.Caller, id string) error {
	return s.infraWrite(ctx, c, OpMeterDelete, on("", "meters", id), func(tx *store.Store) error { return tx.DeleteMeter(ctx, id) })
}
