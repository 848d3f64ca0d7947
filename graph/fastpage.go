package graph

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
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

func fieldSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// tenantsPage is the selection of a page the fast path serves.
type tenantsPage struct {
	root                          graphql.CollectedField
	page, tenant, customer, grant []graphql.CollectedField
	customerID, instanceID, after *string
	first                         *int
}

// servePage answers the operation in ctx when it is a tenants page, nil
// when the executor has to.
func (r *Resolver) servePage(ctx context.Context) graphql.ResponseHandler {
	op := graphql.GetOperationContext(ctx)
	c := access.From(ctx)
	if r.Admin == nil || c == nil || op == nil || op.Operation == nil || op.Operation.Operation != ast.Query {
		return nil
	}
	p, ok := planPage(op)
	if !ok {
		return nil
	}
	data, ok := r.runPage(ctx, c, p)
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
	roots := graphql.CollectFields(op, op.Operation.SelectionSet, []string{"Query"})
	if len(roots) != 1 || roots[0].Name != "tenants" || !plain(roots[0]) {
		return nil, false
	}
	p := &tenantsPage{root: roots[0]}
	var ok bool
	if p.page, ok = level(op, roots[0], "TenantPage", pageFields); !ok {
		return nil, false
	}
	items, ok := only(p.page, "items")
	if !ok {
		return nil, false
	}
	if items != nil {
		if p.tenant, ok = level(op, *items, "Tenant", tenantFields); !ok {
			return nil, false
		}
		cust, ok := only(p.tenant, "customer")
		if !ok {
			return nil, false
		}
		if cust != nil {
			if p.customer, ok = level(op, *cust, "Customer", customerFields); !ok {
				return nil, false
			}
			grants, ok := only(p.customer, "grants")
			if !ok {
				return nil, false
			}
			if grants != nil {
				if p.grant, ok = level(op, *grants, "Grant", grantFields); !ok {
					return nil, false
				}
			}
		}
	}
	return p, p.args(op.Variables)
}

// level collects the fields selected under f on an object of typ, and
// reports whether every one is of allowed and plain.
func level(op *graphql.OperationContext, f graphql.CollectedField, typ string, allowed map[string]bool) ([]graphql.CollectedField, bool) {
	fs := graphql.CollectFields(op, f.Selections, []string{typ})
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
		case "customerId", "instanceId", "after":
			s, ok := v.(string)
			if !ok {
				return false
			}
			switch name {
			case "customerId":
				p.customerID = &s
			case "instanceId":
				p.instanceID = &s
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
// has to answer.
func (r *Resolver) runPage(ctx context.Context, c *access.Caller, p *tenantsPage) (json.RawMessage, bool) {
	cat := r.Access.Catalog()
	// @authz(MANAGE_TENANT) on Query.tenants and, when selected,
	// @authz(MANAGE_INTERNAL_USERS) on Customer.grants: the role's part.
	if cat.Access(c.Role, authz.ManageTenant) == authz.AccessNone ||
		(p.grant != nil && cat.Access(c.Role, authz.ManageInternalUsers) == authz.AccessNone) {
		return nil, false
	}
	in, err := pageInput(p.first, p.after)
	if err != nil {
		return nil, false
	}
	svc := r.Admin
	tenants, err := svc.ListTenants(ctx, c, admin.TenantFilter{CustomerID: str(p.customerID), InstanceID: str(p.instanceID)}, in)
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
			if p.grant != nil && !cat.Decide(&c.Principal, &c.Scope, authz.ManageInternalUsers, authz.Resource{CustomerID: id}, false).Allowed {
				return nil, false
			}
		}
		if !d.load(ctx, svc, c, ids, p.grant != nil) {
			return nil, false
		}
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

// load runs the customers' and their grants' batches.
func (d *pageData) load(ctx context.Context, svc *admin.Service, c *access.Caller, ids []string, grants bool) bool {
	customers, err := svc.CustomersByIDs(ctx, c, ids)
	if err != nil || len(customers) != len(ids) {
		return false
	}
	var gs [][]*admin.GrantView
	if grants {
		if gs, err = svc.GrantsByCustomerIDs(ctx, c, ids); err != nil || len(gs) != len(ids) {
			return false
		}
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

// jsonWriter writes the page as gqlgen writes its values: fields in the
// order the selection collected them, the first of an alias selected
// twice, strings escaped as graphql.MarshalString does.
type jsonWriter struct{ buf []byte }

func (w *jsonWriter) byte(b byte)     { w.buf = append(w.buf, b) }
func (w *jsonWriter) raw(s string)    { w.buf = append(w.buf, s...) }
func (w *jsonWriter) key(name string) { w.byte('"'); w.raw(name); w.raw(`":`) }

// object writes the fields fs of one object, value writing each field's
// value; false when a field has none the schema allows.
func (w *jsonWriter) object(fs []graphql.CollectedField, value func(f *graphql.CollectedField) bool) bool {
	w.byte('{')
	for i := range fs {
		if dup(fs, i) {
			continue
		}
		if w.buf[len(w.buf)-1] != '{' {
			w.byte(',')
		}
		w.key(fs[i].Alias)
		if !value(&fs[i]) {
			return false
		}
	}
	w.byte('}')
	return true
}

// dup reports whether the alias of fs[i] came earlier.
func dup(fs []graphql.CollectedField, i int) bool {
	for j := range i {
		if fs[j].Alias == fs[i].Alias {
			return true
		}
	}
	return false
}

func (w *jsonWriter) page(p *tenantsPage, d *pageData) bool {
	return w.object(p.page, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str("TenantPage")
		case "nextCursor":
			w.optStr(d.tenants.NextCursor)
		case "items":
			w.byte('[')
			for i, t := range d.tenants.Items {
				if i > 0 {
					w.byte(',')
				}
				if !w.tenant(p, d, t) {
					return false
				}
			}
			w.byte(']')
		}
		return true
	})
}

func (w *jsonWriter) tenant(p *tenantsPage, d *pageData, t *admin.Tenant) bool {
	return w.object(p.tenant, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str("Tenant")
		case "id":
			w.str(t.ID)
		case "name":
			w.str(t.Name)
		case "customerId":
			w.str(t.CustomerID)
		case "instanceId":
			w.optStr(t.InstanceID)
		case "createdAt":
			return w.time(t.CreatedAt)
		case "updatedAt":
			return w.time(t.UpdatedAt)
		case "customer":
			cu := d.customers[t.CustomerID]
			if cu == nil {
				w.raw("null")
				return true
			}
			return w.customer(p, d, cu)
		}
		return true
	})
}

func (w *jsonWriter) customer(p *tenantsPage, d *pageData, cu *admin.Customer) bool {
	return w.object(p.customer, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str("Customer")
		case "id":
			w.str(cu.ID)
		case "name":
			w.str(cu.Name)
		case "orgId":
			w.str(cu.OrgID)
		case "createdAt":
			return w.time(cu.CreatedAt)
		case "updatedAt":
			return w.time(cu.UpdatedAt)
		case "grants":
			w.byte('[')
			for i, g := range d.grants[cu.ID] {
				if i > 0 {
					w.byte(',')
				}
				if !w.grant(p, g) {
					return false
				}
			}
			w.byte(']')
		}
		return true
	})
}

func (w *jsonWriter) grant(p *tenantsPage, g *admin.GrantView) bool {
	return w.object(p.grant, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str("Grant")
		case "granteeType":
			w.str(g.GranteeType)
		case "granteeId":
			w.str(g.GranteeID)
		case "customerId":
			w.optStr(g.CustomerID)
		case "instanceId":
			w.optStr(g.InstanceID)
		case "grantedBy":
			w.optStr(g.GrantedBy)
		case "grantedAt":
			return w.time(g.GrantedAt)
		}
		return true
	})
}

func (w *jsonWriter) optStr(s *string) {
	if s == nil {
		w.raw("null")
		return
	}
	w.str(*s)
}

// time writes a Time! value as graphql.MarshalTime does; a zero time is
// null there, which a non-null field cannot be.
func (w *jsonWriter) time(t time.Time) bool {
	if t.IsZero() {
		return false
	}
	w.byte('"') // the layout's output needs no escaping
	w.buf = t.AppendFormat(w.buf, time.RFC3339Nano)
	w.byte('"')
	return true
}

// str writes s quoted as graphql.MarshalString does, and with <, >, &,
// U+2028 and U+2029 escaped as encoding/json escapes them when the
// transport writes an answer of the executor: the bytes are the same.
func (w *jsonWriter) str(s string) {
	const hex, upperHex = "0123456789abcdef", "0123456789ABCDEF"
	w.byte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '\\' && c != '"' && c != '<' && c != '>' && c != '&' && c != 0xE2 {
			continue
		}
		if c == 0xE2 && !(i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)) {
			continue
		}
		w.raw(s[start:i])
		switch c {
		case '\t':
			w.raw(`\t`)
		case '\r':
			w.raw(`\r`)
		case '\n':
			w.raw(`\n`)
		case '\\':
			w.raw(`\\`)
		case '"':
			w.raw(`\"`)
		case 0xE2: // U+2028, U+2029
			w.raw(`\u202`)
			w.byte(hex[s[i+2]&0xF])
			i += 2
		case '<', '>', '&':
			w.raw(`\u00`)
			w.buf = append(w.buf, hex[c>>4], hex[c&0xf])
		default: // a control character, in gqlgen's upper case
			w.raw(`\u00`)
			w.buf = append(w.buf, upperHex[c>>4], upperHex[c&0xf])
		}
		start = i + 1
	}
	w.raw(s[start:])
	w.byte('"')
}
