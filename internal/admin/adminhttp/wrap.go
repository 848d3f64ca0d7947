package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
)

// wrap puts the decision in front of a route's handler:
//  1. the caller (set by the auth middleware);
//  2. the route's target: a missing {id} answers 404 to unscoped callers, and
//     403 to strict-scoped ones, exactly as an existing id outside their scope
//     would, so a scoped caller never learns whether an id exists (R4.6-id-scope);
//  3. Decide (R5.7-*) on the route's operation: its action, or its Or for a
//     role that does not hold the action; a denial is audited and answered
//     403 or 404;
//     (a group's manager passes the member operations of its group,
//     D-group-managers);
//  4. the handler, whose service method decides again and records a
//     successful write in the audit log, in the write's transaction.
func (a *API) wrap(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := access.MustCaller(r.Context())
		act := rt.Op.ActionFor(a.access.Catalog(), c)
		var res authz.Resource
		if rt.Locate != nil {
			var err error
			res, err = rt.Locate(r.Context(), id(r))
			if err != nil {
				httpapi.WriteError(w, r, a.access.CheckMissing(r.Context(), c, act, rt.Op.Write, err))
				return
			}
		}
		if rt.Op.GroupManager && a.svc.ManagesGroup(r.Context(), c, id(r)) {
			// a group's manager: the service decides on its membership (D-group-managers)
		} else if err := a.access.Check(r.Context(), c, act, res, rt.Op.Write); err != nil {
			httpapi.WriteError(w, r, err)
			return
		}
		if rt.Op.StepUp { // the most dangerous actions: a recent sign-in with a second factor (D-step-up)
			if err := a.access.CheckStepUp(c); err != nil {
				if su := access.AsStepUp(err); su != nil {
					w.Header().Set("WWW-Authenticate", su.Challenge())
				}
				httpapi.WriteError(w, r, err)
				return
			}
		}
		status, body, err := rt.Handle(r, c, res)
		if err != nil {
			httpapi.WriteError(w, r, err)
			return
		}
		switch b := body.(type) {
		case nil:
			w.WriteHeader(status)
		case streamed:
			b.writeTo(w, status)
		default:
			httpapi.WriteJSON(w, status, body)
		}
	})
}
