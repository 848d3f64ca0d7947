package adminhttp

import (
	"net/http"
	"strings"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
)

// wrap puts the decision in front of a route's handler:
//  1. the caller (set by the auth middleware);
//  2. the route's target: a missing {id} answers 404 to unscoped callers, and
//     403 to strict-scoped ones, exactly as an existing id outside their scope
//     would, so a scoped caller never learns whether an id exists (R4.6-id-scope);
//  3. Decide (R5.7-*) on the route's action, or on its Or for a role that
//     does not hold the action; a denial is audited and answered 403 or 404;
//  4. the handler; a successful write is audited.
func (a *API) wrap(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := access.MustCaller(r.Context())
		act := a.action(c, rt)
		var res authz.Resource
		if rt.Target != nil {
			var err error
			res, err = rt.Target(r.Context(), id(r))
			if err != nil {
				httpapi.WriteError(w, r, a.access.CheckMissing(r.Context(), c, act, rt.Write, err))
				return
			}
		}
		if err := a.access.Check(r.Context(), c, act, res, rt.Write); err != nil {
			httpapi.WriteError(w, r, err)
			return
		}
		status, body, err := rt.Handle(r, c, res)
		if err != nil {
			httpapi.WriteError(w, r, err)
			return
		}
		if rt.Write {
			d := authz.Decision{Allowed: true, Status: status, Reason: authz.ReasonAllowed}
			a.access.Audit(r.Context(), c, rt.Action.String()+" "+r.Method, strings.TrimPrefix(r.URL.Path, "/api/v1/"), res.CustomerID, d)
		}
		if body == nil {
			w.WriteHeader(status)
			return
		}
		httpapi.WriteJSON(w, status, body)
	})
}

// action is what rt is decided on for c: its Action, or for a reading route
// with an Or, the Or when c's role does not hold the Action at all.
func (a *API) action(c *access.Caller, rt Route) authz.Action {
	if rt.Or != 0 && !rt.Write && a.access.Catalog().Access(c.Role, rt.Action) == authz.AccessNone {
		return rt.Or
	}
	return rt.Action
}
