package adminhttp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

func (a *API) auditRoutes() []Route {
	return []Route{
		{Method: http.MethodGet, Pattern: "/audit-log", Op: admin.OpAuditLog, Handle: logPage(a.svc.AuditLog)},
		{Method: http.MethodGet, Pattern: "/email-log", Op: admin.OpEmailLog, Handle: logPage(a.svc.EmailLog)},
	}
}

// logPage answers the page of the audit or e-mail log that call returns
// for ?actorId=, ?cursor= and ?limit=.
func logPage[T any](call func(context.Context, *access.Caller, admin.LogQuery) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		q, err := logQuery(r)
		if err != nil {
			return 0, nil, err
		}
		v, err := call(r.Context(), c, q)
		return respond(http.StatusOK, v, err)
	}
}
