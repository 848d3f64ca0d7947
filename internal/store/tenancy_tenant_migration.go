package store

import (
	"context"
	"time"
)

// TenantMigration is a migration run requested on a tenant.
type TenantMigration struct {
	ID            string
	TenantID      string
	TargetVersion string
	Status        string
	RequestedBy   string
	RequestedAt   time.Time
}

const tenantMigrationColumns = `id, tenant_id, target_version, status, requested_by, requested_at`

// CreateTenantMigration records a requested run.
func (s *Tenancy) CreateTenantMigration(ctx context.Context, m *TenantMigration) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenant_migrations (`+tenantMigrationColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`, m.ID, m.TenantID, m.TargetVersion, m.Status, m.RequestedBy, m.RequestedAt.UTC())
	return wrap(err, "tenant migration")
}

// TenantMigrations lists a tenant's runs, newest first.
func (s *Tenancy) TenantMigrations(ctx context.Context, tenantID string) ([]TenantMigration, error) {
	return queryAll(ctx, s.db, func(r Row) (TenantMigration, error) {
		var m TenantMigration
		err := r.Scan(&m.ID, &m.TenantID, &m.TargetVersion, &m.Status, &m.RequestedBy, &m.RequestedAt)
		return m, err
	}, `SELECT `+tenantMigrationColumns+` FROM tenant_migrations WHERE tenant_id = $1 ORDER BY requested_at DESC, id DESC`, tenantID)
}
