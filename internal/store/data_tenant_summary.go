package store

import (
	"context"
	"slices"
)

// MasterSummary is a master with the number of its records not marked deleted.
type MasterSummary struct {
	ID       string
	TenantID string
	Name     string
	Records  int
}

// ScheduleSummary is a schedule with the number of its rows.
type ScheduleSummary struct {
	Schedule
	Rows int
}

// TenantSummary is a tenant with its projects, masters and schedules, each
// ordered by name.
type TenantSummary struct {
	Tenant
	Projects  []Project
	Masters   []MasterSummary
	Schedules []ScheduleSummary
}

// TenantSummaries returns the tenants f selects, ordered by name, at most
// limit of them (0: all), with their projects, masters and schedules, in
// four statements; more reports whether f selects more than limit.
func (s *Data) TenantSummaries(ctx context.Context, f TenantFilter, limit int) (out []TenantSummary, more bool, err error) {
	var args []any
	cond, ok := f.where(&args)
	if !ok {
		return []TenantSummary{}, false, nil
	}
	out = []TenantSummary{}
	index := map[string]int{}
	first := slices.Clone(args)
	page := ""
	if limit > 0 {
		page = ` LIMIT ` + arg(&first, limit+1)
	}
	err = s.each(ctx, `SELECT t.id, t.customer_id, COALESCE(t.instance_id, ''), t.name, t.created_at FROM tenants t
		WHERE `+cond+` ORDER BY t.name, t.id`+page, first,
		func(r Row) error {
			var t TenantSummary
			if err := r.Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name, &t.CreatedAt); err != nil {
				return err
			}
			t.Projects, t.Masters, t.Schedules = []Project{}, []MasterSummary{}, []ScheduleSummary{}
			index[t.ID] = len(out)
			out = append(out, t)
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, false, err
	}
	if limit > 0 && len(out) > limit {
		delete(index, out[limit].ID)
		out, more = out[:limit], true
		ids := make([]string, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		cond += ` AND t.id IN (` + placeholders(&args, ids) + `)`
	}
	err = s.each(ctx, `SELECT p.id, p.tenant_id, p.name, p.created_at FROM projects p JOIN tenants t ON t.id = p.tenant_id
		WHERE `+cond+` ORDER BY p.name, p.id`, args, func(r Row) error {
		var p Project
		if err := r.Scan(&p.ID, &p.TenantID, &p.Name, &p.CreatedAt); err != nil {
			return err
		}
		t := &out[index[p.TenantID]]
		t.Projects = append(t.Projects, p)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	err = s.each(ctx, `SELECT m.id, m.tenant_id, m.name, m.live_records
		FROM masters m JOIN tenants t ON t.id = m.tenant_id WHERE `+cond+` ORDER BY m.name, m.id`, args, func(r Row) error {
		var m MasterSummary
		if err := r.Scan(&m.ID, &m.TenantID, &m.Name, &m.Records); err != nil {
			return err
		}
		t := &out[index[m.TenantID]]
		t.Masters = append(t.Masters, m)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	err = s.each(ctx, `SELECT sc.id, sc.tenant_id, sc.project_id, sc.name, sc.created_at, t.customer_id,
			(SELECT COUNT(*) FROM schedule_rows sr WHERE sr.schedule_id = sc.id)
		FROM schedules sc JOIN tenants t ON t.id = sc.tenant_id WHERE `+cond+` ORDER BY sc.name, sc.id`, args, func(r Row) error {
		var sc ScheduleSummary
		if err := r.Scan(&sc.ID, &sc.TenantID, &sc.ProjectID, &sc.Name, &sc.CreatedAt, &sc.CustomerID, &sc.Rows); err != nil {
			return err
		}
		t := &out[index[sc.TenantID]]
		t.Schedules = append(t.Schedules, sc)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, more, nil
}
