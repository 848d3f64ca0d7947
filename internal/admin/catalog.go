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
	if err := s.infra(ctx, c, OpPlanList); err != nil {
		return nil, err
	}
	rows, err := s.store.Plans(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newPlanView)), nil
}

// CreatePlan adds a plan. EINVALID; ECONFLICT when the code is taken.
func (s *catalog) CreatePlan(ctx context.Context, c *access.Caller, in PlanInput) (*PlanView, error) {
	if err := s.infra(ctx, c, OpPlanCreate); err != nil {
		return nil, err
	}
	now := s.stamp()
	p := &store.Plan{ID: newID(), Active: true, CreatedAt: now, UpdatedAt: now}
	var err error
	if p.Code, err = catalogKey("code", in.Code); err != nil {
		return nil, err
	}
	if p.Name, err = required("name", in.Name, 200); err != nil {
		return nil, err
	}
	if p.Description, err = text("description", in.Description, 2000); err != nil {
		return nil, err
	}
	if p.Currency, err = currency("currency", in.Currency); err != nil {
		return nil, err
	}
	if p.MonthlyFeeCents, err = cents("monthlyFee", in.MonthlyFee); err != nil {
		return nil, err
	}
	if in.Active != nil {
		p.Active = *in.Active
	}
	if in.Public != nil {
		p.Public = *in.Public
	}
	err = s.audited(ctx, c, OpPlanCreate, on("", "plans", p.ID), func(tx *store.Store) error { return tx.CreatePlan(ctx, p) })
	if err != nil {
		return nil, err
	}
	return newPlanView(p), nil
}

// Plan returns one plan. ENOTFOUND.
func (s *catalog) Plan(ctx context.Context, c *access.Caller, id string) (*PlanView, error) {
	if err := s.infra(ctx, c, OpPlanGet); err != nil {
		return nil, err
	}
	p, err := s.store.Plan(ctx, id)
	if err != nil {
		return nil, err
	}
	return newPlanView(p), nil
}

// UpdatePlan changes a plan. EINVALID, ENOTFOUND.
func (s *catalog) UpdatePlan(ctx context.Context, c *access.Caller, id string, in PlanPatch) (*PlanView, error) {
	if err := s.infra(ctx, c, OpPlanUpdate); err != nil {
		return nil, err
	}
	p, err := auditedRow(ctx, s.core, c, OpPlanUpdate, on("", "plans", id), func(tx *store.Store) (*store.Plan, error) {
		return tx.UpdatePlan(ctx, id, func(p *store.Plan) error { return s.patchPlan(p, in) })
	})
	if err != nil {
		return nil, err
	}
	return newPlanView(p), nil
}

// patchPlan applies in to p. EINVALID.
func (s *catalog) patchPlan(p *store.Plan, in PlanPatch) error {
	var err error
	if in.Name != nil {
		if p.Name, err = required("name", *in.Name, 200); err != nil {
			return err
		}
	}
	if in.Description != nil {
		if p.Description, err = text("description", *in.Description, 2000); err != nil {
			return err
		}
	}
	if in.Currency != nil {
		if p.Currency, err = currency("currency", *in.Currency); err != nil {
			return err
		}
	}
	if in.MonthlyFee != nil {
		if p.MonthlyFeeCents, err = cents("monthlyFee", *in.MonthlyFee); err != nil {
			return err
		}
	}
	if in.Active != nil {
		p.Active = *in.Active
	}
	if in.Public != nil {
		p.Public = *in.Public
	}
	p.UpdatedAt = s.stamp()
	return nil
}

// DeletePlan removes a plan; billing setups on it keep no plan. ENOTFOUND.
func (s *catalog) DeletePlan(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, OpPlanDelete); err != nil {
		return err
	}
	return s.audited(ctx, c, OpPlanDelete, on("", "plans", id), func(tx *store.Store) error { return tx.DeletePlan(ctx, id) })
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
	if err := s.infra(ctx, c, OpMeterList); err != nil {
		return nil, err
	}
	rows, err := s.store.Meters(ctx)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newMeterView)), nil
}

// CreateMeter adds a meter. EINVALID; ECONFLICT when the key is taken.
func (s *catalog) CreateMeter(ctx context.Context, c *access.Caller, in MeterInput) (*MeterView, error) {
	if err := s.infra(ctx, c, OpMeterCreate); err != nil {
		return nil, err
	}
	now := s.stamp()
	m := &store.Meter{ID: newID(), CreatedAt: now, UpdatedAt: now}
	var err error
	if m.Key, err = catalogKey("key", in.Key); err != nil {
		return nil, err
	}
	if m.Name, err = required("name", in.Name, 200); err != nil {
		return nil, err
	}
	if m.Unit, err = required("unit", in.Unit, 50); err != nil {
		return nil, err
	}
	if m.Aggregation, err = oneOf("aggregation", in.Aggregation, "sum", "max"); err != nil {
		return nil, err
	}
	if m.Description, err = text("description", in.Description, 2000); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, OpMeterCreate, on("", "meters", m.ID), func(tx *store.Store) error { return tx.CreateMeter(ctx, m) })
	if err != nil {
		return nil, err
	}
	return newMeterView(m), nil
}

// Meter returns one meter. ENOTFOUND.
func (s *catalog) Meter(ctx context.Context, c *access.Caller, id string) (*MeterView, error) {
	if err := s.infra(ctx, c, OpMeterGet); err != nil {
		return nil, err
	}
	return viewing(newMeterView)(s.store.Meter(ctx, id))
}

// UpdateMeter changes a meter. EINVALID, ENOTFOUND.
func (s *catalog) UpdateMeter(ctx context.Context, c *access.Caller, id string, in MeterPatch) (*MeterView, error) {
	if err := s.infra(ctx, c, OpMeterUpdate); err != nil {
		return nil, err
	}
	return viewing(newMeterView)(auditedRow(ctx, s.core, c, OpMeterUpdate, on("", "meters", id), func(tx *store.Store) (*store.Meter, error) {
		return tx.UpdateMeter(ctx, id, func(m *store.Meter) error { return s.patchMeter(m, in) })
	}))
}

// patchMeter applies in to m. EINVALID.
func (s *catalog) patchMeter(m *store.Meter, in MeterPatch) error {
	var err error
	if in.Name != nil {
		if m.Name, err = required("name", *in.Name, 200); err != nil {
			return err
		}
	}
	if in.Unit != nil {
		if m.Unit, err = required("unit", *in.Unit, 50); err != nil {
			return err
		}
	}
	if in.Aggregation != nil {
		if m.Aggregation, err = oneOf("aggregation", *in.Aggregation, "sum", "max"); err != nil {
			return err
		}
	}
	if in.Description != nil {
		if m.Description, err = text("description", *in.Description, 2000); err != nil {
			return err
		}
	}
	m.UpdatedAt = s.stamp()
	return nil
}

// DeleteMeter removes a meter without recorded usage. ENOTFOUND; ECONFLICT
// when usage was recorded on it.
func (s *catalog) DeleteMeter(ctx context.Context, c *access.Caller, id string) error {
	if err := s.infra(ctx, c, OpMeterDelete); err != nil {
		return err
	}
	return s.audited(ctx, c, OpMeterDelete, on("", "meters", id), func(tx *store.Store) error { return tx.DeleteMeter(ctx, id) })
}
