-- SCIM 2.0 provisioning (D-scim): a customer's directory reaches its
-- organization with a bearer token. Only the token's SHA-256 is kept; a
-- revoked token stays listed (revoked_at) and is refused at once.
CREATE TABLE scim_tokens (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_by   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX scim_tokens_customer ON scim_tokens (customer_id, created_at, id);

-- The directory's own id of a provisioned user (SCIM externalId), unique in
-- its customer; it goes with the user.
CREATE TABLE scim_external_ids (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    UNIQUE (customer_id, external_id)
);
