package admin

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// webhooks manages a customer's webhooks.
type webhooks struct {
	*core
	egress egress.Policy // where a webhook may point (WithEgress)
}

// A customer's webhooks are customer-side configuration (R4.6-customer-side,
// see identity_provider.go): the signing secret is sealed, and answered
// once, in the answer that creates or rotates it.

// WebhookView is a webhook as the API shows it; the signing secret is not part of it.
type WebhookView struct {
	ID          string    `json:"id"`
	CustomerID  string    `json:"customerId"`
	URL         string    `json:"url"`
	Description string    `json:"description"`
	Events      []string  `json:"events"`
	Active      bool      `json:"active"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// WebhookSecret is a webhook with its signing secret, answered once when
// the webhook is created or its secret rotated.
type WebhookSecret struct {
	*WebhookView
	Secret string `json:"secret"`
}

func newWebhookView(w *store.Webhook) *WebhookView {
	return &WebhookView{ID: w.ID, CustomerID: w.CustomerID, URL: w.URL, Description: w.Description, Events: w.Events,
		Active: w.Active, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

// WebhookInput creates a webhook. Events are action names of the
// capability matrix (manage_tenant, manage_billing, …: the administration
// writes decided on them), kinds of event (the security events of the
// customer's users, sign_in, account.locked, …, and admin.write for every
// administration write) or "*" for every event of the customer; default
// ["*"]. Active defaults to true.
type WebhookInput struct {
	URL         string   `json:"url"`
	Description string   `json:"description,omitempty"`
	Events      []string `json:"events,omitempty"`
	Active      *bool    `json:"active,omitempty"`
}

// WebhookPatch changes a webhook; nil fields stay.
type WebhookPatch struct {
	URL         *string   `json:"url,omitempty"`
	Description *string   `json:"description,omitempty"`
	Events      *[]string `json:"events,omitempty"`
	Active      *bool     `json:"active,omitempty"`
}

// WebhookAllEvents subscribes a webhook to every event of its customer.
const WebhookAllEvents = "*"

// webhookDelivers reports whether a webhook may subscribe to e: an action
// (its administration writes), or a kind of event webhooks carry (the
// security events, admin.write; refusals are not delivered).
func webhookDelivers(e string) bool {
	if _, err := authz.ParseAction(e); err == nil {
		return true
	}
	k := audit.Kind(e)
	return k.Security() || k == audit.AdminWrite
}

func webhookEvents(in []string) ([]string, error) {
	if in == nil {
		return []string{WebhookAllEvents}, nil
	}
	if len(in) == 0 || len(in) > 50 {
		return nil, invalid("events must name 1 to 50 events")
	}
	out := []string{}
	for _, e := range in {
		if e != WebhookAllEvents && !webhookDelivers(e) {
			return nil, invalid("event %q is not an event type; use an action name, a kind of event (sign_in, admin.write, …) or \"*\"", e)
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// webhookURL validates a webhook URL (outboundURL).
func (s *webhooks) webhookURL(ctx context.Context, raw string) (string, error) {
	return outboundURL(ctx, s.egress, "url", raw)
}

func newWebhookSecret() string { return "whsec_" + randomHex(32) }

// ListWebhooks lists a customer's webhooks.
func (s *webhooks) ListWebhooks(ctx context.Context, c *access.Caller, customerID string) (*Page[*WebhookView], error) {
	return customerList(ctx, s.core, c, OpWebhookList, customerID, s.store.Webhooks, newWebhookView)
}

// CreateWebhook subscribes a URL to a customer's events and answers its
// signing secret, this once. EINVALID; ECONFLICT once the customer has
// MaxWebhooks.
func (s *webhooks) CreateWebhook(ctx context.Context, c *access.Caller, customerID string, in WebhookInput) (*WebhookSecret, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpWebhookCreate); err != nil {
		return nil, err
	}
	now := s.stamp()
	w := &store.Webhook{ID: newID(), CustomerID: customerID, Active: true, CreatedAt: now, UpdatedAt: now}
	var err error
	if w.URL, err = s.webhookURL(ctx, in.URL); err != nil {
		return nil, err
	}
	if w.Description, err = text("description", in.Description, 500); err != nil {
		return nil, err
	}
	if w.Events, err = webhookEvents(in.Events); err != nil {
		return nil, err
	}
	if in.Active != nil {
		w.Active = *in.Active
	}
	secret := newWebhookSecret()
	w.SecretSealed = s.secrets().Seal([]byte(secret), secrets.LabelWebhookSecret(w.ID))
	err = s.audited(ctx, c, OpWebhookCreate, on(customerID, "webhooks", w.ID), func(tx *store.Store) error {
		if err := withinBudget(ctx, tx, store.CustomerWebhooks, customerID); err != nil {
			return err
		}
		return tx.CreateWebhook(ctx, w)
	})
	if err != nil {
		return nil, err
	}
	return &WebhookSecret{WebhookView: newWebhookView(w), Secret: secret}, nil
}

func (s *webhooks) webhookFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.Webhook, error) {
	return decided(ctx, s.core, c, op, webhookResource)(s.store.Webhook(ctx, id))
}

// Webhook returns one webhook. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *webhooks) Webhook(ctx context.Context, c *access.Caller, id string) (*WebhookView, error) {
	return viewing(newWebhookView)(s.webhookFor(ctx, c, id, OpWebhookGet))
}

// UpdateWebhook changes a webhook. EINVALID.
func (s *webhooks) UpdateWebhook(ctx context.Context, c *access.Caller, id string, in WebhookPatch) (*WebhookView, error) {
	old, err := s.webhookFor(ctx, c, id, OpWebhookUpdate)
	if err != nil {
		return nil, err
	}
	var newURL string
	if in.URL != nil { // checked before the transaction: it may look the name up
		if newURL, err = s.webhookURL(ctx, *in.URL); err != nil {
			return nil, err
		}
	}
	w, err := auditedRow(ctx, s.core, c, OpWebhookUpdate, on(old.CustomerID, "webhooks", id), func(tx *store.Store) (*store.Webhook, error) {
		return tx.UpdateWebhook(ctx, id, func(w *store.Webhook) error { return s.patchWebhook(w, in, newURL) })
	})
	if err != nil {
		return nil, err
	}
	return newWebhookView(w), nil
}

// patchWebhook applies in to w, its URL checked already (newURL). EINVALID.
func (s *webhooks) patchWebhook(w *store.Webhook, in WebhookPatch, newURL string) error {
	var err error
	if in.URL != nil {
		w.URL = newURL
	}
	if in.Description != nil {
		if w.Description, err = text("description", *in.Description, 500); err != nil {
			return err
		}
	}
	if in.Events != nil {
		if *in.Events == nil {
			return invalid("events must name 1 to 50 events")
		}
		if w.Events, err = webhookEvents(*in.Events); err != nil {
			return err
		}
	}
	if in.Active != nil {
		w.Active = *in.Active
	}
	w.UpdatedAt = s.stamp()
	return nil
}

// RotateWebhookSecret replaces a webhook's signing secret and answers the
// new one, this once.
func (s *webhooks) RotateWebhookSecret(ctx context.Context, c *access.Caller, id string) (*WebhookSecret, error) {
	old, err := s.webhookFor(ctx, c, id, OpWebhookSecretRotate)
	if err != nil {
		return nil, err
	}
	secret := newWebhookSecret()
	w, err := auditedRow(ctx, s.core, c, OpWebhookSecretRotate, on(old.CustomerID, "webhooks", id), func(tx *store.Store) (*store.Webhook, error) {
		return tx.UpdateWebhook(ctx, id, func(w *store.Webhook) error {
			w.SecretSealed, w.UpdatedAt = s.secrets().Seal([]byte(secret), secrets.LabelWebhookSecret(w.ID)), s.stamp()
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return &WebhookSecret{WebhookView: newWebhookView(w), Secret: secret}, nil
}

// DeleteWebhook removes a webhook and its deliveries.
func (s *webhooks) DeleteWebhook(ctx context.Context, c *access.Caller, id string) error {
	w, err := s.webhookFor(ctx, c, id, OpWebhookDelete)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpWebhookDelete, on(w.CustomerID, "webhooks", id), func(tx *store.Store) error { return tx.DeleteWebhook(ctx, id) })
}

// WebhookDeliveryView is one event on its way to a webhook, as the API
// shows it (without the payload); deliveredAt is null until delivered.
type WebhookDeliveryView struct {
	ID             string     `json:"id"`
	WebhookID      string     `json:"webhookId"`
	EventID        string     `json:"eventId"`
	EventType      string     `json:"eventType"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  time.Time  `json:"nextAttemptAt"`
	LastStatusCode int        `json:"lastStatusCode"`
	LastError      string     `json:"lastError"`
	CreatedAt      time.Time  `json:"createdAt"`
	DeliveredAt    *time.Time `json:"deliveredAt"`
}

func newWebhookDeliveryView(d *store.WebhookDelivery) *WebhookDeliveryView {
	return &WebhookDeliveryView{ID: d.ID, WebhookID: d.WebhookID, EventID: d.EventID, EventType: d.EventType, Status: d.Status,
		Attempts: d.Attempts, NextAttemptAt: d.NextAttemptAt, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
}

// ListWebhookDeliveries lists a webhook's latest deliveries, newest first.
func (s *webhooks) ListWebhookDeliveries(ctx context.Context, c *access.Caller, id string, limit int) (*Page[*WebhookDeliveryView], error) {
	if _, err := s.webhookFor(ctx, c, id, OpWebhookDeliveries); err != nil {
		return nil, err
	}
	if err := platform.NewestPages.Check("limit", limit); err != nil {
		return nil, err
	}
	rows, err := s.store.WebhookDeliveries(ctx, id, limit)
	if err != nil {
		return nil, err
	}
	return WholePage(views(rows, newWebhookDeliveryView)), nil
}

func webhookResource(w *store.Webhook) authz.Resource {
	return authz.Resource{CustomerID: w.CustomerID}
}

// WebhookResource is the customer of the webhook id.
func (s *webhooks) WebhookResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(webhookResource)(s.store.Webhook(ctx, id))
}
