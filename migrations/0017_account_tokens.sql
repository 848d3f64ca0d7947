-- Single-use links sent by e-mail (D-reset): an invitation (7 days), a
-- password reset or unlock (1 hour), an address verification. Only the
-- SHA-256 of the token is stored; used_at marks it spent. email is the
-- address a verification link confirms.
CREATE TABLE account_tokens (
    token_hash TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX account_tokens_user ON account_tokens (user_id, kind);
CREATE INDEX account_tokens_expires ON account_tokens (expires_at);
