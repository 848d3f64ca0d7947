package graph

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph/generated"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The tenants page (D-graphql-page): a query whose one root field is
// tenants, selecting only the tenants' own fields, their customer's own
// fields and the customer's grants, is answered in place, in one pass over
// the three batches (tenants, customers, grants), written straight to JSON.
// gqlgen's executor would run the same statements and build, for each of
// the page's objects, a field set, a deferred group, a goroutine per list
// element and a context per field; here the page costs a fraction of that.
//
// The page answers only when the general executor would answer without an
// error: the caller holds the fields' @authz actions (on every customer
// whose grants it reads), every statement succeeds and every non-null
// field has a value. Anything else (another field, @defer, an argument it
// does not take, a refusal, a failure) goes to the executor, which answers
// it with its errors and paths; a refusal is seen before the first statement
// when the role decides it. graph/fastpage_test.go checks that both answer
// the same bytes, for every role of the fixtures.

// The fields the page serves, by type: all but the edges are plain fields
// of the model, without directives.
var (
	pageFields     = fieldSet("__typename", "items", "nextCursor")
	tenantFields   = fieldSet("__typename", "id", "name", "customerId", "instanceId", "createdAt", "updatedAt", "customer")
	customerFields = fieldSet("__typename", "id", "name", "orgId", "createdAt", "updatedAt", "grants")
	grantFields    = fieldSet("__typename", "granteeType", "granteeId", "customerId", "instanceId", "grantedBy", "grantedAt")
)

// The type conditions each level's fragments are collected under: the
// type, its interfaces and the unions it is a member of (Tenant and
// Customer are members of the federation's _Entity), as the executor
// collects them. A fragment on _Entity selects fields of a tenant as
// surely as one on Tenant: collected under the type alone, a field it
// selects (with its @authz) would be left out of the answer instead of
// sending the operation to the executor.
var (
	pageTypes     = implementors("TenantPage")
	tenantTypes   = implementors("Tenant")
	customerTypes = implementors("Customer")
	grantTypes    = implementors("Grant")
	queryTypes    = implementors("Query")
)

func implementors(typ string) []string {
	s := generated.NewExecutableSchema(generated.Config{}).Schema()
	def := s.Types[typ]
	if def == nil {
		panic("graph: no type " + typ + " in the schema")
	}
	out := []string{typ}
	for _, d := range s.GetImplements(def) {
		out = append(out, d.Name)
	}
	return out
}

func fieldSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// tenantsPage is the selection of a page the fast path serves.
type tenantsPage struct {
	root                                  graphql.CollectedField
	page, tenant, customer, grant         []graphql.CollectedField
	customerID, instanceID, after, search *string
	first                                 *int
}

// servePage answers the operation in ctx when it is a tenants page of at
// most maxObjects objects, nil when the executor has to.
func (r *Resolver) servePage(ctx context.Context, maxObjects int) graphql.ResponseHandler {
	op := graphql.GetOperationContext(ctx)
	c := access.From(ctx)
	if r.Admin == nil || c == nil || op == nil || op.Operation == nil || op.Operation.Operation != ast.Query {
		return nil
	}
	p, ok := planPage(op)
	if !ok {
		return nil
	}
	data, ok := r.runPage(ctx, c, p, maxObjects)
	if !ok {
		return nil
	}
	if f := pageServed.Load(); f != nil {
		(*f)()
	}
	return pageAnswer(ctx, data)
}

// pageServed, when set (tests), is called for each page the fast path
// answers.
var pageServed atomic.Pointer[func()]

// planPage collects the operation's selections, level by level, and
// reports whether the page serves them.
func planPage(op *graphql.OperationContext) (*tenantsPage, bool) {
	roots := graphql.CollectFields(op, op.Operation.SelectionSet, queryTypes)
	if len(roots) != 1 || roots[0].Name != "tenants" || !plain(roots[0]) {
		return nil, false
	}
	p := &tenantsPage{root: roots[0]}
	// Each level is the selection of the edge named in the level above:
	// the page, its items, their customer, the customer's grants.
	levels := []struct {
		edge    string
		types   []string
		allowed map[string]bool
		fields  *[]graphql.CollectedField
	}{
		{"", pageTypes, pageFields, &p.page},
		{"items", tenantTypes, tenantFields, &p.tenant},
		{"customer", customerTypes, customerFields, &p.customer},
		{"grants", grantTypes, grantFields, &p.grant},
	}
	edge := &roots[0]
	for i, l := range levels {
		if i > 0 {
			var ok bool
			if edge, ok = only(*levels[i-1].fields, l.edge); !ok {
				return nil, false
			}
			if edge == nil {
				break // not selected, nor anything under it
			}
		}
		fs, ok := level(op, *edge, l.types, l.allowed)
		if !ok {
			return nil, false
		}
		*l.fields = fs
	}
	return p, p.args(op.Variables)
}

// level collects the fields selected under f on an object satisfying
// types, and reports whether every one is of allowed and plain.
func level(op *graphql.OperationContext, f graphql.CollectedField, types []string, allowed map[string]bool) ([]graphql.CollectedField, bool) {
	fs := graphql.CollectFields(op, f.Selections, types)
	for _, g := range fs {
		if !allowed[g.Name] || !plain(g) {
			return nil, false
		}
	}
	return fs, true
}

// plain reports whether f is resolved without @defer or any directive but
// @skip and @include (which CollectFields has applied).
func plain(f graphql.CollectedField) bool {
	if len(f.Deferrables) > 0 {
		return false
	}
	for _, d := range f.Directives {
		if d.Name != "skip" && d.Name != "include" {
			return false
		}
	}
	return true
}

// only returns the one field named name of fs (nil when none is); the
// page serves an edge selected once, under one alias.
func only(fs []graphql.CollectedField, name string) (*graphql.CollectedField, bool) {
	var found *graphql.CollectedField
	for i := range fs {
		if fs[i].Name == name {
			if found != nil {
				return nil, false
			}
			found = &fs[i]
		}
	}
	return found, true
}

// args reads the root field's arguments; a value of another shape than the
// resolver takes goes to the executor.
func (p *tenantsPage) args(vars map[string]any) bool {
	for name, v := range p.root.ArgumentMap(vars) {
		if v == nil {
			continue
		}
		switch name {
		case "first":
			n, err := graphql.UnmarshalInt(v)
			if err != nil {
				return false
			}
			p.first = &n
		case "customerId", "instanceId", "after", "search":
			s, ok := v.(string)
			if !ok {
				return false
			}
			switch name {
			case "customerId":
				p.customerID = &s
			case "instanceId":
				p.instanceID = &s
			case "search":
				p.search = &s
			default:
				p.after = &s
			}
		default:
			return false
		}
	}
	return true
}

// pageData is what the page's three batches loaded.
type pageData struct {
	tenants   *admin.Page[*admin.Tenant]
	customers map[string]*admin.Customer
	grants    map[string][]*admin.GrantView
}

// runPage loads the page and writes its data, or reports that the executor
// has to answer: also when the page is more than maxObjects objects, which
// the executor refuses with OBJECT_LIMIT_EXCEEDED (D-graphql-cost).
func (r *Resolver) runPage(ctx context.Context, c *access.Caller, p *tenantsPage, maxObjects int) (json.RawMessage, bool) {
	cat := r.Access.Catalog()
	// the operations of Query.tenants and, when selected, Customer.grants
	// (fieldOps): the role's part. A role reading tenants through the Or
	// (D-tenant-reads) goes to the executor.
	tenantsOp, grants := fieldOps[fieldKey{"Query", "tenants"}], fieldOps[fieldKey{"Customer", "grants"}]
	if cat.AccessOf(&c.Principal, tenantsOp.Action) == authz.AccessNone ||
		(p.grant != nil && cat.AccessOf(&c.Principal, grants.Action) == authz.AccessNone) {
		return nil, false
	}
	in, err := pageInput(platform.NamePages, p.first, p.after)
	if err != nil {
		return nil, false
	}
	svc := r.Admin
	tenants, err := svc.ListTenants(ctx, c, admin.TenantFilter{CustomerID: str(p.customerID), InstanceID: str(p.instanceID), Search: str(p.search),
		Brief: brief(p.tenant)}, in)
	if err != nil {
		return nil, false
	}
	d := &pageData{tenants: tenants}
	if p.customer != nil {
		ids := make([]string, 0, len(tenants.Items))
		seen := make(map[string]bool, len(tenants.Items))
		for _, t := range tenants.Items {
			if !seen[t.CustomerID] {
				seen[t.CustomerID] = true
				ids = append(ids, t.CustomerID)
			}
		}
		// the resource's part of Customer.grants, on every customer
		for _, id := range ids {
			if p.grant != nil && !cat.Decide(&c.Principal, &c.Scope, grants.Action, authz.Resource{CustomerID: id}, false).Allowed {
				return nil, false
			}
		}
		if !d.load(ctx, svc, c, ids, brief(p.customer), p.grant != nil) {
			return nil, false
		}
	}
	if d.objects(p) > maxObjects {
		return nil, false
	}
	w := &jsonWriter{buf: make([]byte, 0, 256+len(tenants.Items)*(128+64*len(p.tenant)))}
	w.byte('{')
	w.key(p.root.Alias)
	if !w.page(p, d) {
		return nil, false
	}
	w.byte('}')
	return w.buf, true
}

// objects counts the objects the page writes as the executor's budget
// counts them: the page, its items, each item's customer and the
// customer's grants.
func (d *pageData) objects(p *tenantsPage) int {
	n := 1
	if p.tenant != nil {
		n += len(d.tenants.Items)
	}
	if p.customer == nil {
		return n
	}
	for _, t := range d.tenants.Items {
		if d.customers[t.CustomerID] != nil {
			n++
			if p.grant != nil {
				n += len(d.grants[t.CustomerID])
			}
		}
	}
	return n
}

// brief reports whether objects showing fields need no more of their rows
// than ids and names: none of their times (the page writes no settings).
func brief(fields []graphql.CollectedField) bool {
	for _, f := range fields {
		if f.Name == "createdAt" || f.Name == "updatedAt" {
			return false
		}
	}
	return true
}

// load reads the customers and, with grants, their grants (one
// statement); brief reads only the customers' ids, names and
// organizations.
func (d *pageData) load(ctx context.Context, svc *admin.Service, c *access.Caller, ids []string, brief, grants bool) bool {
	customers, gs, err := svc.PageCustomers(ctx, c, ids, brief, grants)
	if err != nil || len(customers) != len(ids) || (grants && len(gs) != len(ids)) {
		return false
	}
	d.customers = make(map[string]*admin.Customer, len(ids))
	d.grants = make(map[string][]*admin.GrantView, len(ids))
	for i, id := range ids {
		d.customers[id] = customers[i]
		if grants {
			d.grants[id] = gs[i]
		}
	}
	return true
}
