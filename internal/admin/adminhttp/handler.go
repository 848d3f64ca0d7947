package adminhttp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// The shapes of the handlers: each parses the request, calls one service
// method and answers its result with status, or its error.

// respond is a handler's answer: status and v, or err. A nil v answers no content.
func respond(status int, v any, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return status, v, nil
}

// ofCaller answers what call returns for the caller.
func ofCaller[T any](status int, call func(context.Context, *access.Caller) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := call(r.Context(), c)
		return respond(status, v, err)
	}
}

// withBody answers what call returns for the request's JSON body.
func withBody[In, T any](status int, call func(context.Context, *access.Caller, In) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		var in In
		if err := httpapi.DecodeJSON(r, &in); err != nil {
			return 0, nil, err
		}
		v, err := call(r.Context(), c, in)
		return respond(status, v, err)
	}
}

// byID answers what call returns for the route's {id}.
func byID[T any](status int, call func(context.Context, *access.Caller, string) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := call(r.Context(), c, id(r))
		return respond(status, v, err)
	}
}

// byIDWithBody answers what call returns for the route's {id} and the
// request's JSON body.
func byIDWithBody[In, T any](status int, call func(context.Context, *access.Caller, string, In) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		var in In
		if err := httpapi.DecodeJSON(r, &in); err != nil {
			return 0, nil, err
		}
		v, err := call(r.Context(), c, id(r), in)
		return respond(status, v, err)
	}
}

// deleteByID answers 204 once call has removed the route's {id}.
func deleteByID(call func(context.Context, *access.Caller, string) error) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, call(r.Context(), c, id(r)))
	}
}

// itemsByID answers the list call returns for the route's {id} as {"items": […]}.
func itemsByID[T any](call func(context.Context, *access.Caller, string) ([]T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		v, err := call(r.Context(), c, id(r))
		return respond(http.StatusOK, map[string]any{"items": v}, err)
	}
}

// paged answers the page of a list by name call returns for ?limit= and ?cursor=.
func paged[T any](call func(context.Context, *access.Caller, admin.PageInput) (T, error)) Handler {
	return pagedBy(platform.NamePages, func(*http.Request) string { return "" },
		func(ctx context.Context, c *access.Caller, _ string, p admin.PageInput) (T, error) {
			return call(ctx, c, p)
		})
}

// pagedByCustomer answers the page of a list by name call returns for
// ?customerId= ("" for every customer in the caller's scope), ?limit= and
// ?cursor=.
func pagedByCustomer[T any](call func(context.Context, *access.Caller, string, admin.PageInput) (T, error)) Handler {
	return pagedBy(platform.NamePages, func(r *http.Request) string { return r.URL.Query().Get("customerId") }, call)
}

// pagedByID answers the page of a newest-first list call returns for the
// route's {id}, ?limit= and ?cursor=.
func pagedByID[T any](call func(context.Context, *access.Caller, string, admin.PageInput) (T, error)) Handler {
	return pagedBy(platform.NewestPages, id, call)
}

// pagedBy answers the page call returns for the key the request names,
// ?limit= (within limits) and ?cursor=.
func pagedBy[T any](limits platform.PageLimit, key func(*http.Request) string,
	call func(context.Context, *access.Caller, string, admin.PageInput) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		p, err := pageInput(r, limits)
		if err != nil {
			return 0, nil, err
		}
		v, err := call(r.Context(), c, key(r), p)
		return respond(http.StatusOK, v, err)
	}
}
