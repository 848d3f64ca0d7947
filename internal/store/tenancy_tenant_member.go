package store

import (
	"context"
	"time"
)

// TenantMember is a user's role in one tenant.
type TenantMember struct {
	TenantID string
	UserID   string
	Email    string
	Name     string
	Role     string
	AddedAt  time.Time
}

// PutTenantMember adds a member or changes its role. ENOTFOUND when the
// tenant or user does not exist.
func (s *Tenancy) PutTenantMember(ctx context.Context, m *TenantMember) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenant_members (tenant_id, user_id, role, added_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (tenant_id, user_id) DO UPDATE SET role = EXCLUDED.role`, m.TenantID, m.UserID, m.Role, m.AddedAt.UTC())
	return wrap(err, "tenant member")
}

// DeleteTenantMember removes a member. ENOTFOUND when it was none.
func (s *Tenancy) DeleteTenantMember(ctx context.Context, tenantID, userID string) error {
	return s.execOne(ctx, "tenant member", `DELETE FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, tenantID, userID)
}

// TenantMembers lists a tenant's members by e-mail.
func (s *Tenancy) TenantMembers(ctx context.Context, tenantID string) ([]TenantMember, error) {
	return queryAll(ctx, s.db, func(r Row) (TenantMember, error) {
		var m TenantMember
		err := r.Scan(&m.TenantID, &m.UserID, &m.Email, &m.Name, &m.Role, &m.AddedAt)
		return m, err
	}, `SELECT m.tenant_id, m.user_id, u.email, u.name, m.role, m.added_at
		FROM tenant_members m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 ORDER BY u.email, u.id`, tenantID)
}
