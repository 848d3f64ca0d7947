-- A grant remembers the provider session that signed it in (its sid), so
-- that ending that session (sign-out, another user signing in in the same
-- browser) ends every grant it made at once: the console's other tabs, the
-- tenant apps' refresh tokens and sessions. Grants of the device flow and of
-- client_credentials, and those from before, keep '' (D-session-grants).
ALTER TABLE token_grants ADD COLUMN session_sid TEXT NOT NULL DEFAULT '';
CREATE INDEX token_grants_session ON token_grants (user_id, session_sid);
