package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// MasterRecordsByIDs returns the records of ids among the tenants f
// selects, with their masters, in one statement (the GraphQL subgraph's
// batched MasterRecord entity resolver). Missing and unreadable records
// are left out; the order is unspecified.
func (s *Store) MasterRecordsByIDs(ctx context.Context, ids []string, f TenantFilter) ([]MasterRecord, map[string]*Master, error) {
	masters := map[string]*Master{}
	if len(ids) == 0 {
		return nil, masters, nil
	}
	var args []any
	in := placeholders(&args, ids)
	cond, ok := f.where(&args)
	if !ok {
		return nil, masters, nil
	}
	rows, err := s.db.Query(ctx, `SELECT m.id, m.tenant_id, m.name, m.fields, m.created_at,
			r.id, r.master_id, r.tenant_id, r.project_id, r.parent_id, r.slug, r.ref_id,
			r.custom_fields, r.created_by, r.created_at, r.is_deleted
		FROM master_records r JOIN masters m ON m.id = r.master_id JOIN tenants t ON t.id = r.tenant_id
		WHERE r.id IN (`+in+`) AND `+cond, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []MasterRecord
	for rows.Next() {
		var m Master
		var fields string
		r, ok, err := scanRecord(rows, &m.ID, &m.TenantID, &m.Name, &fields, &m.CreatedAt)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if _, seen := masters[m.ID]; !seen {
			if err := json.Unmarshal([]byte(fields), &m.Fields); err != nil {
				return nil, nil, fmt.Errorf("master %s: fields: %w", m.ID, err)
			}
			masters[m.ID] = &m
		}
		out = append(out, r)
	}
	return out, masters, rows.Err()
}
