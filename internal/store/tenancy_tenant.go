package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/authz"
)

// Tenant is one tenant of a customer; InstanceID is the instance it runs
// on, empty for none.
type Tenant struct {
	ID         string
	CustomerID string
	InstanceID string
	Name       string
	Settings   json.RawMessage
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// CreateTenant stores a tenant; an empty Settings is stored as {}.
// ECONFLICT when the id is taken.
func (s *Tenancy) CreateTenant(ctx context.Context, t *Tenant) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenants (id, customer_id, instance_id, name, settings, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6)`, t.ID, t.CustomerID, nullString(t.InstanceID), t.Name, settingsText(t.Settings),
		t.CreatedAt.UTC())
	return wrap(err, "tenant")
}

// Tenant returns one tenant. ENOTFOUND when missing.
func (s *Tenancy) Tenant(ctx context.Context, id string) (*Tenant, error) {
	return tenants.get(ctx, s.db, id)
}

const tenantColumns = `id, customer_id, COALESCE(instance_id, ''), name, settings, created_at, updated_at`

var tenants = table[Tenant]{"tenants", "tenant", tenantColumns, scanTenant}

func scanTenant(r Row) (Tenant, error) {
	var t Tenant
	var settings string
	var upd sql.NullTime
	err := r.Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name, &settings, &t.CreatedAt, &upd)
	t.Settings, t.UpdatedAt = rawJSON(settings), orTime(upd, t.CreatedAt)
	return t, err
}

func scanBriefTenant(r Row) (Tenant, error) {
	var t Tenant
	err := r.Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name)
	return t, err
}

// TenantQuery selects tenants: within Scope, optionally of one customer
// and one instance, one page by (name, id).
type TenantQuery struct {
	Scope      authz.Filter
	CustomerID string
	InstanceID string
	Search     string // only tenants whose name contains it (case-insensitive)
	Page       PageQuery
	Detail     Detail // Brief: id, customer, instance and name only
}

// ListTenants lists tenants by (name, id), the scope applied in SQL, and
// returns the cursor of the next page ("" on the last).
func (s *Tenancy) ListTenants(ctx context.Context, q TenantQuery) ([]Tenant, string, error) {
	if q.Scope.Empty() {
		return nil, "", nil
	}
	args := []any{q.CustomerID, q.InstanceID}
	cond := `($1 = '' OR customer_id = $1) AND ($2 = '' OR instance_id = $2) AND ` + scopeCondition(&args, q.Scope, "customer_id", "instance_id") +
		` AND ` + containsCondition(&args, q.Search, "name")
	selectFrom, scan := tenants.selectFrom(), scanTenant
	if q.Detail == Brief {
		selectFrom, scan = `SELECT id, customer_id, COALESCE(instance_id, ''), name FROM tenants`, scanBriefTenant
	}
	return keysetPage(ctx, s.db, q.Page, selectFrom, cond, args, "name", "id", scan,
		func(t *Tenant) (string, string) { return t.Name, t.ID })
}

// TenantsByIDs returns the tenants of ids that exist (a dataloader batch).
func (s *Tenancy) TenantsByIDs(ctx context.Context, ids []string) ([]Tenant, error) {
	return byIDs(ctx, s.db, scanTenant, tenants.selectFrom(), "id", ids)
}

// UpdateTenant sets a tenant's name (when not empty) and settings (when not
// nil). ENOTFOUND.
func (s *Tenancy) UpdateTenant(ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error {
	return s.updateNamed(ctx, "tenants", "tenant", id, name, settings, now)
}

// MoveTenant gives a tenant another customer and instance (instanceID ""
// for none). ENOTFOUND.
func (s *Tenancy) MoveTenant(ctx context.Context, id, customerID, instanceID string, now time.Time) error {
	return s.execOne(ctx, "tenant", `UPDATE tenants SET customer_id = $2, instance_id = $3, updated_at = $4 WHERE id = $1`,
		id, customerID, nullString(instanceID), now.UTC())
}

// DeleteTenant removes a tenant and its data. ENOTFOUND.
func (s *Tenancy) DeleteTenant(ctx context.Context, id string) error {
	return tenants.delete(ctx, s.querier, id)
}

// TenantFilter selects tenants: those within Scope (the caller's, from
// authz.Scope.Filter), only TenantID when it is set.
type TenantFilter struct {
	TenantID string
	// TenantIDs, when not nil, keeps only these tenants (none when empty).
	TenantIDs []string
	Scope     authz.Filter
}

// where returns the SQL condition on tenants aliased t that f selects, with
// its arguments appended to args; false when f selects no tenant at all.
func (f TenantFilter) where(args *[]any) (string, bool) {
	if f.Scope.Empty() {
		return "", false
	}
	cond := scopeCondition(args, f.Scope, "t.customer_id", "t.instance_id")
	if f.TenantID != "" {
		cond += ` AND t.id = ` + arg(args, f.TenantID)
	}
	if f.TenantIDs != nil {
		if len(f.TenantIDs) == 0 {
			return "", false
		}
		cond += ` AND t.id IN (` + placeholders(args, f.TenantIDs) + `)`
	}
	return cond, true
}
