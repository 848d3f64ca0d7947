-- The console's own data: customers (each with its organization at the
-- identity provider), the e-mail domains a customer signs in with through
-- SSO, console roles of users, and instances with their connection to the
-- identity provider (R2.4-connection).
CREATE TABLE customers (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    org_id     TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE customer_domains (
    domain      TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE
);
CREATE INDEX customer_domains_customer ON customer_domains (customer_id);

CREATE TABLE console_users (
    user_id     TEXT PRIMARY KEY,
    role        TEXT NOT NULL,
    customer_id TEXT REFERENCES customers (id) ON DELETE CASCADE,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX console_users_customer ON console_users (customer_id);

CREATE TABLE instances (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    url         TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX instances_customer ON instances (customer_id);

CREATE TABLE instance_connections (
    instance_id       TEXT PRIMARY KEY REFERENCES instances (id) ON DELETE CASCADE,
    oidc_client_id    TEXT NOT NULL UNIQUE,
    oidc_redirect_uri TEXT NOT NULL DEFAULT '',
    idp_app_id        TEXT NOT NULL DEFAULT '',
    updated_at        TIMESTAMPTZ NOT NULL
);

-- Fixed-window request counters (rate limits), shared by every replica.
CREATE TABLE rate_counters (
    key          TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    hits         INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
);
