-- SCIM for the administrator organization (D-scim-internal): a token of no
-- customer (customer_id NULL) provisions internal users and internal
-- groups. A directory's externalId is unique in the user's organization,
-- which every user has (a customer's, or the administrator organization).
CREATE TABLE scim_tokens_next (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT REFERENCES customers (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    created_by   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
INSERT INTO scim_tokens_next (id, customer_id, name, token_hash, created_by, created_at, last_used_at, revoked_at)
    SELECT id, customer_id, name, token_hash, created_by, created_at, last_used_at, revoked_at FROM scim_tokens;
DROP TABLE scim_tokens;
ALTER TABLE scim_tokens_next RENAME TO scim_tokens;
CREATE INDEX scim_tokens_customer ON scim_tokens (customer_id, created_at, id);

CREATE TABLE scim_external_ids_next (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    org_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    UNIQUE (org_id, external_id)
);
INSERT INTO scim_external_ids_next (user_id, org_id, external_id)
    SELECT x.user_id, u.org_id, x.external_id FROM scim_external_ids x JOIN users u ON u.id = x.user_id;
DROP TABLE scim_external_ids;
ALTER TABLE scim_external_ids_next RENAME TO scim_external_ids;
