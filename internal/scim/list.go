package scim

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/platform/platform/internal/admin"
)

// query is a list request: its filter, its page (startIndex from 1, count
// at most MaxCount) and its projection.
type query struct {
	filter     *admin.SCIMFilter
	startIndex int
	count      int
	proj       projection
}

func listQuery(r *http.Request, attrs map[string]string) (*query, error) {
	v := r.URL.Query()
	q := &query{startIndex: 1, count: MaxCount}
	var err error
	if q.filter, err = compileFilter(v.Get("filter"), attrs); err != nil {
		return nil, err
	}
	if s := v.Get("startIndex"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, invalidValue("startIndex must be an integer")
		}
		q.startIndex = max(n, 1) // RFC 7644 3.4.2.4: less than 1 is 1
	}
	if s := v.Get("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, invalidValue("count must be an integer")
		}
		q.count = min(max(n, 0), MaxCount)
	}
	if q.proj, err = projectionOf(r); err != nil {
		return nil, err
	}
	return q, nil
}

func writeList(w http.ResponseWriter, q *query, total int, docs []map[string]any) {
	write(w, http.StatusOK, listResponse(q.startIndex, total, docs))
}

// listResponse is a ListResponse message (RFC 7644 3.4.2): docs, the page
// of total resources from startIndex.
func listResponse(startIndex, total int, docs []map[string]any) map[string]any {
	return map[string]any{"schemas": []string{ListSchema}, "totalResults": total, "startIndex": startIndex,
		"itemsPerPage": len(docs), "Resources": docs}
}

// projection is a request's attributes or excludedAttributes (RFC 7644
// 3.4.2.5), by top-level attribute, in lower case; id and schemas are
// always answered.
type projection struct {
	only, except map[string]bool
}

func projectionOf(r *http.Request) (projection, error) {
	v := r.URL.Query()
	var p projection
	parse := func(s string) map[string]bool {
		if s == "" {
			return nil
		}
		m := map[string]bool{}
		for _, a := range strings.Split(s, ",") {
			a = strings.ToLower(strings.TrimSpace(a))
			for _, schema := range []string{UserSchema, GroupSchema} {
				a = strings.TrimPrefix(a, strings.ToLower(schema)+":")
			}
			top, _, _ := strings.Cut(a, ".")
			m[top] = true
		}
		return m
	}
	if len(v.Get("attributes")) > MaxFilter || len(v.Get("excludedAttributes")) > MaxFilter {
		return p, invalidValue("attributes and excludedAttributes are at most %d characters", MaxFilter)
	}
	p.only, p.except = parse(v.Get("attributes")), parse(v.Get("excludedAttributes"))
	return p, nil
}

// wants reports whether the attribute (lower case) is answered.
func (p projection) wants(attr string) bool {
	if p.only != nil {
		return p.only[attr]
	}
	return !p.except[attr]
}

func (p projection) apply(doc map[string]any) map[string]any {
	for k := range doc {
		if k == "id" || k == "schemas" {
			continue
		}
		if !p.wants(strings.ToLower(k)) {
			delete(doc, k)
		}
	}
	return doc
}
