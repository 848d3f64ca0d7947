-- Organization login policies, external identity providers, TOTP factors and
-- recovery codes. Secrets (external client secrets, TOTP seeds) are sealed with
-- the platform's secrets key (AES-256-GCM) before they are stored.
CREATE TABLE login_policies (
    org_id                  TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    password_allowed        BOOLEAN NOT NULL DEFAULT TRUE,
    sso_allowed             BOOLEAN NOT NULL DEFAULT FALSE,
    mfa_forced              BOOLEAN NOT NULL DEFAULT FALSE,
    sso_create_users        BOOLEAN NOT NULL DEFAULT FALSE,
    password_min_length     INTEGER NOT NULL DEFAULT 12,
    password_check_common   BOOLEAN NOT NULL DEFAULT TRUE,
    lockout_max_attempts    INTEGER NOT NULL DEFAULT 5,
    lockout_seconds         INTEGER NOT NULL DEFAULT 900,
    updated_at              TIMESTAMPTZ NOT NULL
);

CREATE TABLE external_idps (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name              TEXT NOT NULL,
    issuer            TEXT NOT NULL,
    client_id         TEXT NOT NULL,
    client_secret_enc BYTEA NOT NULL,
    scopes            TEXT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX external_idps_org ON external_idps (org_id);

CREATE TABLE external_identities (
    idp_id     TEXT NOT NULL REFERENCES external_idps (id) ON DELETE CASCADE,
    subject    TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (idp_id, subject)
);

-- One row per login handed to an external provider; the state is single use.
CREATE TABLE sso_states (
    state_hash      TEXT PRIMARY KEY,
    auth_request_id TEXT NOT NULL,
    idp_id          TEXT NOT NULL,
    nonce           TEXT NOT NULL,
    code_verifier   TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL
);

CREATE TABLE totp_factors (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret_enc BYTEA NOT NULL,
    confirmed  BOOLEAN NOT NULL DEFAULT FALSE,
    last_step  BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE recovery_codes (
    user_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used      BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (user_id, code_hash)
);

-- A password that passed, waiting for a second factor.
ALTER TABLE auth_requests ADD COLUMN pending_user_id TEXT NOT NULL DEFAULT '';

-- Service applications allowed to call the management API.
ALTER TABLE applications ADD COLUMN management BOOLEAN NOT NULL DEFAULT FALSE;
