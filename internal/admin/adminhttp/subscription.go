package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// Subscriptions are the caller's own; every role may hold them, and they
// grant nothing (R6-subscription).
func (a *API) subscriptionRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/me/subscriptions", Op: admin.OpSubscriptionList, Handle: a.listSubscriptions},
		{Method: http.MethodPost, Pattern: "/me/subscriptions", Op: admin.OpSubscriptionCreate,
			Handle: withBody(http.StatusCreated, s.Subscribe)},
		{Method: http.MethodDelete, Pattern: "/me/subscriptions/{eventType}", Op: admin.OpSubscriptionDelete, Handle: a.unsubscribe},
	}
}

func (a *API) listSubscriptions(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.Subscriptions(r.Context(), c)
	return respond(http.StatusOK, map[string]any{"items": v}, err)
}

func (a *API) unsubscribe(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.Unsubscribe(r.Context(), c, param(r, "eventType")))
}
