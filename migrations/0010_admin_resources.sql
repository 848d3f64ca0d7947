-- The console's remaining administration resources (R4.6-customer-side; docs/requirements.md 4.6), one typed
-- table each: customer-side configuration (external identity providers,
-- webhooks and their deliveries, service accounts), billing (plans, meters,
-- billing setups, invoices, payments, credits, usage rows), and the
-- internal-infrastructure resources (releases, environment variables, system
-- workers, user attribute definitions, the discrepancies inbox).
-- Money is kept in integer cents; secrets are sealed (internal/secrets) or
-- hashed, never stored in clear.

-- External identity providers a customer's users sign in with (SSO).
CREATE TABLE customer_idp_configs (
    id                   TEXT PRIMARY KEY,
    customer_id          TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name                 TEXT NOT NULL,
    issuer               TEXT NOT NULL,
    client_id            TEXT NOT NULL,
    client_secret_sealed BYTEA NOT NULL,
    scopes               TEXT NOT NULL DEFAULT '[]',
    enabled              BOOLEAN NOT NULL DEFAULT TRUE,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    UNIQUE (customer_id, name)
);

-- Webhook subscriptions of a customer: its events, HMAC-signed (D-events).
CREATE TABLE webhooks (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    url           TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    events        TEXT NOT NULL DEFAULT '[]',
    secret_sealed BYTEA NOT NULL,
    active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhooks_customer ON webhooks (customer_id, created_at, id);

-- One delivery of one event to one webhook, retried with backoff until
-- delivered or failed. event_id is the audit event it carries; a webhook gets
-- each event at most once.
CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    webhook_id       TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,
    event_type       TEXT NOT NULL,
    payload          TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TIMESTAMPTZ NOT NULL,
    last_status_code INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL,
    delivered_at     TIMESTAMPTZ,
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, id);

-- How far the webhook dispatcher has read the audit log.
CREATE TABLE webhook_cursor (
    name TEXT PRIMARY KEY,
    at   TIMESTAMPTZ NOT NULL
);

-- Machine clients of a customer; the secret is shown once and kept as SHA-256.
CREATE TABLE service_accounts (
    id              TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    client_id       TEXT NOT NULL UNIQUE,
    secret_hash     TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    secret_rotated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (customer_id, name)
);

-- The plan and meter catalog.
CREATE TABLE plans (
    id                TEXT PRIMARY KEY,
    code              TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    currency          TEXT NOT NULL,
    monthly_fee_cents BIGINT NOT NULL CHECK (monthly_fee_cents >= 0),
    active            BOOLEAN NOT NULL DEFAULT TRUE,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);

CREATE TABLE meters (
    id          TEXT PRIMARY KEY,
    meter_key   TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    unit        TEXT NOT NULL,
    aggregation TEXT NOT NULL CHECK (aggregation IN ('sum', 'max')),
    description TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

-- A customer's billing setup: plan, contact and payment method.
CREATE TABLE billing_setups (
    customer_id    TEXT PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
    plan_id        TEXT REFERENCES plans (id) ON DELETE SET NULL,
    billing_email  TEXT NOT NULL,
    company_name   TEXT NOT NULL DEFAULT '',
    address        TEXT NOT NULL DEFAULT '',
    country        TEXT NOT NULL DEFAULT '',
    tax_id         TEXT NOT NULL DEFAULT '',
    currency       TEXT NOT NULL,
    payment_method TEXT NOT NULL CHECK (payment_method IN ('invoice', 'card', 'sepa_debit')),
    updated_at     TIMESTAMPTZ NOT NULL,
    updated_by     TEXT NOT NULL
);

CREATE TABLE invoices (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    number      TEXT NOT NULL UNIQUE,
    period      TEXT NOT NULL,
    currency    TEXT NOT NULL,
    total_cents BIGINT NOT NULL CHECK (total_cents >= 0),
    status      TEXT NOT NULL CHECK (status IN ('draft', 'open', 'paid', 'void')),
    issued_at   TIMESTAMPTZ NOT NULL,
    due_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX invoices_customer ON invoices (customer_id, issued_at, id);
CREATE INDEX invoices_issued ON invoices (issued_at, id);

CREATE TABLE payments (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    invoice_id   TEXT REFERENCES invoices (id) ON DELETE SET NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents >= 0),
    currency     TEXT NOT NULL,
    method       TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded')),
    received_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX payments_customer ON payments (customer_id, received_at, id);

CREATE TABLE credits (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    currency     TEXT NOT NULL,
    reason       TEXT NOT NULL,
    issued_by    TEXT NOT NULL,
    issued_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX credits_customer ON credits (customer_id, issued_at, id);

-- Metered usage of a customer for one period (YYYY-MM) and meter: units, and
-- the billed amount that only view_billed_units may see (R5.7-redact).
CREATE TABLE usage_rows (
    id                  TEXT PRIMARY KEY,
    customer_id         TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    meter_key           TEXT NOT NULL REFERENCES meters (meter_key),
    period              TEXT NOT NULL,
    units               DOUBLE PRECISION NOT NULL CHECK (units >= 0),
    billed_amount_cents BIGINT NOT NULL CHECK (billed_amount_cents >= 0),
    currency            TEXT NOT NULL,
    UNIQUE (customer_id, meter_key, period)
);
CREATE INDEX usage_rows_period ON usage_rows (period, customer_id, meter_key);

CREATE TABLE releases (
    id           TEXT PRIMARY KEY,
    version      TEXT NOT NULL UNIQUE,
    channel      TEXT NOT NULL CHECK (channel IN ('stable', 'beta')),
    notes        TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL CHECK (status IN ('draft', 'published', 'withdrawn')),
    created_by   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    published_at TIMESTAMPTZ
);
CREATE INDEX releases_created ON releases (created_at, id);

-- Platform environment variables; a secret value is sealed and never shown.
CREATE TABLE environment_variables (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    secret       BOOLEAN NOT NULL,
    value        TEXT NOT NULL DEFAULT '',
    value_sealed BYTEA,
    description  TEXT NOT NULL DEFAULT '',
    updated_at   TIMESTAMPTZ NOT NULL,
    updated_by   TEXT NOT NULL
);

-- Background workers of the platform and how their runs went.
CREATE TABLE system_workers (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    interval_seconds INTEGER NOT NULL,
    paused           BOOLEAN NOT NULL DEFAULT FALSE,
    last_run_at      TIMESTAMPTZ,
    last_error       TEXT NOT NULL DEFAULT '',
    failures         INTEGER NOT NULL DEFAULT 0,
    run_requested_at TIMESTAMPTZ
);

CREATE TABLE user_attribute_definitions (
    id            TEXT PRIMARY KEY,
    attribute_key TEXT NOT NULL UNIQUE,
    label         TEXT NOT NULL,
    type          TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean', 'date', 'enum')),
    options       TEXT NOT NULL DEFAULT '[]',
    required      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

-- The discrepancies inbox: differences a reconciliation found, open until
-- someone resolves them. customer_id is not a foreign key, so the history
-- outlives the customer.
CREATE TABLE discrepancies (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    customer_id TEXT,
    resource    TEXT NOT NULL DEFAULT '',
    summary     TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
    detected_at TIMESTAMPTZ NOT NULL,
    resolved_at TIMESTAMPTZ,
    resolved_by TEXT NOT NULL DEFAULT '',
    resolution  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX discrepancies_status ON discrepancies (status, detected_at, id);

INSERT INTO system_workers (id, name, description, interval_seconds) VALUES
    ('webhook-delivery', 'Webhook delivery', 'Sends customer events to their webhooks, signed, with retries and backoff.', 10);
