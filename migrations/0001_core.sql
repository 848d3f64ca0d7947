-- Organizations, their users and the applications registered at the identity provider.
CREATE TABLE organizations (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email          TEXT NOT NULL,
    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
    name           TEXT NOT NULL,
    password_hash  TEXT NOT NULL DEFAULT '',
    failed_logins  INTEGER NOT NULL DEFAULT 0,
    locked_until   TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL,
    UNIQUE (org_id, email)
);
CREATE INDEX users_email ON users (email);

CREATE TABLE applications (
    app_id                    TEXT PRIMARY KEY,
    client_id                 TEXT NOT NULL UNIQUE,
    name                      TEXT NOT NULL,
    kind                      TEXT NOT NULL CHECK (kind IN ('public', 'web', 'service')),
    redirect_uris             TEXT NOT NULL DEFAULT '[]',
    post_logout_redirect_uris TEXT NOT NULL DEFAULT '[]',
    secret_hash               TEXT NOT NULL DEFAULT '',
    created_at                TIMESTAMPTZ NOT NULL
);
