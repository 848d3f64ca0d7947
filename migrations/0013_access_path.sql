-- One access path (docs/architecture.md): credentials that follow the account.
--
-- A token grant is what one authorization produced: everything issued from one
-- authorization code (its family of access and rotated refresh tokens) or one
-- client_credentials request. Every access token names its grant (the grant_id
-- claim), and so does every tenant session; the statement that loads an API
-- caller (store.Principal) refuses a grant with revoked_at set, so revoking a
-- grant (refresh-token reuse, code replay, suspension, password change) ends
-- API access at once on every replica. expires_at only tells when the row may
-- be deleted: no token or session of the grant outlives it.
CREATE TABLE token_grants (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX token_grants_user ON token_grants (user_id);
CREATE INDEX token_grants_expires ON token_grants (expires_at);

-- A tenant session belongs to the grant whose tokens created it and ends
-- with it. Sessions made before grants existed name none; they end here (the
-- web app signs in again, silently while the provider's session lives).
ALTER TABLE tenant_sessions ADD COLUMN grant_id TEXT NOT NULL DEFAULT '';
DELETE FROM tenant_sessions;
CREATE INDEX tenant_sessions_grant ON tenant_sessions (grant_id);

-- The data API's actions join the permission catalog (D-data-access; equal to
-- the last rows of authz.SpecMatrix(), a test compares them): every role reads
-- tenant data within its scope; the customer's owner, admin and member upload
-- cx data.
INSERT INTO role_permissions (role, action, access) VALUES
    ('platform_admin', 'read_tenant_data', 'read'),
    ('account_manager', 'read_tenant_data', 'read'),
    ('qa_admin', 'read_tenant_data', 'read'),
    ('infra_ops', 'read_tenant_data', 'read'),
    ('finance_admin', 'read_tenant_data', 'read'),
    ('compliance_admin', 'read_tenant_data', 'read'),
    ('reader', 'read_tenant_data', 'read'),
    ('owner', 'read_tenant_data', 'read'),
    ('admin', 'read_tenant_data', 'read'),
    ('billing', 'read_tenant_data', 'read'),
    ('viewer', 'read_tenant_data', 'read'),
    ('member', 'read_tenant_data', 'read'),
    ('owner', 'upload_cx_data', 'full'),
    ('admin', 'upload_cx_data', 'full'),
    ('member', 'upload_cx_data', 'full');
