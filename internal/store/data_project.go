package store

import (
	"context"
	"time"
)

// Project is a project of a tenant.
type Project struct {
	ID        string
	TenantID  string
	Name      string
	CreatedAt time.Time
}

// projectColumns are the columns of projects (aliased p) in Project's order.
const projectColumns = `p.id, p.tenant_id, p.name, p.created_at`

func scanProject(r Row) (Project, error) {
	var p Project
	return p, r.Scan(&p.ID, &p.TenantID, &p.Name, &p.CreatedAt)
}

// CreateProject stores a project. ECONFLICT when the id is taken.
func (s *Data) CreateProject(ctx context.Context, p *Project) error {
	_, err := s.db.Exec(ctx, `INSERT INTO projects (id, tenant_id, name, created_at) VALUES ($1, $2, $3, $4)`,
		p.ID, p.TenantID, p.Name, p.CreatedAt.UTC())
	return wrap(err, "project")
}
