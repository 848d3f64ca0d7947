-- Who may see what (R2.6-grant-key, R5.7-and): customer and instance grants of internal
-- users, focus mode, notification subscriptions (which grant nothing), and
-- the audit log every denial and every admin write goes to (D-access-path, D-events).

-- Grants (R2.6-grant-key): grantee_type is 'user' or 'group' (only 'user'
-- is written today); removing a customer or instance removes its grants
-- (R2.6-cascade).
CREATE TABLE customer_grants (
    grantee_type TEXT NOT NULL DEFAULT 'user' CHECK (grantee_type IN ('user', 'group')),
    grantee_id   TEXT NOT NULL,
    customer_id  TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    granted_by   TEXT,
    granted_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (grantee_type, grantee_id, customer_id)
);
CREATE INDEX customer_grants_customer ON customer_grants (customer_id);

CREATE TABLE instance_grants (
    grantee_type TEXT NOT NULL DEFAULT 'user' CHECK (grantee_type IN ('user', 'group')),
    grantee_id   TEXT NOT NULL,
    instance_id  TEXT NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    granted_by   TEXT,
    granted_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (grantee_type, grantee_id, instance_id)
);
CREATE INDEX instance_grants_instance ON instance_grants (instance_id);

-- Focus mode: a temporary one-customer lens an internal user turns on.
CREATE TABLE focus_modes (
    user_id     TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    started_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);

-- A notification subscription grants no permission (R6-subscription).
CREATE TABLE notification_subscriptions (
    user_id    TEXT NOT NULL,
    event_type TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, event_type)
);

-- Audit events: denied decisions, admin writes and logins. customer_id is
-- the customer the event concerns (NULL for platform-wide events); it is not
-- a foreign key, so the history outlives the customer.
CREATE TABLE audit_log (
    id          TEXT PRIMARY KEY,
    at          TIMESTAMPTZ NOT NULL,
    actor_id    TEXT NOT NULL,
    customer_id TEXT,
    action      TEXT NOT NULL,
    resource    TEXT NOT NULL,
    decision    TEXT NOT NULL CHECK (decision IN ('allowed', 'denied')),
    reason      TEXT NOT NULL,
    status      INTEGER NOT NULL,
    request_id  TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at, id);
CREATE INDEX audit_log_customer ON audit_log (customer_id, at, id);
