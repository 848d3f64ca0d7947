-- Login transactions belong to the browser that started them (D-login-binding):
-- the hash of a random HttpOnly cookie set by the authorize endpoint.
ALTER TABLE auth_requests ADD COLUMN binding_hash TEXT NOT NULL DEFAULT '';
-- The subject of a valid id_token_hint: the session must be that user's.
ALTER TABLE auth_requests ADD COLUMN hint_user_id TEXT NOT NULL DEFAULT '';
-- An external identity waiting for its local account's proof (D-linking):
-- stored as a link once that user signs in with their own credentials.
ALTER TABLE auth_requests ADD COLUMN link_idp_id TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_requests ADD COLUMN link_subject TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_requests ADD COLUMN link_user_id TEXT NOT NULL DEFAULT '';
-- The external login's AMR, kept while a local second factor is asked for.
ALTER TABLE auth_requests ADD COLUMN pending_amr TEXT NOT NULL DEFAULT '';

-- Per provider: trusted by a platform_admin to link on the customer's verified
-- domains (D-linking); said by the organization to enforce MFA itself
-- (D-federated-mfa). The console's record carries the same two flags.
ALTER TABLE external_idps ADD COLUMN link_trusted BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE external_idps ADD COLUMN mfa_enforced BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE customer_idp_configs ADD COLUMN link_trusted BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE customer_idp_configs ADD COLUMN mfa_enforced BOOLEAN NOT NULL DEFAULT FALSE;
