package graph

import (
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/platform/platform/internal/admin"
)

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

// list writes items as an array, item writing each; false when one has no
// value the schema allows.
func list[T any](w *jsonWriter, items []T, item func(T) bool) bool {
	w.byte('[')
	for i, it := range items {
		if i > 0 {
			w.byte(',')
		}
		if !item(it) {
			return false
		}
	}
	w.byte(']')
	return true
}

func (w *jsonWriter) page(p *tenantsPage, d *pageData) bool {
	return w.object(p.page, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str("TenantPage")
		case "nextCursor":
			w.optStr(d.tenants.NextCursor)
		case "items":
			return list(w, d.tenants.Items, func(t *admin.Tenant) bool { return w.tenant(p, d, t) })
		}
		return true
	})
}

// named writes an object with the fields Tenant and Customer share
// (__typename, id, name, createdAt, updatedAt), value writing the others.
func (w *jsonWriter) named(fs []graphql.CollectedField, typename, id, name string, created, updated time.Time,
	value func(f *graphql.CollectedField) bool) bool {
	return w.object(fs, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "__typename":
			w.str(typename)
		case "id":
			w.str(id)
		case "name":
			w.str(name)
		case "createdAt":
			return w.time(created)
		case "updatedAt":
			return w.time(updated)
		default:
			return value(f)
		}
		return true
	})
}

func (w *jsonWriter) tenant(p *tenantsPage, d *pageData, t *admin.Tenant) bool {
	return w.named(p.tenant, "Tenant", t.ID, t.Name, t.CreatedAt, t.UpdatedAt, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "customerId":
			w.str(t.CustomerID)
		case "instanceId":
			w.optStr(t.InstanceID)
		case "customer":
			return w.customer(p, d, d.customers[t.CustomerID])
		}
		return true
	})
}

// customer writes cu, or null for a customer the page did not load.
func (w *jsonWriter) customer(p *tenantsPage, d *pageData, cu *admin.Customer) bool {
	if cu == nil {
		w.raw("null")
		return true
	}
	return w.named(p.customer, "Customer", cu.ID, cu.Name, cu.CreatedAt, cu.UpdatedAt, func(f *graphql.CollectedField) bool {
		switch f.Name {
		case "orgId":
			w.str(cu.OrgID)
		case "grants":
			return list(w, d.grants[cu.ID], func(g *admin.GrantView) bool { return w.grant(p, g) })
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
