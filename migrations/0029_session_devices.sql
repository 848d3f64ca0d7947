-- What administrators see of a user's browser sessions at the identity
-- provider (D-support-tools): the browser's user agent at sign-in, the
-- client address the session was last used from, and when that was (at
-- most a minute behind). Sessions from before have '' and NULL: their
-- sign-in time stands in for the last use.
ALTER TABLE idp_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE idp_sessions ADD COLUMN client_address TEXT NOT NULL DEFAULT '';
ALTER TABLE idp_sessions ADD COLUMN last_seen_at TIMESTAMPTZ;
-- A user whose account has no credential yet (no password, no linked
-- external identity, no passkey) is one whose invitation is pending; the
-- users lists ask that per user.
CREATE INDEX external_identities_user ON external_identities (user_id);
