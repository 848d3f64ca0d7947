-- Support impersonation reaches the tenant web app (D-impersonation): an
-- authorization request that completes for an impersonation keeps it and
-- its actor (impersonation_id, actor_id; '' for every other request), so
-- its code issues tokens on the impersonation's grant with act naming the
-- actor. A tenant session made from such tokens records who acts (actor_id,
-- actor_email) and keeps its access token sealed (access_sealed), which
-- "End" revokes at the provider; '' and NULL for a user's own session.
ALTER TABLE auth_requests ADD COLUMN impersonation_id TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_requests ADD COLUMN actor_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tenant_sessions ADD COLUMN actor_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tenant_sessions ADD COLUMN actor_email TEXT NOT NULL DEFAULT '';
ALTER TABLE tenant_sessions ADD COLUMN access_sealed BYTEA;
