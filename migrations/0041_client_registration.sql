-- Dynamic client registration (RFC 7591, RFC 7592; D-dynamic-registration).
-- A customer's owner or admin makes initial access tokens: only the token's
-- SHA-256 is kept, with the kinds of client it may register, the hosts its
-- clients' redirect URIs may name (JSON list; "*.example.com" names the
-- subdomains), when it expires and how many clients it registers at most.
CREATE TABLE registration_tokens (
    id                 TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name               TEXT NOT NULL,
    token_hash         TEXT NOT NULL UNIQUE,
    allow_public       BOOLEAN NOT NULL,
    allow_confidential BOOLEAN NOT NULL,
    redirect_hosts     TEXT NOT NULL,
    max_uses           INTEGER NOT NULL,
    uses               INTEGER NOT NULL DEFAULT 0,
    created_by         TEXT NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    expires_at         TIMESTAMPTZ NOT NULL,
    revoked_at         TIMESTAMPTZ
);
CREATE INDEX registration_tokens_customer ON registration_tokens (customer_id, created_at, id);

-- A registered client belongs to the customer whose token registered it;
-- its registration access token (RFC 7592) is kept as its SHA-256.
ALTER TABLE applications ADD COLUMN registered_customer_id TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN registration_token_id TEXT NOT NULL DEFAULT '';
ALTER TABLE applications ADD COLUMN registration_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX applications_registered_customer ON applications (registered_customer_id);
