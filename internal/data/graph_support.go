package data

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// IsEntity marks Record as an Apollo Federation entity (MasterRecord) of
// the GraphQL subgraph (graph/, D-graphql), which binds its type to this one.
func (Record) IsEntity() {}

// RecordsByIDs returns the master records of ids in key order, nil where a
// record does not exist or belongs to a tenant c may not read
// (D-data-access): the GraphQL subgraph's batched entity resolver. One SQL
// statement.
func (s *Service) RecordsByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*Record, error) {
	out := make([]*Record, len(ids))
	if s.access.Catalog().AccessOf(&c.Principal, authz.ReadTenantData) == authz.AccessNone {
		return out, nil // a role that reads no tenant data resolves no record
	}
	recs, masters, err := s.store.MasterRecordsByIDs(ctx, ids, store.TenantFilter{Scope: c.Scope.Filter()})
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*Record, len(recs))
	for i := range recs {
		r := &recs[i]
		byID[r.ID] = &Record{ID: r.ID, MasterID: r.MasterID, CustomFields: projectFields(masters[r.MasterID], r.CustomFields),
			ParentID: r.ParentID, Slug: r.Slug, RefID: r.RefID, TenantID: r.TenantID, ProjectID: r.ProjectID,
			CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, IsDeleted: r.IsDeleted}
	}
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// TenantRef is a tenant c may read, as the GraphQL data subgraph resolves
// its Tenant entity, with the tenant's cx schedules.
type TenantRef struct {
	ID         string
	CustomerID string
	Schedules  []ScheduleView
}

// TenantsByIDs returns the tenants of ids c may read (D-data-access) in key
// order, nil for one that does not exist or that c may not read, so that a
// reference to another customer's tenant resolves to nothing: the data
// subgraph's batched entity resolver. A role that reads no tenant data
// resolves no tenant. Four SQL statements whatever the number of ids.
func (s *Service) TenantsByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*TenantRef, error) {
	out := make([]*TenantRef, len(ids))
	if s.access.Catalog().Access(c.Role, authz.ReadTenantData) == authz.AccessNone {
		return out, nil
	}
	sums, _, err := s.store.TenantSummaries(ctx, store.TenantFilter{TenantIDs: ids, Scope: c.Scope.Filter()}, 0)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*TenantRef, len(sums))
	for _, t := range sums {
		ref := &TenantRef{ID: t.ID, CustomerID: t.CustomerID, Schedules: make([]ScheduleView, 0, len(t.Schedules))}
		for _, sc := range t.Schedules {
			ref.Schedules = append(ref.Schedules, ScheduleView{ID: sc.ID, Name: sc.Name, ProjectID: sc.ProjectID, RowCount: sc.Rows})
		}
		byID[t.ID] = ref
	}
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}
