package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// webhookRoutes: a customer's webhooks and their deliveries, open to
// account_manager within scope (R4.6-customer-side).
func (a *API) webhookRoutes() []Route {
	s, cust, hook := a.svc, a.svc.CustomerResource, a.svc.WebhookResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers/{id}/webhooks", Op: admin.OpWebhookList, Locate: cust, Handle: byID(http.StatusOK, s.ListWebhooks)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/webhooks", Op: admin.OpWebhookCreate, Locate: cust,
			Handle: byIDWithBody(http.StatusCreated, s.CreateWebhook)},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}", Op: admin.OpWebhookGet, Locate: hook, Handle: byID(http.StatusOK, s.Webhook)},
		{Method: http.MethodPatch, Pattern: "/webhooks/{id}", Op: admin.OpWebhookUpdate, Locate: hook,
			Handle: byIDWithBody(http.StatusOK, s.UpdateWebhook)},
		{Method: http.MethodDelete, Pattern: "/webhooks/{id}", Op: admin.OpWebhookDelete, Locate: hook, Handle: deleteByID(s.DeleteWebhook)},
		{Method: http.MethodPost, Pattern: "/webhooks/{id}/rotate-secret", Op: admin.OpWebhookSecretRotate, Locate: hook,
			Handle: byID(http.StatusOK, s.RotateWebhookSecret)},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}/deliveries", Op: admin.OpWebhookDeliveries, Locate: hook, Handle: a.listWebhookDeliveries},
	}
}

func (a *API) listWebhookDeliveries(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	limit, err := limitParam(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListWebhookDeliveries(r.Context(), c, id(r), limit)
	return respond(http.StatusOK, v, err)
}
