-- Back-channel logout (OpenID Connect Back-Channel Logout 1.0). A login
-- transaction remembers the provider session that completed it, whose sid
-- its id_token carries; a tenant session remembers that sid. When a provider
-- session ends (sign-out), or every credential of a user ends (suspension,
-- deletion, a password change), a logout is queued for each application
-- with a back-channel logout URI the user holds a live grant with, and
-- delivered with retries. One pending logout per (client, user, sid): a
-- second one for the same moves it forward.
ALTER TABLE idp_sessions ADD COLUMN sid TEXT NOT NULL DEFAULT '';
UPDATE idp_sessions SET sid = substr(id_hash, 1, 22); -- sessions from before: part of the hash, not the lookup key
ALTER TABLE auth_requests ADD COLUMN session_sid TEXT NOT NULL DEFAULT '';
ALTER TABLE tenant_sessions ADD COLUMN idp_sid TEXT NOT NULL DEFAULT '';
CREATE INDEX tenant_sessions_idp_sid ON tenant_sessions (idp_sid);

CREATE TABLE backchannel_logouts (
    client_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    session_sid     TEXT NOT NULL, -- '' for every session of the user
    issued_at       TIMESTAMPTZ NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (client_id, user_id, session_sid)
);
CREATE INDEX backchannel_logouts_due ON backchannel_logouts (next_attempt_at);
