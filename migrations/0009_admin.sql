-- Console administration (docs/requirements.md 4.6): customer settings, tenants bound to an
-- instance with settings, members and requested migrations, suspended users,
-- and the log of e-mails the platform sent.

ALTER TABLE customers ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE customers ADD COLUMN updated_at TIMESTAMPTZ;

-- A tenant may run on an instance; removing the instance leaves the tenant
-- without one.
ALTER TABLE tenants ADD COLUMN instance_id TEXT REFERENCES instances (id) ON DELETE SET NULL;
ALTER TABLE tenants ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tenants ADD COLUMN updated_at TIMESTAMPTZ;
-- Scoped listings filter on customer (and instance) and page by (name, id).
CREATE INDEX tenants_customer_name ON tenants (customer_id, name, id);
CREATE INDEX tenants_name ON tenants (name, id);
CREATE INDEX tenants_instance ON tenants (instance_id);

CREATE TABLE tenant_members (
    tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    added_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX tenant_members_user ON tenant_members (user_id);

-- Migration runs requested on a tenant; a worker picks up 'requested' runs.
CREATE TABLE tenant_migrations (
    id             TEXT PRIMARY KEY,
    tenant_id      TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    target_version TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('requested', 'running', 'succeeded', 'failed')),
    requested_by   TEXT NOT NULL,
    requested_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX tenant_migrations_tenant ON tenant_migrations (tenant_id, requested_at);

-- A suspended user cannot sign in or refresh tokens until reactivated.
ALTER TABLE users ADD COLUMN suspended_at TIMESTAMPTZ;

-- Where an instance's database is, for resolve-database-uri; never listed.
ALTER TABLE instances ADD COLUMN database_uri TEXT NOT NULL DEFAULT '';

CREATE INDEX customers_name ON customers (name, id);
CREATE INDEX instances_name ON instances (name, id);

-- E-mails the platform sent (invitations, ownership changes). customer_id is
-- not a foreign key, so the history outlives the customer, like the audit log.
CREATE TABLE email_log (
    id          TEXT PRIMARY KEY,
    at          TIMESTAMPTZ NOT NULL,
    customer_id TEXT,
    recipient   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    status      TEXT NOT NULL,
    user_id     TEXT
);
CREATE INDEX email_log_at ON email_log (at, id);
CREATE INDEX email_log_customer ON email_log (customer_id, at, id);
