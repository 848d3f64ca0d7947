package admin

import (
	"context"
	"net/http"
	"strconv"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// customerConfigRoutes: a customer's SSO settings and identity providers,
// webhooks and service accounts, open to account_manager within scope
// (R4.6-customer-side).
func (a *Admin) customerConfigRoutes() []Route {
	const act = authz.ManageCustomerConfig
	cust := a.customerTarget
	idp := ownerTarget(func(ctx context.Context, id string) (string, error) {
		c, err := a.store.IDPConfig(ctx, id)
		return c.CustomerID, err
	})
	hook := ownerTarget(func(ctx context.Context, id string) (string, error) {
		w, err := a.store.Webhook(ctx, id)
		return w.CustomerID, err
	})
	sa := ownerTarget(func(ctx context.Context, id string) (string, error) {
		s, err := a.store.ServiceAccount(ctx, id)
		return s.CustomerID, err
	})
	return []Route{
		{Method: http.MethodGet, Pattern: "/customers/{id}/sso", Action: act, Target: cust, Handle: a.getSSOSettings},
		{Method: http.MethodPut, Pattern: "/customers/{id}/sso", Action: act, Write: true, Target: cust, Handle: a.putSSOSettings},
		{Method: http.MethodGet, Pattern: "/customers/{id}/identity-providers", Action: act, Target: cust, Handle: a.listIdentityProviders},
		{Method: http.MethodPost, Pattern: "/customers/{id}/identity-providers", Action: act, Write: true, Target: cust, Handle: a.createIdentityProvider},
		{Method: http.MethodGet, Pattern: "/identity-providers/{id}", Action: act, Target: idp, Handle: a.getIdentityProvider},
		{Method: http.MethodPatch, Pattern: "/identity-providers/{id}", Action: act, Write: true, Target: idp, Handle: a.updateIdentityProvider},
		{Method: http.MethodDelete, Pattern: "/identity-providers/{id}", Action: act, Write: true, Target: idp, Handle: a.deleteIdentityProvider},
		// platform_admin's trust in a provider to link accounts (D-linking)
		{Method: http.MethodPut, Pattern: "/identity-providers/{id}/trust", Action: authz.TrustIdentityProvider, Write: true,
			Target: idp, Handle: a.putIdentityProviderTrust},

		{Method: http.MethodGet, Pattern: "/customers/{id}/webhooks", Action: act, Target: cust, Handle: a.listWebhooks},
		{Method: http.MethodPost, Pattern: "/customers/{id}/webhooks", Action: act, Write: true, Target: cust, Handle: a.createWebhook},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}", Action: act, Target: hook, Handle: a.getWebhook},
		{Method: http.MethodPatch, Pattern: "/webhooks/{id}", Action: act, Write: true, Target: hook, Handle: a.updateWebhook},
		{Method: http.MethodDelete, Pattern: "/webhooks/{id}", Action: act, Write: true, Target: hook, Handle: a.deleteWebhook},
		{Method: http.MethodPost, Pattern: "/webhooks/{id}/rotate-secret", Action: act, Write: true, Target: hook, Handle: a.rotateWebhookSecret},
		{Method: http.MethodGet, Pattern: "/webhooks/{id}/deliveries", Action: act, Target: hook, Handle: a.listWebhookDeliveries},

		{Method: http.MethodGet, Pattern: "/customers/{id}/service-accounts", Action: act, Target: cust, Handle: a.listServiceAccounts},
		{Method: http.MethodPost, Pattern: "/customers/{id}/service-accounts", Action: act, Write: true, Target: cust, Handle: a.createServiceAccount},
		{Method: http.MethodGet, Pattern: "/service-accounts/{id}", Action: act, Target: sa, Handle: a.getServiceAccount},
		{Method: http.MethodDelete, Pattern: "/service-accounts/{id}", Action: act, Write: true, Target: sa, Handle: a.deleteServiceAccount},
		{Method: http.MethodPost, Pattern: "/service-accounts/{id}/rotate-secret", Action: act, Write: true, Target: sa, Handle: a.rotateServiceAccountSecret},
	}
}

func (a *Admin) getSSOSettings(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.SSOSettings(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) putSSOSettings(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in SSOSettingsInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.PutSSOSettings(r.Context(), c, id(r), in)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listIdentityProviders(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.ListIdentityProviders(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) createIdentityProvider(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in IdentityProviderInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.CreateIdentityProvider(r.Context(), c, id(r), in)
	return respond(http.StatusCreated, v, err)
}

func (a *Admin) getIdentityProvider(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.IdentityProvider(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) updateIdentityProvider(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in IdentityProviderPatch
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.UpdateIdentityProvider(r.Context(), c, id(r), in)
	return respond(http.StatusOK, v, err)
}

// putIdentityProviderTrust takes {"linkTrusted": true|false}.
func (a *Admin) putIdentityProviderTrust(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in struct {
		LinkTrusted *bool `json:"linkTrusted"`
	}
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	if in.LinkTrusted == nil {
		return 0, nil, invalid("linkTrusted is required (true or false)")
	}
	v, err := a.svc.UpdateIdentityProvider(r.Context(), c, id(r), IdentityProviderPatch{LinkTrusted: in.LinkTrusted})
	return respond(http.StatusOK, v, err)
}

func (a *Admin) deleteIdentityProvider(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.DeleteIdentityProvider(r.Context(), c, id(r)))
}

func (a *Admin) listWebhooks(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.ListWebhooks(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) createWebhook(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in WebhookInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.CreateWebhook(r.Context(), c, id(r), in)
	return respond(http.StatusCreated, v, err)
}

func (a *Admin) getWebhook(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.Webhook(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) updateWebhook(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in WebhookPatch
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.UpdateWebhook(r.Context(), c, id(r), in)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) deleteWebhook(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.DeleteWebhook(r.Context(), c, id(r)))
}

func (a *Admin) rotateWebhookSecret(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.RotateWebhookSecret(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listWebhookDeliveries(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	limit, err := limitParam(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListWebhookDeliveries(r.Context(), c, id(r), limit)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listServiceAccounts(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.ListServiceAccounts(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) createServiceAccount(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in ServiceAccountInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.CreateServiceAccount(r.Context(), c, id(r), in)
	return respond(http.StatusCreated, v, err)
}

func (a *Admin) getServiceAccount(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.ServiceAccount(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) deleteServiceAccount(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	return respond(http.StatusNoContent, nil, a.svc.DeleteServiceAccount(r.Context(), c, id(r)))
}

func (a *Admin) rotateServiceAccountSecret(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.RotateServiceAccountSecret(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

// limitParam reads ?limit= (1 to 1000; 0 when absent, the default).
func limitParam(r *http.Request) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > 1000 {
		return 0, platform.Errorf(platform.EINVALID, "limit must be a number between 1 and 1000")
	}
	return n, nil
}
