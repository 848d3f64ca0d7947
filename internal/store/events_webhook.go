package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Webhook is a customer's subscription to its events. SecretSealed is the
// signing secret sealed for its row.
type Webhook struct {
	ID           string
	CustomerID   string
	URL          string
	Description  string
	Events       []string
	SecretSealed []byte
	Active       bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

const webhookColumns = `id, customer_id, url, description, events, secret_sealed, active, created_at, updated_at`

func scanWebhook(r Row) (Webhook, error) {
	var w Webhook
	var events string
	err := r.Scan(&w.ID, &w.CustomerID, &w.URL, &w.Description, &events, &w.SecretSealed, &w.Active, &w.CreatedAt, &w.UpdatedAt)
	w.Events = decodeList(events)
	return w, err
}

var webhooks = table[Webhook]{"webhooks", "webhook", webhookColumns, scanWebhook}

// CreateWebhook stores a webhook.
func (s *Events) CreateWebhook(ctx context.Context, w *Webhook) error {
	return webhooks.insert(ctx, s.db, w.ID, w.CustomerID, w.URL, w.Description, jsonList(w.Events), w.SecretSealed, w.Active,
		w.CreatedAt.UTC(), w.UpdatedAt.UTC())
}

// Webhook returns one webhook. ENOTFOUND.
func (s *Events) Webhook(ctx context.Context, id string) (*Webhook, error) {
	return webhooks.get(ctx, s.db, id)
}

// Webhooks lists a customer's webhooks, oldest first.
func (s *Events) Webhooks(ctx context.Context, customerID string) ([]Webhook, error) {
	return webhooks.list(ctx, s.db, "customer_id = $1", "created_at, id", customerID)
}

// UpdateWebhook runs fn on the stored webhook in a transaction and saves
// what fn leaves. ENOTFOUND.
func (s *Events) UpdateWebhook(ctx context.Context, id string, fn func(*Webhook) error) (*Webhook, error) {
	return webhooks.update(ctx, s.querier, id, fn, `url = $2, description = $3, events = $4, secret_sealed = $5, active = $6,
		updated_at = $7`, func(w *Webhook) []any {
		return []any{w.URL, w.Description, jsonList(w.Events), w.SecretSealed, w.Active, w.UpdatedAt.UTC()}
	})
}

// DeleteWebhook removes a webhook and its deliveries. ENOTFOUND.
func (s *Events) DeleteWebhook(ctx context.Context, id string) error {
	return webhooks.delete(ctx, s.querier, id)
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event on its way to one webhook.
type WebhookDelivery struct {
	ID             string
	WebhookID      string
	EventID        string
	EventType      string
	Payload        string
	Status         string
	Attempts       int
	NextAttemptAt  time.Time
	LastStatusCode int
	LastError      string
	CreatedAt      time.Time
	DeliveredAt    *time.Time
}

const deliveryColumns = `id, webhook_id, event_id, event_type, payload, status, attempts, next_attempt_at, last_status_code,
	last_error, created_at, delivered_at`

func scanDelivery(r Row) (WebhookDelivery, error) {
	var d WebhookDelivery
	var delivered sql.NullTime
	err := r.Scan(&d.ID, &d.WebhookID, &d.EventID, &d.EventType, &d.Payload, &d.Status, &d.Attempts, &d.NextAttemptAt,
		&d.LastStatusCode, &d.LastError, &d.CreatedAt, &delivered)
	d.DeliveredAt = timePtr(delivered)
	return d, err
}

var deliveries = table[WebhookDelivery]{"webhook_deliveries", "webhook delivery", deliveryColumns, scanDelivery}

// AddWebhookDelivery queues a delivery; a webhook gets each event once, so
// queuing it again does nothing and answers false.
func (s *Events) AddWebhookDelivery(ctx context.Context, d *WebhookDelivery) (bool, error) {
	n, err := s.db.Exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, attempts,
		next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8) ON CONFLICT (webhook_id, event_id) DO NOTHING`,
		d.ID, d.WebhookID, d.EventID, d.EventType, d.Payload, DeliveryPending, d.NextAttemptAt.UTC(), d.CreatedAt.UTC())
	return n == 1, wrap(err, "webhook delivery")
}

// WebhookDeliveries lists a webhook's deliveries, newest first.
func (s *Events) WebhookDeliveries(ctx context.Context, webhookID string, limit int) ([]WebhookDelivery, error) {
	return deliveries.list(ctx, s.db, "webhook_id = $1", "created_at DESC, id DESC LIMIT $2", webhookID, platform.NewestPages.Size(limit))
}

// WebhookDelivery returns one delivery. ENOTFOUND.
func (s *Events) WebhookDelivery(ctx context.Context, id string) (*WebhookDelivery, error) {
	return deliveries.get(ctx, s.db, id)
}

// DueWebhookDeliveries lists pending deliveries whose next attempt is due
// at now, oldest due first.
func (s *Events) DueWebhookDeliveries(ctx context.Context, now time.Time, limit int) ([]WebhookDelivery, error) {
	return due(ctx, s.db, webhookQueue, deliveryColumns, scanDelivery, now, limit)
}

// ClaimWebhookDelivery leases a due delivery until leaseUntil, so one
// dispatcher among replicas sends it: true when this caller won it (it was
// still pending and due at now).
func (s *Events) ClaimWebhookDelivery(ctx context.Context, id string, now, leaseUntil time.Time) (bool, error) {
	return webhookQueue.claim(ctx, s.db, id, now, leaseUntil)
}

// RecordWebhookAttempt stores the outcome of an attempt: the new status,
// attempt count, next attempt, answer and error.
func (s *Events) RecordWebhookAttempt(ctx context.Context, d *WebhookDelivery) error {
	return s.execOne(ctx, deliveries.noun, `UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4,
		last_status_code = $5, last_error = $6, delivered_at = $7 WHERE id = $1`, d.ID, d.Status, d.Attempts,
		d.NextAttemptAt.UTC(), d.LastStatusCode, d.LastError, nullTimePtr(d.DeliveredAt))
}

// WebhookEvent is an audit event of a customer that has an active webhook
// created before it, with that webhook: an allowed administration write or
// a security event, never a refusal of the APIs (access.denied).
type WebhookEvent struct {
	Event        AuditEvent
	WebhookID    string
	WebhookEvent []string
}

// WebhookEvents lists (event, webhook) pairs after the pair (at, eventID,
// webhookID) in that order, at most limit: the events WebhookEvent
// describes, of customers with active webhooks created no later than the
// event. Start with empty ids to include events at exactly at.
func (s *Events) WebhookEvents(ctx context.Context, at time.Time, eventID, webhookID string, limit int) ([]WebhookEvent, error) {
	return queryAll(ctx, s.db, func(r Row) (WebhookEvent, error) {
		var we WebhookEvent
		var events string
		err := r.Scan(append(auditDest(&we.Event), &we.WebhookID, &events)...)
		we.WebhookEvent = decodeList(events)
		return we, err
	}, `SELECT `+auditColumns+`, w.id, w.events
		FROM audit_log a JOIN webhooks w ON w.customer_id = a.customer_id AND w.active AND w.created_at <= a.at
		WHERE a.kind <> 'access.denied' AND (a.decision = 'allowed' OR a.kind NOT IN ('', 'admin.write'))
			AND (a.at > $1 OR (a.at = $1 AND (a.id > $2 OR (a.id = $2 AND w.id > $3))))
		ORDER BY a.at, a.id, w.id LIMIT $4`, at.UTC(), eventID, webhookID, platform.NewestPages.Size(limit))
}

// WebhookCursor returns how far the dispatcher named name has read the
// audit log (zero time when it never ran).
func (s *Events) WebhookCursor(ctx context.Context, name string) (time.Time, error) {
	var at time.Time
	err := s.db.QueryRow(ctx, `SELECT at FROM webhook_cursor WHERE name = $1`, name).Scan(&at)
	if errors.Is(err, ErrNoRows) {
		return time.Time{}, nil
	}
	return at, err
}

// SetWebhookCursor moves the dispatcher's cursor forward (never back).
func (s *Events) SetWebhookCursor(ctx context.Context, name string, at time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO webhook_cursor (name, at) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET at = EXCLUDED.at WHERE webhook_cursor.at < EXCLUDED.at`, name, at.UTC())
	return err
}
