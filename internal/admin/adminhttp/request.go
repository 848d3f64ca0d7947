package adminhttp

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// What a handler takes from the request: a key (id, param, query, none)
// and an input (body, nothing, pages and the filters of the lists).

// id is the route's {id}.
func id(r *http.Request) string { return chi.URLParam(r, "id") }

// param is the route's {name}.
func param(r *http.Request, name string) string { return chi.URLParam(r, name) }

// query reads the query parameter name as a handler's key.
func query(name string) func(*http.Request) string {
	return func(r *http.Request) string { return r.URL.Query().Get(name) }
}

// none is the key of a route that names none.
func none(*http.Request) string { return "" }

// nothing is the input of a call that takes none.
func nothing(*http.Request) (struct{}, error) { return struct{}{}, nil }

// body reads the request's JSON body (httpapi.DecodeJSON: strict, within
// the route's limit).
func body[In any](r *http.Request) (In, error) {
	var in In
	err := httpapi.DecodeJSON(r, &in)
	return in, err
}

// pages reads ?limit= (within limits; 0 when absent, the list's default)
// and ?cursor=.
func pages(limits platform.PageLimit) func(*http.Request) (admin.PageInput, error) {
	return func(r *http.Request) (admin.PageInput, error) { return pageInput(r, limits) }
}

func pageInput(r *http.Request, limits platform.PageLimit) (admin.PageInput, error) {
	q := r.URL.Query()
	n, err := limits.Parse("limit", q.Get("limit"))
	return admin.PageInput{Limit: n, Cursor: q.Get("cursor")}, err
}

// limitParam reads ?limit= of a newest-first list without cursors
// (deliveries, releases, discrepancies); 0 when absent, the default.
func limitParam(r *http.Request) (int, error) {
	return platform.NewestPages.Parse("limit", r.URL.Query().Get("limit"))
}

// logQuery reads the e-mail log's ?actorId= (the user mailed), ?recipient=
// (part of the address), ?cursor= and ?limit=.
func logQuery(r *http.Request) (admin.LogQuery, error) {
	p, err := pageInput(r, platform.LogPages)
	q := r.URL.Query()
	return admin.LogQuery{ActorID: q.Get("actorId"), Recipient: q.Get("recipient"), Cursor: p.Cursor, Limit: p.Limit}, err
}

// auditQuery reads the audit log's filters (?actorId=, ?actor= (part of
// an address), ?targetId=, ?kind=, ?outcome=, ?from= and ?to= in RFC 3339)
// with ?cursor= and ?limit=.
func auditQuery(r *http.Request) (admin.AuditQuery, error) {
	p, err := pageInput(r, platform.LogPages)
	if err != nil {
		return admin.AuditQuery{}, err
	}
	q := r.URL.Query()
	aq := admin.AuditQuery{ActorID: q.Get("actorId"), Actor: q.Get("actor"), TargetID: q.Get("targetId"), Kind: q.Get("kind"),
		Outcome: q.Get("outcome"), Cursor: p.Cursor, Limit: p.Limit}
	var problems []string
	for _, t := range []struct {
		name string
		dst  *time.Time
	}{{"from", &aq.From}, {"to", &aq.To}} {
		if v := q.Get(t.name); v != "" {
			if *t.dst, err = time.Parse(time.RFC3339Nano, v); err != nil {
				problems = append(problems, t.name+" must be a time in RFC 3339 (2026-05-01T12:00:00Z)")
			}
		}
	}
	if len(problems) > 0 {
		return aq, &platform.Error{Code: platform.EINVALID, Message: "invalid audit log filter", Details: problems}
	}
	return aq, nil
}

// exportQuery reads the export's ?after= (the cursor of the previous
// answer) and ?limit= (platform.ExportPages).
func exportQuery(r *http.Request) (admin.ExportQuery, error) {
	q := r.URL.Query()
	n, err := platform.ExportPages.Parse("limit", q.Get("limit"))
	return admin.ExportQuery{After: q.Get("after"), Limit: n}, err
}

// invoiceFilter reads an invoice list's ?customerId= (the path's customer
// takes its place on a customer's list), ?status=, ?limit= and ?cursor=.
func invoiceFilter(r *http.Request) (admin.InvoiceFilter, error) {
	p, err := pageInput(r, platform.NewestPages)
	q := r.URL.Query()
	return admin.InvoiceFilter{CustomerID: q.Get("customerId"), Status: q.Get("status"), Limit: p.Limit, Cursor: p.Cursor}, err
}

// usageFilter reads a usage list's ?customerId=, ?meter=, ?from=, ?to=,
// ?limit= and ?cursor=.
func usageFilter(r *http.Request) (admin.UsageFilter, error) {
	p, err := pageInput(r, platform.NewestPages)
	q := r.URL.Query()
	return admin.UsageFilter{CustomerID: q.Get("customerId"), Meter: q.Get("meter"), From: q.Get("from"), To: q.Get("to"),
		Limit: p.Limit, Cursor: p.Cursor}, err
}

// customerUsageFilter is usageFilter on a route that names the customer in
// its path; a customerId in the query as well is a request the route
// cannot read.
func customerUsageFilter(r *http.Request) (admin.UsageFilter, error) {
	f, err := usageFilter(r)
	if err == nil && f.CustomerID != "" {
		err = platform.Errorf(platform.EINVALID, "customerId is the path's customer here; leave the query parameter out")
	}
	f.CustomerID = id(r)
	return f, err
}

// grantFilter reads the grant list's ?userId=, ?customerId= and ?instanceId=.
func grantFilter(r *http.Request) (admin.GrantFilter, error) {
	q := r.URL.Query()
	return admin.GrantFilter{UserID: q.Get("userId"), CustomerID: q.Get("customerId"), InstanceID: q.Get("instanceId")}, nil
}

// tenantFilter reads the tenant list's ?customerId=, ?instanceId= and
// ?search=.
func tenantFilter(r *http.Request) admin.TenantFilter {
	q := r.URL.Query()
	return admin.TenantFilter{CustomerID: q.Get("customerId"), InstanceID: q.Get("instanceId"), Search: q.Get("search")}
}
