-- Server-side sessions of the tenant web app. The cookie holds a random id;
-- only its hash is stored. The refresh token is sealed with the secrets key.
CREATE TABLE tenant_sessions (
    id_hash          TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL,
    client_id        TEXT NOT NULL,
    email            TEXT NOT NULL,
    name             TEXT NOT NULL,
    org_id           TEXT NOT NULL,
    id_token         TEXT NOT NULL,
    refresh_sealed   BYTEA,
    token_expires_at TIMESTAMPTZ NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    expires_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX tenant_sessions_expires ON tenant_sessions (expires_at);
CREATE INDEX tenant_sessions_user ON tenant_sessions (user_id);
