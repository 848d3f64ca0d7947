-- Support impersonation (D-impersonation). A customer decides whether
-- support may act as its users: impersonation_allowed, off by default.
ALTER TABLE customers ADD COLUMN impersonation_allowed BOOLEAN NOT NULL DEFAULT FALSE;

-- One impersonation: an internal user (actor_id) acting as a customer's
-- user (user_id) for a stated reason. The one-time subject token is kept
-- as its SHA-256 (token_hash), valid until token_expires_at and spent once
-- (exchanged_at); the exchange opens the grant whose id is the
-- impersonation's id and which ends at expires_at (at most an hour after
-- the exchange). ended_at and ended_by record who ended it (the actor,
-- the customer, or the platform).
CREATE TABLE impersonations (
    id               TEXT PRIMARY KEY,
    customer_id      TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id         TEXT NOT NULL,
    reason           TEXT NOT NULL,
    token_hash       TEXT NOT NULL UNIQUE,
    created_at       TIMESTAMPTZ NOT NULL,
    token_expires_at TIMESTAMPTZ NOT NULL,
    exchanged_at     TIMESTAMPTZ,
    expires_at       TIMESTAMPTZ NOT NULL,
    ended_at         TIMESTAMPTZ,
    ended_by         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX impersonations_customer ON impersonations (customer_id, created_at);

-- The audit trail records who acted for the actor of an event made with
-- an impersonation or a delegation token (the token's act claim).
ALTER TABLE audit_log ADD COLUMN impersonator_id TEXT NOT NULL DEFAULT '';

-- Who may start an impersonation (support staff who manage a customer's
-- users, in their scope) and who decides on it (the customer's owner and
-- admins); equal to the last rows of authz.SpecMatrix().
INSERT INTO role_permissions (role, action, access) VALUES
    ('platform_admin', 'impersonate_user', 'full'),
    ('account_manager', 'impersonate_user', 'full'),
    ('qa_admin', 'impersonate_user', 'full'),
    ('owner', 'allow_impersonation', 'full'),
    ('admin', 'allow_impersonation', 'full');
