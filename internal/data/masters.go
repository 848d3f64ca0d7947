package data

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Query selects a page of a master's records (D-master). The zero Query is
// the first page of DefaultPageSize records in creation order, without
// deleted records.
type Query struct {
	Page     int // from 1; 0 means 1
	PageSize int // 1 to MaxPageSize; 0 means DefaultPageSize
	// TenantID keeps the records of one tenant; ProjectID of one project.
	TenantID  string
	ProjectID string
	// ParentID keeps the children of one record; RootsOnly the records
	// without a parent. They exclude each other.
	ParentID  string
	RootsOnly bool
	// IncludeDeleted adds records marked deleted.
	IncludeDeleted bool
	// Sort is createdAt (the default), slug, refId or customFields.<key>, a
	// leading '-' for descending order; ties are broken by id.
	Sort string
}

// Page is one page of a listing (R2.2-envelope).
type Page struct {
	Rows       []Record `json:"rows"`
	Total      int      `json:"total"`
	Page       int      `json:"page"`
	PageSize   int      `json:"pageSize"`
	TotalPages int      `json:"totalPages"`
}

// UnknownMasterError is a listing of a master that none of the tenants the
// caller may read has. It unwraps to ENOTFOUND; the REST API answers it with
// 500 Service Exception for legacy clients (R7.2-master).
type UnknownMasterError struct{ Name string }

func (e *UnknownMasterError) Error() string { return fmt.Sprintf("Master %q not found", e.Name) }

// Unwrap gives the error its code, ENOTFOUND.
func (e *UnknownMasterError) Unwrap() error {
	return platform.Errorf(platform.ENOTFOUND, "%s", e.Error())
}

// normalize fills in defaults and checks q. EINVALID names every problem.
func (q *Query) normalize() error {
	if q.Page == 0 {
		q.Page = 1
	}
	if q.PageSize == 0 {
		q.PageSize = platform.RecordPages.Default
	}
	return invalid("the listing parameters are not valid", q.problems())
}

// problems lists what is wrong with a normalized q.
func (q *Query) problems() []string {
	var problems []string
	for _, err := range []error{platform.RecordPageNumbers.Check("page", q.Page), platform.RecordPages.Check("pageSize", q.PageSize)} {
		if err != nil {
			problems = append(problems, platform.ErrorMessage(err))
		}
	}
	return append(problems, q.filterProblems()...)
}

// filterProblems lists what is wrong with q's filters and sort.
func (q *Query) filterProblems() []string {
	var problems []string
	if q.RootsOnly && q.ParentID != "" {
		problems = append(problems, "parentID selects either the children of one record or, as null, the records without a parent")
	}
	for name, v := range map[string]string{"tenantID": q.TenantID, "projectID": q.ProjectID, "parentID": q.ParentID} {
		if len(v) > 128 {
			problems = append(problems, name+" is longer than 128 characters")
		}
	}
	if _, err := parseSort(q.Sort); err != nil {
		problems = append(problems, err.Error())
	}
	return problems
}

// invalid returns nil without problems, else EINVALID with one detail per problem.
func invalid(msg string, problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	slices.Sort(problems)
	e := platform.Errorf(platform.EINVALID, "%s", msg)
	e.Details = problems
	return e
}

// parseSort reads Query.Sort; the custom field's type is filled in later.
func parseSort(s string) (store.RecordSort, error) {
	var srt store.RecordSort
	field := s
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		srt.Desc, field = true, rest
	}
	switch field {
	case "", "createdAt":
		srt.Field = store.SortCreatedAt
	case "slug":
		srt.Field = store.SortSlug
	case "refId":
		srt.Field = store.SortRefID
	default:
		key, ok := strings.CutPrefix(field, "customFields.")
		if !ok || key == "" {
			return srt, fmt.Errorf("sort must be createdAt, slug, refId or customFields.<key>, with a leading - for descending order; %q is none of these", s)
		}
		srt.Field, srt.Key = store.SortCustom, key
	}
	return srt, nil
}

// ListMasterRecords returns a page of the records of the master called
// name among the tenants c may read (D-master, D-data-access). The scope is
// applied in SQL; records of tenants outside it never count. Errors:
// EINVALID for bad parameters, *UnknownMasterError (ENOTFOUND) when no
// readable tenant (of q.TenantID, when given) has the master; EFORBIDDEN
// for a role that does not read tenant data.
func (s *Service) ListMasterRecords(ctx context.Context, c *access.Caller, name string, q Query) (*Page, error) {
	if err := q.normalize(); err != nil {
		return nil, err
	}
	f, err := s.readable(ctx, c, q.TenantID)
	if err != nil {
		return nil, err
	}
	masters, err := s.store.MastersByName(ctx, name, f)
	if err != nil {
		return nil, err
	}
	if len(masters) == 0 {
		return nil, &UnknownMasterError{Name: name}
	}
	srt, _ := parseSort(q.Sort)
	if srt.Field == store.SortCustom {
		for _, m := range masters {
			if f, ok := m.Field(srt.Key); ok {
				srt.Type = f.Type
				break
			}
		}
		if srt.Type == "" {
			return nil, invalid("the listing parameters are not valid",
				[]string{fmt.Sprintf("sort: master %s has no field %q", name, srt.Key)})
		}
	}
	byID := make(map[string]*store.Master, len(masters))
	rq := store.RecordQuery{ProjectID: q.ProjectID, ParentID: q.ParentID, RootsOnly: q.RootsOnly,
		IncludeDeleted: q.IncludeDeleted, Sort: srt, Limit: q.PageSize, Offset: (q.Page - 1) * q.PageSize}
	for i := range masters {
		byID[masters[i].ID] = &masters[i]
		rq.MasterIDs = append(rq.MasterIDs, masters[i].ID)
	}
	res, err := s.store.ListMasterRecords(ctx, rq)
	if err != nil {
		return nil, err
	}
	p := &Page{Rows: make([]Record, 0, len(res.Records)), Total: res.Total, Page: q.Page, PageSize: q.PageSize,
		TotalPages: (res.Total + q.PageSize - 1) / q.PageSize}
	for i := range res.Records {
		r := &res.Records[i]
		p.Rows = append(p.Rows, Record{ID: r.ID, MasterID: r.MasterID, CustomFields: projectFields(byID[r.MasterID], r.CustomFields),
			ParentID: r.ParentID, Slug: r.Slug, RefID: r.RefID, TenantID: r.TenantID, ProjectID: r.ProjectID,
			CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, IsDeleted: r.IsDeleted})
	}
	return p, nil
}
