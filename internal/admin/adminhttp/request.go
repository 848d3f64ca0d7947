package adminhttp

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/platform"
)

// id is the route's {id}.
func id(r *http.Request) string { return chi.URLParam(r, "id") }

// param is the route's {name}.
func param(r *http.Request, name string) string { return chi.URLParam(r, name) }

// pageInput reads ?limit= and ?cursor=.
func pageInput(r *http.Request) (admin.PageInput, error) {
	n, err := limitQuery(r, admin.MaxPageLimit)
	return admin.PageInput{Limit: n, Cursor: r.URL.Query().Get("cursor")}, err
}

// logQuery reads the audit and e-mail logs' ?actorId=, ?cursor= and ?limit=.
func logQuery(r *http.Request) (admin.LogQuery, error) {
	n, err := limitQuery(r, admin.MaxLogLimit)
	q := r.URL.Query()
	return admin.LogQuery{ActorID: q.Get("actorId"), Cursor: q.Get("cursor"), Limit: n}, err
}

// limitQuery reads ?limit=, a number from 1 to max (0 when absent: the
// service's default).
func limitQuery(r *http.Request, max int) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > max {
		return 0, platform.Errorf(platform.EINVALID, "limit must be a number between 1 and %d", max)
	}
	return n, nil
}

// limitParam reads ?limit= (1 to 1000; 0 when absent, the default).
func limitParam(r *http.Request) (int, error) { return limitQuery(r, admin.MaxPageLimit) }
