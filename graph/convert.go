package graph

import (
	"context"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// caller returns the request's caller; EUNAUTHORIZED without one.
func caller(ctx context.Context) (*access.Caller, error) {
	if c := access.From(ctx); c != nil {
		return c, nil
	}
	return nil, platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
}

// errConsoleField answers a field of the admin service where it does not
// run: only the console subgraph and the whole graph have such fields, and
// both run it (D-graphql-subgraphs).
var errConsoleField = platform.Errorf(platform.EINTERNAL, "the admin service is not configured")

// adminService returns the admin service.
func (r *Resolver) adminService() (*admin.Service, error) {
	if r.Admin == nil {
		return nil, errConsoleField
	}
	return r.Admin, nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// timeOf is an optional time argument: the zero time when absent.
func timeOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

func num(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func flag(p *bool) bool { return p != nil && *p }

// pageInput is a list's first (within limits) and after as the admin
// service pages.
func pageInput(limits platform.PageLimit, first *int, after *string) (admin.PageInput, error) {
	n, err := limits.Arg("first", first)
	return admin.PageInput{Limit: n, Cursor: str(after)}, err
}

// selects reports whether the current field's selection reaches path
// (field names, through fragments), e.g. selects(ctx, "items", "customer").
func selects(ctx context.Context, path ...string) bool {
	return len(selected(ctx, path...)) > 0
}

// selected returns the fields the current field's selection reaches along
// path (field names, through fragments), each alias of the last once.
func selected(ctx context.Context, path ...string) []graphql.CollectedField {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || len(path) == 0 {
		return nil
	}
	op := graphql.GetOperationContext(ctx)
	set := fc.Field.Selections
	var found []graphql.CollectedField
	for _, name := range path {
		var next ast.SelectionSet
		found = nil
		for _, f := range graphql.CollectFields(op, set, nil) {
			if f.Name == name {
				found = append(found, f)
				next = append(next, f.Selections...)
			}
		}
		if len(found) == 0 {
			return nil
		}
		set = next
	}
	return found
}

// me builds the caller's permissions (D-me-permissions), as
// GET /api/v1/me/permissions shows them.
func (r *Resolver) me(c *access.Caller) *model.Me {
	m := &model.Me{ID: c.UserID, UserID: c.UserID, Role: c.Role.String(), Scope: scopeOf(admin.ScopeView{Source: c.Scope.Source,
		Mode: c.Scope.Mode, CustomerIDs: c.Scope.CustomerIDs, InstanceIDs: c.Scope.InstanceIDs}),
		Actions: []*model.ActionGrant{}, Permissions: []model.Permission{}, Writable: []model.Permission{}}
	if c.CustomerID != "" {
		id := c.CustomerID
		m.CustomerID = &id
	}
	cat := r.Access.Catalog()
	for _, a := range cat.AllowedOf(&c.Principal) {
		name := strings.ToUpper(a.String())
		acc := cat.AccessOf(&c.Principal, a)
		m.Actions = append(m.Actions, &model.ActionGrant{Action: model.Action(name), Access: acc.String()})
		m.Permissions = append(m.Permissions, model.Permission(name))
		if acc == authz.AccessFull {
			m.Writable = append(m.Writable, model.Permission(name))
		}
	}
	return m
}

func scopeOf(s admin.ScopeView) *model.Scope {
	out := &model.Scope{Source: s.Source, Mode: s.Mode.String(), CustomerIds: s.CustomerIDs, InstanceIds: s.InstanceIDs}
	if out.CustomerIds == nil {
		out.CustomerIds = []string{}
	}
	if out.InstanceIds == nil {
		out.InstanceIds = []string{}
	}
	return out
}

// adminCaller returns the admin service and the request's caller.
func (r *Resolver) adminCaller(ctx context.Context) (*admin.Service, *access.Caller, error) {
	svc, err := r.adminService()
	if err != nil {
		return nil, nil, err
	}
	c, err := caller(ctx)
	if err != nil {
		return nil, nil, err
	}
	return svc, c, nil
}

// done answers a mutation that returns nothing but success.
func done(err error) (*bool, error) {
	if err != nil {
		return nil, err
	}
	t := true
	return &t, nil
}

// holds reports whether c's role holds act at all: entity lookups, like
// lists, answer null for what the caller may not read instead of refusing.
func (r *Resolver) holds(c *access.Caller, act authz.Action) bool {
	return r.Access.Catalog().AccessOf(&c.Principal, act) != authz.AccessNone
}

// profile loads the caller's e-mail and name once per request.
func (r *Resolver) profile(ctx context.Context, m *model.Me) (*admin.Profile, error) {
	l := loadersFrom(ctx)
	if l == nil {
		return nil, errConsoleField
	}
	return l.profile.Load(ctx, m.UserID)()
}
