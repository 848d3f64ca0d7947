package admin

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// wrap puts the decision in front of a route's handler:
//  1. the caller (set by the auth middleware);
//  2. the route's target: a missing {id} answers 404 to unscoped callers, and
//     403 to strict-scoped ones, exactly as an existing id outside their scope
//     would, so a scoped caller never learns whether an id exists (R4.6-id-scope);
//  3. Decide (R5.7-*); a denial is audited and answered 403 or 404;
//  4. the handler; a successful write is audited.
func (a *Admin) wrap(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := access.MustCaller(r.Context())
		var res authz.Resource
		if rt.Target != nil {
			var err error
			res, err = rt.Target(r.Context(), r)
			if err != nil {
				httpapi.WriteError(w, r, a.access.CheckMissing(r.Context(), c, rt.Action, rt.Write, err))
				return
			}
		}
		if err := a.access.Check(r.Context(), c, rt.Action, res, rt.Write); err != nil {
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

// Check decides again inside a handler, once the request's body names the
// resource (a create for a customer, a transfer's destination).
func (a *Admin) Check(ctx context.Context, c *access.Caller, act authz.Action, res authz.Resource, write bool) error {
	return a.access.Check(ctx, c, act, res, write)
}

// decode reads a JSON body into v: one object, no unknown fields, within the
// body limit. Every problem is EINVALID with a message naming it.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return platform.Errorf(platform.ETOOLARGE, "the request body is larger than %d bytes", tooLarge.Limit)
		case errors.Is(err, io.EOF):
			return platform.Errorf(platform.EINVALID, "the request body is empty; a JSON object is required")
		}
		return platform.Errorf(platform.EINVALID, "the request body is not valid: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return platform.Errorf(platform.EINVALID, "the request body holds more than one JSON value")
	}
	return nil
}

// id is the route's {id}.
func id(r *http.Request) string { return chi.URLParam(r, "id") }
