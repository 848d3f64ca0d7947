-- Passkeys (WebAuthn credentials). credential holds the WebAuthn library's
-- credential record (public key, flags, authenticator data) as JSON; the
-- columns beside it are what the provider looks up or changes: the
-- credential id an assertion names, the signature counter (compared and
-- advanced in one statement, so a replayed or cloned authenticator's
-- counter is noticed) and the clone warning that stops a credential.
CREATE TABLE passkeys (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id BYTEA NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    credential    TEXT NOT NULL,
    sign_count    BIGINT NOT NULL DEFAULT 0,
    clone_warning BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL,
    last_used_at  TIMESTAMPTZ
);
CREATE INDEX passkeys_user ON passkeys (user_id, created_at);

-- A WebAuthn ceremony between its options and its answer: the challenge and
-- what the answer must match, for one owner (a login transaction or a
-- browser session) and purpose. Taking it deletes it, so a challenge is
-- answered once.
CREATE TABLE webauthn_ceremonies (
    owner      TEXT NOT NULL,
    purpose    TEXT NOT NULL,
    data       TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (owner, purpose)
);
CREATE INDEX webauthn_ceremonies_expires ON webauthn_ceremonies (expires_at);

-- Per organization: passkeys allowed, and required (password sign-in then
-- refused for the organization's users).
ALTER TABLE login_policies ADD COLUMN passkey_allowed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE login_policies ADD COLUMN passkey_required BOOLEAN NOT NULL DEFAULT FALSE;
