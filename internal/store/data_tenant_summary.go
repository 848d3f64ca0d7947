package store

import (
	"context"
	"slices"
)

// MasterSummary is a master with the number of its records not marked deleted.
type MasterSummary struct {
	Master
	Records int
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
	err = s.each(ctx, `SELECT `+tenantColumns+` FROM tenants t WHERE `+cond+` ORDER BY t.name, t.id`+page, first,
		func(r Row) error {
			t, err := scanTenant(r)
			if err != nil {
				return err
			}
			index[t.ID] = len(out)
			out = append(out, TenantSummary{Tenant: t, Projects: []Project{}, Masters: []MasterSummary{}, Schedules: []ScheduleSummary{}})
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
	err = attach(ctx, s.db, out, index, `SELECT `+projectColumns+` FROM projects p JOIN tenants t ON t.id = p.tenant_id
		WHERE `+cond+` ORDER BY p.name, p.id`, args, scanProject,
		func(p *Project) string { return p.TenantID }, func(t *TenantSummary) *[]Project { return &t.Projects })
	if err == nil {
		err = attach(ctx, s.db, out, index, `SELECT `+masterColumns+`, m.live_records FROM masters m JOIN tenants t ON t.id = m.tenant_id
			WHERE `+cond+` ORDER BY m.name, m.id`, args, func(r Row) (MasterSummary, error) {
			var m MasterSummary
			return m, scanMaster(r, &m.Master, &m.Records)
		}, func(m *MasterSummary) string { return m.TenantID }, func(t *TenantSummary) *[]MasterSummary { return &t.Masters })
	}
	if err == nil {
		err = attach(ctx, s.db, out, index, `SELECT `+scheduleColumns+`, (SELECT COUNT(*) FROM schedule_rows sr WHERE sr.schedule_id = sc.id)
			FROM schedules sc JOIN tenants t ON t.id = sc.tenant_id WHERE `+cond+` ORDER BY sc.name, sc.id`, args,
			func(r Row) (ScheduleSummary, error) {
				var sc ScheduleSummary
				return sc, r.Scan(append(scheduleDest(&sc.Schedule), &sc.Rows)...)
			}, func(sc *ScheduleSummary) string { return sc.TenantID }, func(t *TenantSummary) *[]ScheduleSummary { return &t.Schedules })
	}
	if err != nil {
		return nil, false, err
	}
	return out, more, nil
}

// attach reads the rows of query with scan and appends each to the list
// (picked by list) of the summary of its tenant (tenantID).
func attach[T any](ctx context.Context, db DB, out []TenantSummary, index map[string]int, query string, args []any,
	scan func(Row) (T, error), tenantID func(*T) string, list func(*TenantSummary) *[]T) error {
	rows, err := queryAll(ctx, db, scan, query, args...)
	if err != nil {
		return err
	}
	for i := range rows {
		l := list(&out[index[tenantID(&rows[i])]])
		*l = append(*l, rows[i])
	}
	return nil
}
