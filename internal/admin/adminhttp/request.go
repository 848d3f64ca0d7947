package adminhttp

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// id is the route's {id}.
func id(r *http.Request) string { return chi.URLParam(r, "id") }

// param is the route's {name}.
func param(r *http.Request, name string) string { return chi.URLParam(r, name) }

// pageInput reads ?limit= (within limits; 0 when absent, the list's
// default) and ?cursor=.
func pageInput(r *http.Request, limits platform.PageLimit) (admin.PageInput, error) {
	q := r.URL.Query()
	n, err := limits.Parse("limit", q.Get("limit"))
	return admin.PageInput{Limit: n, Cursor: q.Get("cursor")}, err
}

// logQuery reads the audit and e-mail logs' ?actorId=, ?cursor= and ?limit=.
func logQuery(r *http.Request) (admin.LogQuery, error) {
	p, err := pageInput(r, platform.LogPages)
	return admin.LogQuery{ActorID: r.URL.Query().Get("actorId"), Cursor: p.Cursor, Limit: p.Limit}, err
}

// limitParam reads ?limit= of a newest-first list without cursors
// (deliveries, releases, discrepancies); 0 when absent, the default.
func limitParam(r *http.Request) (int, error) {
	return platform.NewestPages.Parse("limit", r.URL.Query().Get("limit"))
}
