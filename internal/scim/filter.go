package scim

import (
	"strings"

	filter "github.com/scim2/filter-parser/v2"

	"github.com/platform/platform/internal/admin"
)

// Filters (RFC 7644 3.4.2.2) are parsed by github.com/scim2/filter-parser
// and compiled to admin.SCIMFilter, which the store renders as a
// parameterised condition: eq, ne, co, sw and pr, joined by and and or, on
// the attributes a resource type lists (attrs: lower-case name → the
// filter's attribute). Anything else is invalidFilter.

var (
	userFilterAttrs  = map[string]string{"username": "userName", "externalid": "externalId", "displayname": "displayName", "emails.value": "emails.value", "emails": "emails.value", "active": "active", "id": "id"}
	groupFilterAttrs = map[string]string{"displayname": "displayName", "externalid": "externalId", "id": "id", "members.value": "members.value", "members": "members.value"}
)

// compileFilter parses raw ("" for none: nil) for a resource whose
// filterable attributes are attrs.
func compileFilter(raw string, attrs map[string]string) (*admin.SCIMFilter, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	if len(raw) > MaxFilter {
		return nil, invalidFilter("a filter is at most %d characters", MaxFilter)
	}
	expr, err := filter.ParseFilter([]byte(raw))
	if err != nil {
		return nil, invalidFilter("the filter is not valid")
	}
	terms := 0
	return compile(expr, attrs, &terms)
}

func compile(e filter.Expression, attrs map[string]string, terms *int) (*admin.SCIMFilter, error) {
	switch e := e.(type) {
	case *filter.LogicalExpression:
		l, err := compile(e.Left, attrs, terms)
		if err != nil {
			return nil, err
		}
		r, err := compile(e.Right, attrs, terms)
		if err != nil {
			return nil, err
		}
		return &admin.SCIMFilter{Op: strings.ToLower(string(e.Operator)), Left: l, Right: r}, nil
	case *filter.AttributeExpression:
		*terms++
		if *terms > MaxFilterTerms {
			return nil, invalidFilter("a filter holds at most %d comparisons", MaxFilterTerms)
		}
		return comparison(e.AttributePath, string(e.Operator), e.CompareValue, attrs)
	case *filter.ValuePath:
		// emails[value eq "x"], members[value eq "id"]: the sub-attribute's comparison.
		inner, ok := e.ValueFilter.(*filter.AttributeExpression)
		if !ok || e.AttributePath.SubAttribute != nil {
			return nil, invalidFilter("a value filter compares one sub-attribute")
		}
		*terms++
		sub := inner.AttributePath.AttributeName
		path := filter.AttributePath{URIPrefix: e.AttributePath.URIPrefix, AttributeName: e.AttributePath.AttributeName, SubAttribute: &sub}
		return comparison(path, string(inner.Operator), inner.CompareValue, attrs)
	}
	return nil, invalidFilter("not, grouping of value filters and other operators are not supported; use and, or, eq, ne, co, sw, pr")
}

func comparison(p filter.AttributePath, op string, value any, attrs map[string]string) (*admin.SCIMFilter, error) {
	name := strings.ToLower(p.AttributeName)
	if p.SubAttribute != nil {
		name += "." + strings.ToLower(*p.SubAttribute)
	}
	if uri := p.URI(); uri != "" && uri != UserSchema && uri != GroupSchema {
		return nil, invalidFilter("the attribute %s cannot be filtered", p.String())
	}
	attr, ok := attrs[name]
	if !ok {
		return nil, invalidFilter("the attribute %s cannot be filtered", p.String())
	}
	op = strings.ToLower(op)
	f := &admin.SCIMFilter{Op: op, Attr: attr}
	switch op {
	case "pr":
		return f, nil
	case "eq", "ne", "co", "sw":
	default:
		return nil, invalidFilter("the operator %s is not supported; use eq, ne, co, sw or pr", op)
	}
	if attr == "active" {
		b, ok := boolOf(value)
		if !ok || op == "co" || op == "sw" {
			return nil, invalidFilter("active compares with eq or ne to true or false")
		}
		f.Active = b
		return f, nil
	}
	s, ok := value.(string)
	if !ok {
		return nil, invalidFilter("%s compares to a string", p.String())
	}
	if len(s) > 320 {
		return nil, invalidFilter("a compared value is at most 320 characters")
	}
	f.Value = s
	return f, nil
}

// boolOf reads a boolean as Entra ID and Okta send it: true, or the strings
// "true" and "false" in any case.
func boolOf(v any) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}
