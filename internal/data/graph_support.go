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
