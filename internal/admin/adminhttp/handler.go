package adminhttp

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The shapes of the handlers. Every handler takes from the request the key
// it names (the route's {id}, a query parameter, or nothing) and the input
// it carries (the JSON body, paging or filter parameters, or nothing),
// calls one service method with them and answers its result with status,
// or its error: answer. The shapes below fit the service's signatures to
// it, one each.

// answer is the one shape of a handler: key and read take the call's key
// and input from the request, call answers for the caller, and the handler
// answers status and what call returns (nil: no content).
func answer[In, T any](status int, key func(*http.Request) string, read func(*http.Request) (In, error),
	call func(context.Context, *access.Caller, string, In) (T, error)) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		in, err := read(r)
		if err != nil {
			return 0, nil, err
		}
		v, err := call(r.Context(), c, key(r), in)
		return respond(status, v, err)
	}
}

// respond is a handler's answer: status and v, or err. A nil v answers no content.
func respond(status int, v any, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return status, v, nil
}

// unkeyed fits a call that takes no key to answer.
func unkeyed[In, T any](call func(context.Context, *access.Caller, In) (T, error)) func(context.Context, *access.Caller, string, In) (T, error) {
	return func(ctx context.Context, c *access.Caller, _ string, in In) (T, error) { return call(ctx, c, in) }
}

// keyOnly fits a call that takes the key and no input to answer.
func keyOnly[T any](call func(context.Context, *access.Caller, string) (T, error)) func(context.Context, *access.Caller, string, struct{}) (T, error) {
	return func(ctx context.Context, c *access.Caller, key string, _ struct{}) (T, error) {
		return call(ctx, c, key)
	}
}

// callerOnly fits a call that takes neither key nor input to answer.
func callerOnly[T any](call func(context.Context, *access.Caller) (T, error)) func(context.Context, *access.Caller, string, struct{}) (T, error) {
	return func(ctx context.Context, c *access.Caller, _ string, _ struct{}) (T, error) { return call(ctx, c) }
}

// groupCall, groupBodyCall and groupDelete fit a group method, which takes
// the kind of group (a customer's, or internal), to the shapes.
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

// items answers the list call returns as {"items": […]}.
func items[In, T any](call func(context.Context, *access.Caller, string, In) ([]T, error)) func(context.Context, *access.Caller, string, In) (any, error) {
	return func(ctx context.Context, c *access.Caller, key string, in In) (any, error) {
		v, err := call(ctx, c, key, in)
		return map[string]any{"items": v}, err
	}
}

// ofCaller answers what call returns for the caller.
func ofCaller[T any](status int, call func(context.Context, *access.Caller) (T, error)) Handler {
	return answer(status, none, nothing, callerOnly(call))
}

// withBody answers what call returns for the request's JSON body.
func withBody[In, T any](status int, call func(context.Context, *access.Caller, In) (T, error)) Handler {
	return answer(status, none, body[In], unkeyed(call))
}

// byID answers what call returns for the route's {id}.
func byID[T any](status int, call func(context.Context, *access.Caller, string) (T, error)) Handler {
	return answer(status, id, nothing, keyOnly(call))
}

// byIDWithBody answers what call returns for the route's {id} and the
// request's JSON body.
func byIDWithBody[In, T any](status int, call func(context.Context, *access.Caller, string, In) (T, error)) Handler {
	return answer(status, id, body[In], call)
}

// deleteByID answers 204 once call has removed the route's {id}.
func deleteByID(call func(context.Context, *access.Caller, string) error) Handler {
	return answer(http.StatusNoContent, id, nothing, func(ctx context.Context, c *access.Caller, id string, _ struct{}) (any, error) {
		return nil, call(ctx, c, id)
	})
}

// deleteByIDAnd answers 204 once call has removed the route's {name} of
// its {id}: a tenant's member, a session, a domain claim.
func deleteByIDAnd(name string, call func(context.Context, *access.Caller, string, string) error) Handler {
	return func(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
		return respond(http.StatusNoContent, nil, call(r.Context(), c, id(r), param(r, name)))
	}
}

// itemsByID answers the list call returns for the route's {id} as {"items": […]}.
func itemsByID[T any](call func(context.Context, *access.Caller, string) ([]T, error)) Handler {
	return answer(http.StatusOK, id, nothing, items(keyOnly(call)))
}

// listed answers the list call returns for what read takes from the
// query string.
func listed[Q, T any](read func(*http.Request) (Q, error), call func(context.Context, *access.Caller, Q) (T, error)) Handler {
	return answer(http.StatusOK, none, read, unkeyed(call))
}

// listedByID answers the list call returns for the route's {id} and what
// read takes from the query string.
func listedByID[Q, T any](read func(*http.Request) (Q, error), call func(context.Context, *access.Caller, string, Q) (T, error)) Handler {
	return answer(http.StatusOK, id, read, call)
}

// paged answers the page of a list by name call returns for ?limit= and ?cursor=.
func paged[T any](call func(context.Context, *access.Caller, admin.PageInput) (T, error)) Handler {
	return listed(pages(platform.NamePages), call)
}

// searched answers the page of a list by name call returns for ?search=
// (a part of the names, case-insensitive; "" for all), ?limit= and
// ?cursor=.
func searched[T any](call func(context.Context, *access.Caller, string, admin.PageInput) (T, error)) Handler {
	return answer(http.StatusOK, query("search"), pages(platform.NamePages), call)
}

// searchedByCustomer is searched with ?customerId= ("" for every customer
// in the caller's scope).
func searchedByCustomer[T any](call func(context.Context, *access.Caller, string, string, admin.PageInput) (T, error)) Handler {
	type in struct {
		search string
		page   admin.PageInput
	}
	read := func(r *http.Request) (in, error) {
		p, err := pageInput(r, platform.NamePages)
		return in{r.URL.Query().Get("search"), p}, err
	}
	return answer(http.StatusOK, query("customerId"), read, func(ctx context.Context, c *access.Caller, customerID string, q in) (T, error) {
		return call(ctx, c, customerID, q.search, q.page)
	})
}

// pagedByID answers the page of a newest-first list call returns for the
// route's {id}, ?limit= and ?cursor=.
func pagedByID[T any](call func(context.Context, *access.Caller, string, admin.PageInput) (T, error)) Handler {
	return answer(http.StatusOK, id, pages(platform.NewestPages), call)
}

// exported answers the audit log's export as NDJSON (ndjson).
func exported[Q any](call func(context.Context, *access.Caller, Q) (*admin.Export, error)) func(context.Context, *access.Caller, Q) (any, error) {
	return func(ctx context.Context, c *access.Caller, q Q) (any, error) {
		x, err := call(ctx, c, q)
		if err != nil {
			return nil, err
		}
		return ndjson{x}, nil
	}
}
