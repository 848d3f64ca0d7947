-- Identity provider state: signing keys, login transactions, tokens and browser sessions.
-- Nothing here lives only in process memory, so any number of replicas can serve.
CREATE TABLE signing_keys (
    id          TEXT PRIMARY KEY,
    algorithm   TEXT NOT NULL,
    private_key BYTEA NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    not_before  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE auth_requests (
    id                    TEXT PRIMARY KEY,
    client_id             TEXT NOT NULL,
    redirect_uri          TEXT NOT NULL,
    scopes                TEXT NOT NULL,
    state                 TEXT NOT NULL DEFAULT '',
    nonce                 TEXT NOT NULL DEFAULT '',
    response_type         TEXT NOT NULL,
    response_mode         TEXT NOT NULL DEFAULT '',
    code_challenge        TEXT NOT NULL,
    code_challenge_method TEXT NOT NULL,
    prompt                TEXT NOT NULL DEFAULT '',
    max_age               BIGINT,
    login_hint            TEXT NOT NULL DEFAULT '',
    user_id               TEXT NOT NULL DEFAULT '',
    auth_time             TIMESTAMPTZ,
    amr                   TEXT NOT NULL DEFAULT '',
    done                  BOOLEAN NOT NULL DEFAULT FALSE,
    code_hash             TEXT UNIQUE,
    exchanged             BOOLEAN NOT NULL DEFAULT FALSE,
    created_at            TIMESTAMPTZ NOT NULL,
    expires_at            TIMESTAMPTZ NOT NULL
);
CREATE INDEX auth_requests_expires ON auth_requests (expires_at);

-- A token family is everything issued from one authorization code: access
-- tokens and the chain of rotated refresh tokens. Code replay or refresh-token
-- reuse revokes the whole family.
CREATE TABLE access_tokens (
    id         TEXT PRIMARY KEY,
    family_id  TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    scopes     TEXT NOT NULL,
    audience   TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    revoked    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX access_tokens_family ON access_tokens (family_id);
CREATE INDEX access_tokens_expires ON access_tokens (expires_at);

CREATE TABLE refresh_tokens (
    token_hash      TEXT PRIMARY KEY,
    family_id       TEXT NOT NULL,
    client_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    scopes          TEXT NOT NULL,
    audience        TEXT NOT NULL,
    amr             TEXT NOT NULL DEFAULT '',
    auth_time       TIMESTAMPTZ NOT NULL,
    access_token_id TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    used            BOOLEAN NOT NULL DEFAULT FALSE,
    revoked         BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);

CREATE TABLE idp_sessions (
    id_hash    TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    auth_time  TIMESTAMPTZ NOT NULL,
    amr        TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX idp_sessions_user ON idp_sessions (user_id);
