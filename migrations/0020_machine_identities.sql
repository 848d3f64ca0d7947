-- Machine identities (D-service-accounts): how an application authenticates
-- at the token endpoint, its public keys for private_key_jwt, the principal
-- a client_credentials grant acts as, whether it must push its authorization
-- requests (RFC 9126), and where it receives logout tokens (back-channel
-- logout). Existing applications keep their behaviour: an empty auth_method
-- means none for public and client_secret_basic for the others.
ALTER TABLE applications ADD COLUMN auth_method TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN jwks TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN user_id TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN require_par BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE applications ADD COLUMN backchannel_logout_uri TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN device_flow BOOLEAN NOT NULL DEFAULT FALSE;

-- A service account is a principal like a user: a users row marked as a
-- service (never signed in to with a password, never found by address) with
-- its console role. Internal service accounts belong to no customer, so the
-- table is made again with customer_id optional.
ALTER TABLE users ADD COLUMN service BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE service_accounts_v2 (
    id                TEXT PRIMARY KEY,
    customer_id       TEXT REFERENCES customers (id) ON DELETE CASCADE,
    name              TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    client_id         TEXT NOT NULL UNIQUE,
    secret_hash       TEXT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    secret_rotated_at TIMESTAMPTZ NOT NULL,
    user_id           TEXT NOT NULL,
    role              TEXT NOT NULL,
    UNIQUE (customer_id, name)
);
-- Service accounts made before could not authenticate; they become viewers,
-- the least of the roles, and authenticate once their secret is rotated.
INSERT INTO users (id, org_id, email, email_verified, name, password_hash, failed_logins, created_at, updated_at, service)
    SELECT sa.id, c.org_id, sa.client_id || '@service-accounts.invalid', FALSE, sa.name, '', 0, sa.created_at, sa.created_at, TRUE
    FROM service_accounts sa JOIN customers c ON c.id = sa.customer_id;
INSERT INTO console_users (user_id, role, customer_id, created_at)
    SELECT sa.id, 'viewer', sa.customer_id, sa.created_at FROM service_accounts sa;
INSERT INTO service_accounts_v2 (id, customer_id, name, description, client_id, secret_hash, created_at, secret_rotated_at, user_id, role)
    SELECT id, customer_id, name, description, client_id, secret_hash, created_at, secret_rotated_at, id, 'viewer' FROM service_accounts;
INSERT INTO applications (app_id, client_id, name, kind, redirect_uris, post_logout_redirect_uris, secret_hash, management, created_at,
        auth_method, user_id)
    SELECT 'sa-' || id, client_id, name, 'service', '[]', '[]', '', FALSE, created_at, 'client_secret_basic', id FROM service_accounts;
DROP TABLE service_accounts;
ALTER TABLE service_accounts_v2 RENAME TO service_accounts;
CREATE INDEX service_accounts_customer ON service_accounts (customer_id);

-- Client assertions seen (private_key_jwt): a jti is accepted once per
-- client until the assertion expires.
CREATE TABLE client_assertions (
    client_id  TEXT NOT NULL,
    jti        TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE INDEX client_assertions_expires ON client_assertions (expires_at);

-- Device authorization grant (RFC 8628): the device polls with the device
-- code (kept as its hash), the user enters the user code at the provider,
-- signs in through a login transaction of its own (auth_requests.device_code_hash)
-- and approves or denies. Polls faster than the interval are answered
-- slow_down and widen it; the tokens are issued once.
CREATE TABLE device_authorizations (
    device_code_hash TEXT PRIMARY KEY,
    user_code        TEXT NOT NULL UNIQUE,
    client_id        TEXT NOT NULL,
    scopes           TEXT NOT NULL,
    state            TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'consumed')),
    interval_seconds INTEGER NOT NULL,
    last_polled_at   TIMESTAMPTZ,
    user_id          TEXT NOT NULL DEFAULT '',
    amr              TEXT NOT NULL DEFAULT '',
    auth_time        TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL,
    expires_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX device_authorizations_expires ON device_authorizations (expires_at);
ALTER TABLE auth_requests ADD COLUMN device_code_hash TEXT NOT NULL DEFAULT '';

-- Pushed authorization requests (RFC 9126): the parameters a client posted,
-- under the hash of their request_uri, used once, by that client only.
CREATE TABLE pushed_requests (
    request_uri_hash TEXT PRIMARY KEY,
    client_id        TEXT NOT NULL,
    params           TEXT NOT NULL,
    expires_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX pushed_requests_expires ON pushed_requests (expires_at);
