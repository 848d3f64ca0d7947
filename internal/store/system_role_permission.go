package store

import (
	"context"

	"github.com/platform/platform/internal/authz"
)

// RolePermissions reads the permission catalog table (R5.7-catalog).
func (s *System) RolePermissions(ctx context.Context) ([]authz.Entry, error) {
	return queryAll(ctx, s.db, func(r Row) (authz.Entry, error) {
		var role, action, access string
		if err := r.Scan(&role, &action, &access); err != nil {
			return authz.Entry{}, err
		}
		return authz.ParseEntry(role, action, access)
	}, `SELECT role, action, access FROM role_permissions ORDER BY role, action`)
}
