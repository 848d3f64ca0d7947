package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// webhookRoutes: a customer's webhooks and their deliveries, open to
// account_manager within scope (R4.6-customer-side).
func (a *API) webhookRoutes() []Route {
	const act = authz.ManageCustomerConfig
	s, cust, hook := a.svc, a.svc.CustomerResource, a.svc.WebhookResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers/{id}/webhooks", Action: act, Target: cust, Handle: byID(http.StatusOK, s.ListWebhooks)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/webhooks", Action: act, Write: true, Target: cust,
			Handle: byIDWithBody(http.StatusCreated, s.CreateWebhook)},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}", Action: act, Target: hook, Handle: byID(http.StatusOK, s.Webhook)},
		{Method: http.MethodPatch, Pattern: "/webhooks/{id}", Action: act, Write: true, Target: hook,
			Handle: byIDWithBody(http.StatusOK, s.UpdateWebhook)},
		{Method: http.MethodDelete, Pattern: "/webhooks/{id}", Action: act, Write: true, Target: hook, Handle: deleteByID(s.DeleteWebhook)},
		{Method: http.MethodPost, Pattern: "/webhooks/{id}/rotate-secret", Action: act, Write: true, Target: hook,
			Handle: byID(http.StatusOK, s.RotateWebhookSecret)},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}/deliveries", Action: act, Target: hook, Handle: a.listWebhookDeliveries},
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
