package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// The console's remaining administration resources (migration 0010): the
// customer-side configuration, billing, and the internal-infrastructure
// records. Services in internal/admin validate input and check
// authorization; these methods only read and write rows.

// cut trims rows read with a limit one higher than limit, and returns the

// ---- external identity providers of a customer (SSO) ----

// IDPConfig is an external OIDC identity provider a customer's users sign in
// with. ClientSecretSealed is the client secret sealed for its row.
type IDPConfig struct {
	ID                 string
	CustomerID         string
	Name               string
	Issuer             string
	ClientID           string
	ClientSecretSealed []byte
	Scopes             []string
	Enabled            bool
	// LinkTrusted: a platform_admin trusts the provider to link accounts on
	// the customer's verified domains (D-linking).
	LinkTrusted bool
	// MFAEnforced: the customer says the provider enforces MFA (D-federated-mfa).
	MFAEnforced bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const idpConfigColumns = `id, customer_id, name, issuer, client_id, client_secret_sealed, scopes, enabled, created_at, updated_at,
	link_trusted, mfa_enforced`

func scanIDPConfig(r Row) (IDPConfig, error) {
	var c IDPConfig
	var scopes string
	err := r.Scan(&c.ID, &c.CustomerID, &c.Name, &c.Issuer, &c.ClientID, &c.ClientSecretSealed, &scopes, &c.Enabled,
		&c.CreatedAt, &c.UpdatedAt, &c.LinkTrusted, &c.MFAEnforced)
	c.Scopes = decodeList(scopes)
	return c, err
}

// CreateIDPConfig stores an identity provider. ECONFLICT when the customer
// already has one of that name.
func (s *Store) CreateIDPConfig(ctx context.Context, c *IDPConfig) error {
	_, err := s.db.Exec(ctx, `INSERT INTO customer_idp_configs (`+idpConfigColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, c.ID, c.CustomerID, c.Name, c.Issuer, c.ClientID,
		c.ClientSecretSealed, jsonList(c.Scopes), c.Enabled, c.CreatedAt.UTC(), c.UpdatedAt.UTC(), c.LinkTrusted, c.MFAEnforced)
	return wrap(err, "identity provider")
}

// IDPConfig returns one identity provider. ENOTFOUND.
func (s *Store) IDPConfig(ctx context.Context, id string) (*IDPConfig, error) {
	return queryOne(ctx, s.db, "identity provider", scanIDPConfig, `SELECT `+idpConfigColumns+` FROM customer_idp_configs WHERE id = $1`, id)
}

// IDPConfigs lists a customer's identity providers by name.
func (s *Store) IDPConfigs(ctx context.Context, customerID string) ([]IDPConfig, error) {
	return queryAll(ctx, s.db, scanIDPConfig, `SELECT `+idpConfigColumns+` FROM customer_idp_configs WHERE customer_id = $1
		ORDER BY name, id`, customerID)
}

// UpdateIDPConfig runs fn on the stored identity provider in a transaction
// and saves what fn leaves. ENOTFOUND; ECONFLICT on a name already taken.
func (s *Store) UpdateIDPConfig(ctx context.Context, id string, fn func(*IDPConfig) error) (*IDPConfig, error) {
	return update(ctx, s, "identity provider", scanIDPConfig, `SELECT `+idpConfigColumns+` FROM customer_idp_configs WHERE id = $1`, id, fn,
		func(tx *Store, c *IDPConfig) error {
			return tx.execOne(ctx, "identity provider", `UPDATE customer_idp_configs SET name = $2, issuer = $3, client_id = $4,
				client_secret_sealed = $5, scopes = $6, enabled = $7, updated_at = $8, link_trusted = $9, mfa_enforced = $10
				WHERE id = $1`,
				id, c.Name, c.Issuer, c.ClientID, c.ClientSecretSealed, jsonList(c.Scopes), c.Enabled, c.UpdatedAt.UTC(),
				c.LinkTrusted, c.MFAEnforced)
		})
}

// DeleteIDPConfig removes an identity provider. ENOTFOUND.
func (s *Store) DeleteIDPConfig(ctx context.Context, id string) error {
	return s.execOne(ctx, "identity provider", `DELETE FROM customer_idp_configs WHERE id = $1`, id)
}

// UpdateExternalIDP rewrites an external provider of the identity
// provider in place, keeping the identities linked to it. ENOTFOUND.
func (s *Store) UpdateExternalIDP(ctx context.Context, x *platform.ExternalIDP) error {
	if err := x.Validate(); err != nil {
		return err
	}
	return s.execOne(ctx, "identity provider", `UPDATE external_idps SET name = $2, issuer = $3, client_id = $4,
		client_secret_enc = $5, scopes = $6, link_trusted = $7, mfa_enforced = $8 WHERE id = $1`,
		x.ID, x.Name, x.Issuer, x.ClientID, x.SecretSealed, joinList(x.Scopes), x.LinkTrusted, x.MFAEnforced)
}

// ---- webhooks ----

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

// CreateWebhook stores a webhook.
func (s *Store) CreateWebhook(ctx context.Context, w *Webhook) error {
	_, err := s.db.Exec(ctx, `INSERT INTO webhooks (`+webhookColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		w.ID, w.CustomerID, w.URL, w.Description, jsonList(w.Events), w.SecretSealed, w.Active, w.CreatedAt.UTC(), w.UpdatedAt.UTC())
	return wrap(err, "webhook")
}

// Webhook returns one webhook. ENOTFOUND.
func (s *Store) Webhook(ctx context.Context, id string) (*Webhook, error) {
	return queryOne(ctx, s.db, "webhook", scanWebhook, `SELECT `+webhookColumns+` FROM webhooks WHERE id = $1`, id)
}

// Webhooks lists a customer's webhooks, oldest first.
func (s *Store) Webhooks(ctx context.Context, customerID string) ([]Webhook, error) {
	return queryAll(ctx, s.db, scanWebhook, `SELECT `+webhookColumns+` FROM webhooks WHERE customer_id = $1 ORDER BY created_at, id`, customerID)
}

// UpdateWebhook runs fn on the stored webhook in a transaction and saves
// what fn leaves. ENOTFOUND.
func (s *Store) UpdateWebhook(ctx context.Context, id string, fn func(*Webhook) error) (*Webhook, error) {
	return update(ctx, s, "webhook", scanWebhook, `SELECT `+webhookColumns+` FROM webhooks WHERE id = $1`, id, fn,
		func(tx *Store, w *Webhook) error {
			return tx.execOne(ctx, "webhook", `UPDATE webhooks SET url = $2, description = $3, events = $4, secret_sealed = $5,
				active = $6, updated_at = $7 WHERE id = $1`, id, w.URL, w.Description, jsonList(w.Events), w.SecretSealed, w.Active,
				w.UpdatedAt.UTC())
		})
}

// DeleteWebhook removes a webhook and its deliveries. ENOTFOUND.
func (s *Store) DeleteWebhook(ctx context.Context, id string) error {
	return s.execOne(ctx, "webhook", `DELETE FROM webhooks WHERE id = $1`, id)
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event on its way to one webhook.
type WebhookDelivery struct {
	ID             string     `json:"id"`
	WebhookID      string     `json:"webhookId"`
	EventID        string     `json:"eventId"`
	EventType      string     `json:"eventType"`
	Payload        string     `json:"-"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  time.Time  `json:"nextAttemptAt"`
	LastStatusCode int        `json:"lastStatusCode"`
	LastError      string     `json:"lastError"`
	CreatedAt      time.Time  `json:"createdAt"`
	DeliveredAt    *time.Time `json:"deliveredAt"`
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

// AddWebhookDelivery queues a delivery; a webhook gets each event once, so
// queuing it again does nothing and answers false.
func (s *Store) AddWebhookDelivery(ctx context.Context, d *WebhookDelivery) (bool, error) {
	n, err := s.db.Exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, attempts,
		next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8) ON CONFLICT (webhook_id, event_id) DO NOTHING`,
		d.ID, d.WebhookID, d.EventID, d.EventType, d.Payload, DeliveryPending, d.NextAttemptAt.UTC(), d.CreatedAt.UTC())
	return n == 1, wrap(err, "webhook delivery")
}

// WebhookDeliveries lists a webhook's deliveries, newest first.
func (s *Store) WebhookDeliveries(ctx context.Context, webhookID string, limit int) ([]WebhookDelivery, error) {
	return queryAll(ctx, s.db, scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE webhook_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, webhookID, listLimit(limit))
}

// WebhookDelivery returns one delivery. ENOTFOUND.
func (s *Store) WebhookDelivery(ctx context.Context, id string) (*WebhookDelivery, error) {
	return queryOne(ctx, s.db, "webhook delivery", scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = $1`, id)
}

// DueWebhookDeliveries lists pending deliveries whose next attempt is due
// at now, oldest due first.
func (s *Store) DueWebhookDeliveries(ctx context.Context, now time.Time, limit int) ([]WebhookDelivery, error) {
	return queryAll(ctx, s.db, scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`, now.UTC(), listLimit(limit))
}

// ClaimWebhookDelivery leases a due delivery until leaseUntil, so one
// dispatcher among replicas sends it: true when this caller won it (it was
// still pending and due at now).
func (s *Store) ClaimWebhookDelivery(ctx context.Context, id string, now, leaseUntil time.Time) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE webhook_deliveries SET next_attempt_at = $3
		WHERE id = $1 AND status = 'pending' AND next_attempt_at <= $2`, id, now.UTC(), leaseUntil.UTC())
	return n == 1, err
}

// RecordWebhookAttempt stores the outcome of an attempt: the new status,
// attempt count, next attempt, answer and error.
func (s *Store) RecordWebhookAttempt(ctx context.Context, d *WebhookDelivery) error {
	return s.execOne(ctx, "webhook delivery", `UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4,
		last_status_code = $5, last_error = $6, delivered_at = $7 WHERE id = $1`, d.ID, d.Status, d.Attempts,
		d.NextAttemptAt.UTC(), d.LastStatusCode, d.LastError, nullTimePtr(d.DeliveredAt))
}

// WebhookEvent is an allowed audit event of a customer that has an active
// webhook created before it, with that webhook.
type WebhookEvent struct {
	Event        AuditEvent
	WebhookID    string
	WebhookEvent []string
}

// WebhookEvents lists (event, webhook) pairs after the pair (at, eventID,
// webhookID) in that order, at most limit: allowed audit events of
// customers with active webhooks created no later than the event. Start
// with empty ids to include events at exactly at.
func (s *Store) WebhookEvents(ctx context.Context, at time.Time, eventID, webhookID string, limit int) ([]WebhookEvent, error) {
	return queryAll(ctx, s.db, func(r Row) (WebhookEvent, error) {
		var we WebhookEvent
		var events string
		e := &we.Event
		err := r.Scan(&e.ID, &e.At, &e.ActorID, &e.CustomerID, &e.Action, &e.Resource, &e.Decision, &e.Reason, &e.Status,
			&e.RequestID, &we.WebhookID, &events)
		we.WebhookEvent = decodeList(events)
		return we, err
	}, `SELECT a.id, a.at, a.actor_id, a.customer_id, a.action, a.resource, a.decision, a.reason,
		a.status, a.request_id, w.id, w.events
		FROM audit_log a JOIN webhooks w ON w.customer_id = a.customer_id AND w.active AND w.created_at <= a.at
		WHERE a.decision = 'allowed' AND (a.at > $1 OR (a.at = $1 AND (a.id > $2 OR (a.id = $2 AND w.id > $3))))
		ORDER BY a.at, a.id, w.id LIMIT $4`, at.UTC(), eventID, webhookID, listLimit(limit))
}

// WebhookCursor returns how far the dispatcher named name has read the
// audit log (zero time when it never ran).
func (s *Store) WebhookCursor(ctx context.Context, name string) (time.Time, error) {
	var at time.Time
	err := s.db.QueryRow(ctx, `SELECT at FROM webhook_cursor WHERE name = $1`, name).Scan(&at)
	if errors.Is(err, ErrNoRows) {
		return time.Time{}, nil
	}
	return at, err
}

// SetWebhookCursor moves the dispatcher's cursor forward (never back).
func (s *Store) SetWebhookCursor(ctx context.Context, name string, at time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO webhook_cursor (name, at) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET at = EXCLUDED.at WHERE webhook_cursor.at < EXCLUDED.at`, name, at.UTC())
	return err
}

// ---- service accounts ----

// ServiceAccount is a customer's machine client. SecretHash is the SHA-256
// of its secret, which is shown once.
type ServiceAccount struct {
	ID              string
	CustomerID      string
	Name            string
	Description     string
	ClientID        string
	SecretHash      string
	CreatedAt       time.Time
	SecretRotatedAt time.Time
}

const serviceAccountColumns = `id, customer_id, name, description, client_id, secret_hash, created_at, secret_rotated_at`

func scanServiceAccount(r Row) (ServiceAccount, error) {
	var a ServiceAccount
	err := r.Scan(&a.ID, &a.CustomerID, &a.Name, &a.Description, &a.ClientID, &a.SecretHash, &a.CreatedAt, &a.SecretRotatedAt)
	return a, err
}

// CreateServiceAccount stores a service account. ECONFLICT when the
// customer has one of that name.
func (s *Store) CreateServiceAccount(ctx context.Context, a *ServiceAccount) error {
	_, err := s.db.Exec(ctx, `INSERT INTO service_accounts (`+serviceAccountColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		a.ID, a.CustomerID, a.Name, a.Description, a.ClientID, a.SecretHash, a.CreatedAt.UTC(), a.SecretRotatedAt.UTC())
	return wrap(err, "service account")
}

// ServiceAccount returns one service account. ENOTFOUND.
func (s *Store) ServiceAccount(ctx context.Context, id string) (*ServiceAccount, error) {
	return queryOne(ctx, s.db, "service account", scanServiceAccount, `SELECT `+serviceAccountColumns+` FROM service_accounts WHERE id = $1`, id)
}

// ServiceAccounts lists a customer's service accounts by name.
func (s *Store) ServiceAccounts(ctx context.Context, customerID string) ([]ServiceAccount, error) {
	return queryAll(ctx, s.db, scanServiceAccount, `SELECT `+serviceAccountColumns+` FROM service_accounts WHERE customer_id = $1
		ORDER BY name, id`, customerID)
}

// RotateServiceAccountSecret replaces the secret's hash. ENOTFOUND.
func (s *Store) RotateServiceAccountSecret(ctx context.Context, id, hash string, now time.Time) error {
	return s.execOne(ctx, "service account", `UPDATE service_accounts SET secret_hash = $2, secret_rotated_at = $3 WHERE id = $1`,
		id, hash, now.UTC())
}

// DeleteServiceAccount removes a service account. ENOTFOUND.
func (s *Store) DeleteServiceAccount(ctx context.Context, id string) error {
	return s.execOne(ctx, "service account", `DELETE FROM service_accounts WHERE id = $1`, id)
}

// ---- plans and meters ----

// Plan is a price plan of the catalog.
type Plan struct {
	ID              string    `json:"id"`
	Code            string    `json:"code"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	Currency        string    `json:"currency"`
	MonthlyFeeCents int64     `json:"-"`
	Active          bool      `json:"active"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

const planColumns = `id, code, name, description, currency, monthly_fee_cents, active, created_at, updated_at`

func scanPlan(r Row) (Plan, error) {
	var p Plan
	err := r.Scan(&p.ID, &p.Code, &p.Name, &p.Description, &p.Currency, &p.MonthlyFeeCents, &p.Active, &p.CreatedAt, &p.UpdatedAt)
	return p, err
}

// CreatePlan stores a plan. ECONFLICT when the code is taken.
func (s *Store) CreatePlan(ctx context.Context, p *Plan) error {
	_, err := s.db.Exec(ctx, `INSERT INTO plans (`+planColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		p.ID, p.Code, p.Name, p.Description, p.Currency, p.MonthlyFeeCents, p.Active, p.CreatedAt.UTC(), p.UpdatedAt.UTC())
	return wrap(err, "plan")
}

// Plan returns one plan. ENOTFOUND.
func (s *Store) Plan(ctx context.Context, id string) (*Plan, error) {
	return queryOne(ctx, s.db, "plan", scanPlan, `SELECT `+planColumns+` FROM plans WHERE id = $1`, id)
}

// Plans lists the plans by code.
func (s *Store) Plans(ctx context.Context) ([]Plan, error) {
	return queryAll(ctx, s.db, scanPlan, `SELECT `+planColumns+` FROM plans ORDER BY code, id`)
}

// UpdatePlan runs fn on the stored plan in a transaction and saves what fn
// leaves. ENOTFOUND.
func (s *Store) UpdatePlan(ctx context.Context, id string, fn func(*Plan) error) (*Plan, error) {
	return update(ctx, s, "plan", scanPlan, `SELECT `+planColumns+` FROM plans WHERE id = $1`, id, fn,
		func(tx *Store, p *Plan) error {
			return tx.execOne(ctx, "plan", `UPDATE plans SET name = $2, description = $3, currency = $4, monthly_fee_cents = $5,
				active = $6, updated_at = $7 WHERE id = $1`, id, p.Name, p.Description, p.Currency, p.MonthlyFeeCents, p.Active,
				p.UpdatedAt.UTC())
		})
}

// DeletePlan removes a plan; billing setups on it are left without one. ENOTFOUND.
func (s *Store) DeletePlan(ctx context.Context, id string) error {
	return s.execOne(ctx, "plan", `DELETE FROM plans WHERE id = $1`, id)
}

// Meter is a usage meter of the catalog.
type Meter struct {
	ID          string    `json:"id"`
	Key         string    `json:"key"`
	Name        string    `json:"name"`
	Unit        string    `json:"unit"`
	Aggregation string    `json:"aggregation"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

const meterColumns = `id, meter_key, name, unit, aggregation, description, created_at, updated_at`

func scanMeter(r Row) (Meter, error) {
	var m Meter
	err := r.Scan(&m.ID, &m.Key, &m.Name, &m.Unit, &m.Aggregation, &m.Description, &m.CreatedAt, &m.UpdatedAt)
	return m, err
}

// CreateMeter stores a meter. ECONFLICT when the key is taken.
func (s *Store) CreateMeter(ctx context.Context, m *Meter) error {
	_, err := s.db.Exec(ctx, `INSERT INTO meters (`+meterColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		m.ID, m.Key, m.Name, m.Unit, m.Aggregation, m.Description, m.CreatedAt.UTC(), m.UpdatedAt.UTC())
	return wrap(err, "meter")
}

// Meter returns one meter. ENOTFOUND.
func (s *Store) Meter(ctx context.Context, id string) (*Meter, error) {
	return queryOne(ctx, s.db, "meter", scanMeter, `SELECT `+meterColumns+` FROM meters WHERE id = $1`, id)
}

// MeterByKey returns the meter with key. ENOTFOUND.
func (s *Store) MeterByKey(ctx context.Context, key string) (*Meter, error) {
	return queryOne(ctx, s.db, "meter", scanMeter, `SELECT `+meterColumns+` FROM meters WHERE meter_key = $1`, key)
}

// Meters lists the meters by key.
func (s *Store) Meters(ctx context.Context) ([]Meter, error) {
	return queryAll(ctx, s.db, scanMeter, `SELECT `+meterColumns+` FROM meters ORDER BY meter_key, id`)
}

// UpdateMeter runs fn on the stored meter in a transaction and saves what
// fn leaves (the key never changes). ENOTFOUND.
func (s *Store) UpdateMeter(ctx context.Context, id string, fn func(*Meter) error) (*Meter, error) {
	return update(ctx, s, "meter", scanMeter, `SELECT `+meterColumns+` FROM meters WHERE id = $1`, id, fn,
		func(tx *Store, m *Meter) error {
			return tx.execOne(ctx, "meter", `UPDATE meters SET name = $2, unit = $3, aggregation = $4, description = $5,
				updated_at = $6 WHERE id = $1`, id, m.Name, m.Unit, m.Aggregation, m.Description, m.UpdatedAt.UTC())
		})
}

// DeleteMeter removes a meter that no usage row refers to. ENOTFOUND;
// ECONFLICT when usage was recorded on it.
func (s *Store) DeleteMeter(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		var used bool
		if err := tx.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM usage_rows u JOIN meters m ON m.meter_key = u.meter_key
			WHERE m.id = $1)`, id).Scan(&used); err != nil {
			return err
		}
		if used {
			return platform.Errorf(platform.ECONFLICT, "usage was recorded on this meter; it cannot be deleted")
		}
		return tx.execOne(ctx, "meter", `DELETE FROM meters WHERE id = $1`, id)
	})
}

// ---- billing ----

// BillingSetup is a customer's plan, billing contact and payment method.
type BillingSetup struct {
	CustomerID    string
	PlanID        string
	BillingEmail  string
	CompanyName   string
	Address       string
	Country       string
	TaxID         string
	Currency      string
	PaymentMethod string
	UpdatedAt     time.Time
	UpdatedBy     string
}

// PutBillingSetup creates or replaces a customer's billing setup.
func (s *Store) PutBillingSetup(ctx context.Context, b *BillingSetup) error {
	_, err := s.db.Exec(ctx, `INSERT INTO billing_setups (customer_id, plan_id, billing_email, company_name, address, country,
		tax_id, currency, payment_method, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (customer_id) DO UPDATE SET plan_id = EXCLUDED.plan_id, billing_email = EXCLUDED.billing_email,
		company_name = EXCLUDED.company_name, address = EXCLUDED.address, country = EXCLUDED.country, tax_id = EXCLUDED.tax_id,
		currency = EXCLUDED.currency, payment_method = EXCLUDED.payment_method, updated_at = EXCLUDED.updated_at,
		updated_by = EXCLUDED.updated_by`, b.CustomerID, nullString(b.PlanID), b.BillingEmail, b.CompanyName, b.Address,
		b.Country, b.TaxID, b.Currency, b.PaymentMethod, b.UpdatedAt.UTC(), b.UpdatedBy)
	return wrap(err, "billing setup")
}

// BillingSetup returns a customer's billing setup. ENOTFOUND when it has none.
func (s *Store) BillingSetup(ctx context.Context, customerID string) (*BillingSetup, error) {
	return queryOne(ctx, s.db, "billing setup", func(r Row) (BillingSetup, error) {
		var b BillingSetup
		var plan sql.NullString
		err := r.Scan(&b.CustomerID, &plan, &b.BillingEmail, &b.CompanyName, &b.Address, &b.Country, &b.TaxID, &b.Currency,
			&b.PaymentMethod, &b.UpdatedAt, &b.UpdatedBy)
		b.PlanID = plan.String
		return b, err
	}, `SELECT customer_id, plan_id, billing_email, company_name, address, country, tax_id, currency,
		payment_method, updated_at, updated_by FROM billing_setups WHERE customer_id = $1`, customerID)
}

// Invoice is a bill sent to a customer for one period (YYYY-MM).
type Invoice struct {
	ID         string
	CustomerID string
	Number     string
	Period     string
	Currency   string
	TotalCents int64
	Status     string
	IssuedAt   time.Time
	DueAt      time.Time
}

const invoiceColumns = `id, customer_id, number, period, currency, total_cents, status, issued_at, due_at`

func scanInvoice(r Row) (Invoice, error) {
	var i Invoice
	err := r.Scan(&i.ID, &i.CustomerID, &i.Number, &i.Period, &i.Currency, &i.TotalCents, &i.Status, &i.IssuedAt, &i.DueAt)
	return i, err
}

// CreateInvoice stores an invoice. ECONFLICT when the number is taken.
func (s *Store) CreateInvoice(ctx context.Context, i *Invoice) error {
	_, err := s.db.Exec(ctx, `INSERT INTO invoices (`+invoiceColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		i.ID, i.CustomerID, i.Number, i.Period, i.Currency, i.TotalCents, i.Status, i.IssuedAt.UTC(), i.DueAt.UTC())
	return wrap(err, "invoice")
}

// Invoice returns one invoice. ENOTFOUND.
func (s *Store) Invoice(ctx context.Context, id string) (*Invoice, error) {
	return queryOne(ctx, s.db, "invoice", scanInvoice, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1`, id)
}

// BillingQuery selects the invoices, payments or credits of the customers
// of Customers, of CustomerID too when set, newest first: at most Limit
// (default 100, at most 1000) after Cursor (the previous page's next cursor).
type BillingQuery struct {
	Customers  authz.Filter
	CustomerID string
	Status     string // invoices only
	Limit      int
	Cursor     string
}

func (q BillingQuery) where() (string, []any) {
	var args []any
	w := scopeCondition(&args, q.Customers, "customer_id", "")
	if q.CustomerID != "" {
		w += ` AND customer_id = ` + arg(&args, q.CustomerID)
	}
	if q.Status != "" {
		w += ` AND status = ` + arg(&args, q.Status)
	}
	return w, args
}

// Invoices lists one page of invoices, newest first, and the cursor of the
// next page ("" on the last). EINVALID for a malformed cursor.
func (s *Store) Invoices(ctx context.Context, q BillingQuery) ([]Invoice, string, error) {
	cond, args := q.where()
	return newestPage(ctx, s, q.Cursor, q.Limit, `SELECT `+invoiceColumns+` FROM invoices`, cond, args, "issued_at", scanInvoice,
		func(i *Invoice) (time.Time, string) { return i.IssuedAt, i.ID })
}

// Payment is money received from a customer, for an invoice when InvoiceID is set.
type Payment struct {
	ID          string
	CustomerID  string
	InvoiceID   string
	AmountCents int64
	Currency    string
	Method      string
	Status      string
	ReceivedAt  time.Time
}

const paymentColumns = `id, customer_id, invoice_id, amount_cents, currency, method, status, received_at`

func scanPayment(r Row) (Payment, error) {
	var p Payment
	var inv sql.NullString
	err := r.Scan(&p.ID, &p.CustomerID, &inv, &p.AmountCents, &p.Currency, &p.Method, &p.Status, &p.ReceivedAt)
	p.InvoiceID = inv.String
	return p, err
}

// CreatePayment stores a payment.
func (s *Store) CreatePayment(ctx context.Context, p *Payment) error {
	_, err := s.db.Exec(ctx, `INSERT INTO payments (`+paymentColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		p.ID, p.CustomerID, nullString(p.InvoiceID), p.AmountCents, p.Currency, p.Method, p.Status, p.ReceivedAt.UTC())
	return wrap(err, "payment")
}

// Payments lists one page of payments, newest first, and the next cursor.
func (s *Store) Payments(ctx context.Context, q BillingQuery) ([]Payment, string, error) {
	q.Status = "" // no status column
	cond, args := q.where()
	return newestPage(ctx, s, q.Cursor, q.Limit, `SELECT `+paymentColumns+` FROM payments`, cond, args, "received_at", scanPayment,
		func(p *Payment) (time.Time, string) { return p.ReceivedAt, p.ID })
}

// Credit is an amount credited to a customer's account.
type Credit struct {
	ID          string
	CustomerID  string
	AmountCents int64
	Currency    string
	Reason      string
	IssuedBy    string
	IssuedAt    time.Time
}

const creditColumns = `id, customer_id, amount_cents, currency, reason, issued_by, issued_at`

func scanCredit(r Row) (Credit, error) {
	var c Credit
	err := r.Scan(&c.ID, &c.CustomerID, &c.AmountCents, &c.Currency, &c.Reason, &c.IssuedBy, &c.IssuedAt)
	return c, err
}

// CreateCredit stores a credit.
func (s *Store) CreateCredit(ctx context.Context, c *Credit) error {
	_, err := s.db.Exec(ctx, `INSERT INTO credits (`+creditColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		c.ID, c.CustomerID, c.AmountCents, c.Currency, c.Reason, c.IssuedBy, c.IssuedAt.UTC())
	return wrap(err, "credit")
}

// Credits lists one page of credits, newest first, and the next cursor.
func (s *Store) Credits(ctx context.Context, q BillingQuery) ([]Credit, string, error) {
	q.Status = "" // no status column
	cond, args := q.where()
	return newestPage(ctx, s, q.Cursor, q.Limit, `SELECT `+creditColumns+` FROM credits`, cond, args, "issued_at", scanCredit,
		func(c *Credit) (time.Time, string) { return c.IssuedAt, c.ID })
}

// UsageRow is a customer's metered usage of one meter in one period
// (YYYY-MM): units, and what they were billed.
type UsageRow struct {
	ID                string
	CustomerID        string
	MeterKey          string
	Unit              string // the meter's unit, read with the row
	Period            string
	Units             float64
	BilledAmountCents int64
	Currency          string
}

// PutUsageRow records usage; a row of the same customer, meter and period
// is replaced.
func (s *Store) PutUsageRow(ctx context.Context, u *UsageRow) error {
	_, err := s.db.Exec(ctx, `INSERT INTO usage_rows (id, customer_id, meter_key, period, units, billed_amount_cents, currency)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (customer_id, meter_key, period) DO UPDATE SET units = EXCLUDED.units,
		billed_amount_cents = EXCLUDED.billed_amount_cents, currency = EXCLUDED.currency`,
		u.ID, u.CustomerID, u.MeterKey, u.Period, u.Units, u.BilledAmountCents, u.Currency)
	return wrap(err, "usage row")
}

// UsageQuery selects usage rows of the customers of Customers, narrowed
// by the other fields when set; periods From and To are inclusive. A page
// holds at most Limit rows (default 100, at most 1000) after Cursor.
type UsageQuery struct {
	Customers  authz.Filter
	CustomerID string
	MeterKey   string
	From, To   string
	Limit      int
	Cursor     string
}

// UsageRows lists one page of usage rows by period (newest first), customer
// and meter, and the next cursor. EINVALID for a malformed cursor.
func (s *Store) UsageRows(ctx context.Context, q UsageQuery) ([]UsageRow, string, error) {
	var args []any
	w := scopeCondition(&args, q.Customers, "u.customer_id", "")
	if q.CustomerID != "" {
		w += ` AND u.customer_id = ` + arg(&args, q.CustomerID)
	}
	if q.MeterKey != "" {
		w += ` AND u.meter_key = ` + arg(&args, q.MeterKey)
	}
	if q.From != "" {
		w += ` AND u.period >= ` + arg(&args, q.From)
	}
	if q.To != "" {
		w += ` AND u.period <= ` + arg(&args, q.To)
	}
	if q.Cursor != "" {
		period, rest, err := DecodeCursor(q.Cursor)
		cust, meter, ok := strings.Cut(rest, "\x00")
		if err != nil || !ok {
			return nil, "", platform.Errorf(platform.EINVALID, "cursor is not valid")
		}
		p, c, m := arg(&args, period), arg(&args, cust), arg(&args, meter)
		w += ` AND (u.period < ` + p + ` OR (u.period = ` + p + ` AND (u.customer_id > ` + c + ` OR (u.customer_id = ` + c +
			` AND u.meter_key > ` + m + `))))`
	}
	limit := listLimit(q.Limit)
	rows, err := queryAll(ctx, s.db, func(r Row) (UsageRow, error) {
		var u UsageRow
		err := r.Scan(&u.ID, &u.CustomerID, &u.MeterKey, &u.Unit, &u.Period, &u.Units, &u.BilledAmountCents, &u.Currency)
		return u, err
	}, `SELECT u.id, u.customer_id, u.meter_key, m.unit, u.period, u.units, u.billed_amount_cents,
		u.currency FROM usage_rows u JOIN meters m ON m.meter_key = u.meter_key WHERE `+w+`
		ORDER BY u.period DESC, u.customer_id, u.meter_key LIMIT `+arg(&args, limit+1), args...)
	if err != nil {
		return nil, "", err
	}
	out, next := cut(rows, limit, func(u *UsageRow) string { return EncodeCursor(u.Period, u.CustomerID+"\x00"+u.MeterKey) })
	return out, next, nil
}

// BilledTotal is the billed amount of a customer's usage in one period and currency.
type BilledTotal struct {
	Period      string
	Currency    string
	AmountCents int64
}

// BilledTotals sums a customer's billed usage by period (newest first) and
// currency; periods from and to (YYYY-MM) are inclusive when set.
func (s *Store) BilledTotals(ctx context.Context, customerID, from, to string) ([]BilledTotal, error) {
	return queryAll(ctx, s.db, func(r Row) (BilledTotal, error) {
		var b BilledTotal
		err := r.Scan(&b.Period, &b.Currency, &b.AmountCents)
		return b, err
	}, `SELECT period, currency, CAST(SUM(billed_amount_cents) AS BIGINT) FROM usage_rows
		WHERE customer_id = $1 AND ($2 = '' OR period >= $2) AND ($3 = '' OR period <= $3)
		GROUP BY period, currency ORDER BY period DESC, currency`, customerID, from, to)
}

// ---- releases and environment ----

// Release is a platform release.
type Release struct {
	ID          string     `json:"id"`
	Version     string     `json:"version"`
	Channel     string     `json:"channel"`
	Notes       string     `json:"notes"`
	Status      string     `json:"status"`
	CreatedBy   string     `json:"createdBy"`
	CreatedAt   time.Time  `json:"createdAt"`
	PublishedAt *time.Time `json:"publishedAt"`
}

const releaseColumns = `id, version, channel, notes, status, created_by, created_at, published_at`

func scanRelease(r Row) (Release, error) {
	var x Release
	var pub sql.NullTime
	err := r.Scan(&x.ID, &x.Version, &x.Channel, &x.Notes, &x.Status, &x.CreatedBy, &x.CreatedAt, &pub)
	x.PublishedAt = timePtr(pub)
	return x, err
}

// CreateRelease stores a release. ECONFLICT when the version exists.
func (s *Store) CreateRelease(ctx context.Context, x *Release) error {
	_, err := s.db.Exec(ctx, `INSERT INTO releases (`+releaseColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		x.ID, x.Version, x.Channel, x.Notes, x.Status, x.CreatedBy, x.CreatedAt.UTC(), nullTimePtr(x.PublishedAt))
	return wrap(err, "release")
}

// Release returns one release. ENOTFOUND.
func (s *Store) Release(ctx context.Context, id string) (*Release, error) {
	return queryOne(ctx, s.db, "release", scanRelease, `SELECT `+releaseColumns+` FROM releases WHERE id = $1`, id)
}

// Releases lists releases, newest first.
func (s *Store) Releases(ctx context.Context, limit int) ([]Release, error) {
	return queryAll(ctx, s.db, scanRelease, `SELECT `+releaseColumns+` FROM releases ORDER BY created_at DESC, id DESC LIMIT $1`, listLimit(limit))
}

// UpdateRelease runs fn on the stored release in a transaction and saves
// what fn leaves. ENOTFOUND.
func (s *Store) UpdateRelease(ctx context.Context, id string, fn func(*Release) error) (*Release, error) {
	return update(ctx, s, "release", scanRelease, `SELECT `+releaseColumns+` FROM releases WHERE id = $1`, id, fn,
		func(tx *Store, x *Release) error {
			return tx.execOne(ctx, "release", `UPDATE releases SET channel = $2, notes = $3, status = $4, published_at = $5
				WHERE id = $1`, id, x.Channel, x.Notes, x.Status, nullTimePtr(x.PublishedAt))
		})
}

// EnvVar is a platform environment variable. A secret one keeps its value
// sealed in ValueSealed and Value empty.
type EnvVar struct {
	ID          string
	Name        string
	Secret      bool
	Value       string
	ValueSealed []byte
	Description string
	UpdatedAt   time.Time
	UpdatedBy   string
}

const envVarColumns = `id, name, secret, value, value_sealed, description, updated_at, updated_by`

func scanEnvVar(r Row) (EnvVar, error) {
	var v EnvVar
	err := r.Scan(&v.ID, &v.Name, &v.Secret, &v.Value, &v.ValueSealed, &v.Description, &v.UpdatedAt, &v.UpdatedBy)
	return v, err
}

// CreateEnvVar stores a variable. ECONFLICT when the name exists.
func (s *Store) CreateEnvVar(ctx context.Context, v *EnvVar) error {
	_, err := s.db.Exec(ctx, `INSERT INTO environment_variables (`+envVarColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		v.ID, v.Name, v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy)
	return wrap(err, "environment variable")
}

// EnvVar returns one variable. ENOTFOUND.
func (s *Store) EnvVar(ctx context.Context, id string) (*EnvVar, error) {
	return queryOne(ctx, s.db, "environment variable", scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables WHERE id = $1`, id)
}

// EnvVars lists the variables by name.
func (s *Store) EnvVars(ctx context.Context) ([]EnvVar, error) {
	return queryAll(ctx, s.db, scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables ORDER BY name`)
}

// UpdateEnvVar runs fn on the stored variable in a transaction and saves
// what fn leaves (the name never changes). ENOTFOUND.
func (s *Store) UpdateEnvVar(ctx context.Context, id string, fn func(*EnvVar) error) (*EnvVar, error) {
	return update(ctx, s, "environment variable", scanEnvVar, `SELECT `+envVarColumns+` FROM environment_variables WHERE id = $1`, id, fn,
		func(tx *Store, v *EnvVar) error {
			return tx.execOne(ctx, "environment variable", `UPDATE environment_variables SET secret = $2, value = $3,
				value_sealed = $4, description = $5, updated_at = $6, updated_by = $7 WHERE id = $1`,
				id, v.Secret, v.Value, v.ValueSealed, v.Description, v.UpdatedAt.UTC(), v.UpdatedBy)
		})
}

// DeleteEnvVar removes a variable. ENOTFOUND.
func (s *Store) DeleteEnvVar(ctx context.Context, id string) error {
	return s.execOne(ctx, "environment variable", `DELETE FROM environment_variables WHERE id = $1`, id)
}

// ---- system workers ----

// SystemWorker is a background worker of the platform and its run record.
type SystemWorker struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Description     string     `json:"description"`
	IntervalSeconds int        `json:"intervalSeconds"`
	Paused          bool       `json:"paused"`
	LastRunAt       *time.Time `json:"lastRunAt"`
	LastError       string     `json:"lastError"`
	Failures        int        `json:"failures"`
	RunRequestedAt  *time.Time `json:"runRequestedAt"`
}

const workerColumns = `id, name, description, interval_seconds, paused, last_run_at, last_error, failures, run_requested_at`

func scanWorker(r Row) (SystemWorker, error) {
	var w SystemWorker
	var last, req sql.NullTime
	err := r.Scan(&w.ID, &w.Name, &w.Description, &w.IntervalSeconds, &w.Paused, &last, &w.LastError, &w.Failures, &req)
	w.LastRunAt, w.RunRequestedAt = timePtr(last), timePtr(req)
	return w, err
}

// PutSystemWorker registers a worker, keeping the run record of one
// already registered.
func (s *Store) PutSystemWorker(ctx context.Context, w *SystemWorker) error {
	_, err := s.db.Exec(ctx, `INSERT INTO system_workers (id, name, description, interval_seconds) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
		interval_seconds = EXCLUDED.interval_seconds`, w.ID, w.Name, w.Description, w.IntervalSeconds)
	return wrap(err, "system worker")
}

// SystemWorker returns one worker. ENOTFOUND.
func (s *Store) SystemWorker(ctx context.Context, id string) (*SystemWorker, error) {
	return queryOne(ctx, s.db, "system worker", scanWorker, `SELECT `+workerColumns+` FROM system_workers WHERE id = $1`, id)
}

// SystemWorkers lists the workers by id.
func (s *Store) SystemWorkers(ctx context.Context) ([]SystemWorker, error) {
	return queryAll(ctx, s.db, scanWorker, `SELECT `+workerColumns+` FROM system_workers ORDER BY id`)
}

// SetWorkerPaused pauses or resumes a worker. ENOTFOUND.
func (s *Store) SetWorkerPaused(ctx context.Context, id string, paused bool) error {
	return s.execOne(ctx, "system worker", `UPDATE system_workers SET paused = $2 WHERE id = $1`, id, paused)
}

// RequestWorkerRun asks a worker to run at its next check. ENOTFOUND.
func (s *Store) RequestWorkerRun(ctx context.Context, id string, at time.Time) error {
	return s.execOne(ctx, "system worker", `UPDATE system_workers SET run_requested_at = $2 WHERE id = $1`, id, at.UTC())
}

// RecordWorkerRun stores the outcome of a run: failures counts consecutive
// failed runs and is reset by a good one; a pending run request is cleared.
func (s *Store) RecordWorkerRun(ctx context.Context, id string, at time.Time, runErr string) error {
	return s.execOne(ctx, "system worker", `UPDATE system_workers SET last_run_at = $2, last_error = $3,
		failures = CASE WHEN $3 = '' THEN 0 ELSE failures + 1 END, run_requested_at = NULL WHERE id = $1`, id, at.UTC(), runErr)
}

// ---- user attribute definitions ----

// UserAttribute defines a custom attribute of users.
type UserAttribute struct {
	ID        string    `json:"id"`
	Key       string    `json:"key"`
	Label     string    `json:"label"`
	Type      string    `json:"type"`
	Options   []string  `json:"options"`
	Required  bool      `json:"required"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

const userAttributeColumns = `id, attribute_key, label, type, options, required, created_at, updated_at`

func scanUserAttribute(r Row) (UserAttribute, error) {
	var a UserAttribute
	var opts string
	err := r.Scan(&a.ID, &a.Key, &a.Label, &a.Type, &opts, &a.Required, &a.CreatedAt, &a.UpdatedAt)
	a.Options = decodeList(opts)
	return a, err
}

// CreateUserAttribute stores a definition. ECONFLICT when the key exists.
func (s *Store) CreateUserAttribute(ctx context.Context, a *UserAttribute) error {
	_, err := s.db.Exec(ctx, `INSERT INTO user_attribute_definitions (`+userAttributeColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, a.ID, a.Key, a.Label, a.Type, jsonList(a.Options), a.Required,
		a.CreatedAt.UTC(), a.UpdatedAt.UTC())
	return wrap(err, "user attribute")
}

// UserAttribute returns one definition. ENOTFOUND.
func (s *Store) UserAttribute(ctx context.Context, id string) (*UserAttribute, error) {
	return queryOne(ctx, s.db, "user attribute", scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions WHERE id = $1`, id)
}

// UserAttributes lists the definitions by key.
func (s *Store) UserAttributes(ctx context.Context) ([]UserAttribute, error) {
	return queryAll(ctx, s.db, scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions ORDER BY attribute_key`)
}

// UpdateUserAttribute runs fn on the stored definition in a transaction and
// saves what fn leaves (the key never changes). ENOTFOUND.
func (s *Store) UpdateUserAttribute(ctx context.Context, id string, fn func(*UserAttribute) error) (*UserAttribute, error) {
	return update(ctx, s, "user attribute", scanUserAttribute, `SELECT `+userAttributeColumns+` FROM user_attribute_definitions
		WHERE id = $1`, id, fn,
		func(tx *Store, a *UserAttribute) error {
			return tx.execOne(ctx, "user attribute", `UPDATE user_attribute_definitions SET label = $2, type = $3, options = $4,
				required = $5, updated_at = $6 WHERE id = $1`, id, a.Label, a.Type, jsonList(a.Options), a.Required, a.UpdatedAt.UTC())
		})
}

// DeleteUserAttribute removes a definition. ENOTFOUND.
func (s *Store) DeleteUserAttribute(ctx context.Context, id string) error {
	return s.execOne(ctx, "user attribute", `DELETE FROM user_attribute_definitions WHERE id = $1`, id)
}

// ---- discrepancies ----

// Discrepancy statuses.
const (
	DiscrepancyOpen     = "open"
	DiscrepancyResolved = "resolved"
)

// Discrepancy is an item of the discrepancies inbox.
type Discrepancy struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	CustomerID string     `json:"customerId"`
	Resource   string     `json:"resource"`
	Summary    string     `json:"summary"`
	Detail     string     `json:"detail"`
	Status     string     `json:"status"`
	DetectedAt time.Time  `json:"detectedAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
	ResolvedBy string     `json:"resolvedBy"`
	Resolution string     `json:"resolution"`
}

const discrepancyColumns = `id, kind, COALESCE(customer_id, ''), resource, summary, detail, status, detected_at, resolved_at,
	resolved_by, resolution`

func scanDiscrepancy(r Row) (Discrepancy, error) {
	var d Discrepancy
	var res sql.NullTime
	err := r.Scan(&d.ID, &d.Kind, &d.CustomerID, &d.Resource, &d.Summary, &d.Detail, &d.Status, &d.DetectedAt, &res,
		&d.ResolvedBy, &d.Resolution)
	d.ResolvedAt = timePtr(res)
	return d, err
}

// CreateDiscrepancy stores an inbox item.
func (s *Store) CreateDiscrepancy(ctx context.Context, d *Discrepancy) error {
	_, err := s.db.Exec(ctx, `INSERT INTO discrepancies (id, kind, customer_id, resource, summary, detail, status, detected_at,
		resolved_at, resolved_by, resolution) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, d.ID, d.Kind,
		nullString(d.CustomerID), d.Resource, d.Summary, d.Detail, d.Status, d.DetectedAt.UTC(), nullTimePtr(d.ResolvedAt),
		d.ResolvedBy, d.Resolution)
	return wrap(err, "discrepancy")
}

// Discrepancy returns one inbox item. ENOTFOUND.
func (s *Store) Discrepancy(ctx context.Context, id string) (*Discrepancy, error) {
	return queryOne(ctx, s.db, "discrepancy", scanDiscrepancy, `SELECT `+discrepancyColumns+` FROM discrepancies WHERE id = $1`, id)
}

// Discrepancies lists inbox items of a status (all when empty), newest
// first: platform-wide items and those of the customers of customers.
func (s *Store) Discrepancies(ctx context.Context, status string, customers authz.Filter, limit int) ([]Discrepancy, error) {
	args := []any{status}
	w := `($1 = '' OR status = $1) AND (customer_id IS NULL OR ` + scopeCondition(&args, customers, "customer_id", "") + `)`
	return queryAll(ctx, s.db, scanDiscrepancy, `SELECT `+discrepancyColumns+` FROM discrepancies WHERE `+w+`
		ORDER BY detected_at DESC, id DESC LIMIT `+arg(&args, listLimit(limit)), args...)
}

// SetDiscrepancyStatus resolves (resolvedAt set) or reopens (nil) an item.
// ENOTFOUND.
func (s *Store) SetDiscrepancyStatus(ctx context.Context, id, status string, resolvedAt *time.Time, by, resolution string) error {
	return s.execOne(ctx, "discrepancy", `UPDATE discrepancies SET status = $2, resolved_at = $3, resolved_by = $4,
		resolution = $5 WHERE id = $1`, id, status, nullTimePtr(resolvedAt), by, resolution)
}
