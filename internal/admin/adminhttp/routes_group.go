package adminhttp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

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
