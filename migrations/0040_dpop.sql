-- DPoP (RFC 9449, D-dpop): an application may require sender-constrained
-- tokens; a public client's refresh token is bound to the key of the proof
-- it was issued with (the RFC 7638 thumbprint, empty when unbound); every
-- proof's jti is accepted once, at any replica, until its iat window ends.
ALTER TABLE applications ADD COLUMN require_dpop BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT NOT NULL DEFAULT '';
-- The console keeps the setting of an instance's application beside its
-- connection (the provider's application holds it too), so that updates of
-- the application keep it.
ALTER TABLE instance_connections ADD COLUMN require_dpop BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE dpop_proofs (
    proof_hash TEXT PRIMARY KEY,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX dpop_proofs_expires ON dpop_proofs (expires_at);
