package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The handlers no shape of handler.go fits: those that take more of the
// request than a key and an input, or answer what no shape does, and the
// group routes' that take a member or a grant.

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

// verifyDomain proves the customer's domain claim {domainId}.
func (a *API) verifyDomain(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.VerifyDomain(r.Context(), c, id(r), param(r, "domainId"))
	return respond(http.StatusOK, v, err)
}

// deleteGrant removes the user's customer grant, or instance grant.
func (a *API) deleteGrant(instance bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, a.svc.DeleteGrant(r.Context(), c, instance, id(r), param(r, "userId")))
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

// groupMembers answers a page of the group's members (or managers) by
// e-mail, for ?limit= and ?cursor=.
func (a *API) groupMembers(internal, managers bool) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		p, err := pageInput(r, platform.NamePages)
		if err != nil {
			return 0, nil, err
		}
		v, err := a.svc.GroupMembers(r.Context(), c, internal, managers, id(r), p)
		return respond(http.StatusOK, v, err)
	}
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
