package adminhttp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The handlers no shape of handler.go fits: those that take more of the
// request than a key and an input, or answer what no shape does, and the
// group routes', which bind the kind of group.

func (a *API) mePermissions(_ *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return http.StatusOK, a.svc.Permissions(c), nil
}

func (a *API) listTenants(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r, platform.NamePages)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListTenants(r.Context(), c, tenantFilter(r), p)
	return respond(http.StatusOK, v, err)
}

func (a *API) putTenantMember(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	in, err := body[admin.MemberInput](r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.PutTenantMember(r.Context(), c, id(r), param(r, "userId"), in)
	return respond(http.StatusOK, v, err)
}

func (a *API) deleteTenantMember(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.RemoveTenantMember(r.Context(), c, id(r), param(r, "userId")))
}

// verifyDomain proves the customer's domain claim {domainId}.
func (a *API) verifyDomain(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.VerifyDomain(r.Context(), c, id(r), param(r, "domainId"))
	return respond(http.StatusOK, v, err)
}

// deleteDomain removes the customer's domain claim {domainId}.
func (a *API) deleteDomain(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.DeleteDomain(r.Context(), c, id(r), param(r, "domainId")))
}

// deleteGrant removes the user's customer grant, or instance grant.
func (a *API) deleteGrant(instance bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, a.svc.DeleteGrant(r.Context(), c, instance, id(r), param(r, "userId")))
	}
}

// endSession signs the route's {id} out of its session {sessionId}.
func endSession(call func(ctx context.Context, c *access.Caller, id, sessionID string) error) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, call(r.Context(), c, id(r), param(r, "sessionId")))
	}
}

func (a *API) endOwnImpersonation(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.EndOwnImpersonation(r.Context(), c))
}

func (a *API) leaveFocus(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.LeaveFocus(r.Context(), c))
}

func (a *API) unsubscribe(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.Unsubscribe(r.Context(), c, param(r, "eventType")))
}

// billedTotals answers a customer's billed totals of ?from= to ?to= as a
// page.
func (a *API) billedTotals(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	q := r.URL.Query()
	v, err := a.svc.BilledTotals(r.Context(), c, id(r), q.Get("from"), q.Get("to"))
	return respond(http.StatusOK, admin.WholePage(v), err)
}

// pauseWorker pauses the worker (paused true) or resumes it.
func (a *API) pauseWorker(paused bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := a.svc.PauseSystemWorker(r.Context(), c, id(r), paused)
		return respond(http.StatusOK, v, err)
	}
}

// The handlers of the group routes: the service's group methods take the
// kind of group (a customer's, or internal) and, for members, whether the
// route is about managers.

func groupCall[T any](internal bool, call func(context.Context, *access.Caller, bool, string) (T, error)) func(context.Context, *access.Caller, string) (T, error) {
	return func(ctx context.Context, c *access.Caller, id string) (T, error) { return call(ctx, c, internal, id) }
}

func groupBodyCall[In, T any](internal bool, call func(context.Context, *access.Caller, bool, string, In) (T, error)) func(context.Context, *access.Caller, string, In) (T, error) {
	return func(ctx context.Context, c *access.Caller, id string, in In) (T, error) {
		return call(ctx, c, internal, id, in)
	}
}

func groupDelete(internal bool, call func(context.Context, *access.Caller, bool, string) error) func(context.Context, *access.Caller, string) error {
	return func(ctx context.Context, c *access.Caller, id string) error { return call(ctx, c, internal, id) }
}

// groupMembers answers a page of the group's members (or managers) by
// e-mail, for ?limit= and ?cursor=.
func (a *API) groupMembers(internal, managers bool) Handler {
	return answer(http.StatusOK, id, pages(platform.NamePages),
		func(ctx context.Context, c *access.Caller, id string, p admin.PageInput) (*admin.Page[*admin.GroupMember], error) {
			return a.svc.GroupMembers(ctx, c, internal, managers, id, p)
		})
}

func (a *API) putGroupMember(internal, manager bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := a.svc.AddGroupMember(r.Context(), c, internal, manager, id(r), param(r, "userId"))
		return respond(http.StatusOK, v, err)
	}
}

func (a *API) deleteGroupMember(internal, manager bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, a.svc.RemoveGroupMember(r.Context(), c, internal, manager, id(r), param(r, "userId")))
	}
}

// deleteGroupGrant removes the internal group's grant of the customer, or
// of the instance, {targetId}.
func (a *API) deleteGroupGrant(instance bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		in := admin.GroupGrantInput{CustomerID: param(r, "targetId")}
		if instance {
			in = admin.GroupGrantInput{InstanceID: param(r, "targetId")}
		}
		return respond(http.StatusNoContent, nil, a.svc.DeleteGroupGrant(r.Context(), c, id(r), in))
	}
}
