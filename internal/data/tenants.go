package data

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
)

// Me is the caller as the data API sees it.
type Me struct {
	UserID     string `json:"userId"`
	Role       string `json:"role"`
	CustomerID string `json:"customerId,omitempty"`
}

// TenantView is a tenant the caller may read, with what the web app shows of it.
type TenantView struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	CustomerID string `json:"customerId"`
	// CanUpload says whether the caller may upload cx data into this tenant's schedules.
	CanUpload bool           `json:"canUpload"`
	Projects  []ProjectView  `json:"projects"`
	Masters   []MasterView   `json:"masters"`
	Schedules []ScheduleView `json:"schedules"`
}

// ProjectView is a project of a tenant.
type ProjectView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// MasterView is a master of a tenant and its number of records not marked deleted.
type MasterView struct {
	Name        string `json:"name"`
	RecordCount int    `json:"recordCount"`
}

// ScheduleView is a cx schedule of a tenant and its number of rows.
type ScheduleView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	ProjectID string `json:"projectId"`
	RowCount  int    `json:"rowCount"`
}

// MyTenants is the answer of GET /api/v1/me/tenants. Truncated says that
// the caller may read more tenants than the answer holds (MaxMyTenants).
type MyTenants struct {
	User      Me           `json:"user"`
	Tenants   []TenantView `json:"tenants"`
	Truncated bool         `json:"truncated"`
}

// MaxMyTenants bounds the tenants one answer of MyTenants holds, each with
// its projects, masters and schedules (D-request-bounds): an unscoped
// internal role reads every tenant of the platform.
const MaxMyTenants = 500

// MyTenants returns the tenants c may read (D-data-access), ordered by
// name, at most MaxMyTenants of them, with their projects, masters and
// schedules. A caller who may read no tenant gets an empty list.
// EUNAUTHORIZED without a caller.
func (s *Service) MyTenants(ctx context.Context, c *access.Caller) (*MyTenants, error) {
	if c == nil {
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
	}
	f, err := s.readable(ctx, c, "")
	if err != nil {
		return nil, err
	}
	sums, more, err := s.store.TenantSummaries(ctx, f, s.maxTenants)
	if err != nil {
		return nil, err
	}
	out := &MyTenants{User: Me{UserID: c.UserID, Role: c.Role.String(), CustomerID: c.CustomerID},
		Tenants: make([]TenantView, 0, len(sums)), Truncated: more}
	for _, t := range sums {
		v := TenantView{ID: t.ID, Name: t.Name, CustomerID: t.CustomerID, CanUpload: s.mayUpload(c, t.CustomerID),
			Projects: make([]ProjectView, 0, len(t.Projects)), Masters: make([]MasterView, 0, len(t.Masters)),
			Schedules: make([]ScheduleView, 0, len(t.Schedules))}
		for _, p := range t.Projects {
			v.Projects = append(v.Projects, ProjectView{ID: p.ID, Name: p.Name})
		}
		for _, m := range t.Masters {
			v.Masters = append(v.Masters, MasterView{Name: m.Name, RecordCount: m.Records})
		}
		for _, sc := range t.Schedules {
			v.Schedules = append(v.Schedules, ScheduleView{ID: sc.ID, Name: sc.Name, ProjectID: sc.ProjectID, RowCount: sc.Rows})
		}
		out.Tenants = append(out.Tenants, v)
	}
	return out, nil
}
