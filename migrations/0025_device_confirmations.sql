-- Device confirmations: the one-time value the confirmation page of a
-- device sign-in carries (kept as its hash), bound to the browser that
-- entered the user code (the hash of its login binding cookie) and to the
-- device code. Approving or denying takes it, once; a raw user code decides
-- nothing.
CREATE TABLE device_confirmations (
    confirmation_hash TEXT PRIMARY KEY,
    device_code_hash  TEXT NOT NULL REFERENCES device_authorizations (device_code_hash) ON DELETE CASCADE,
    binding_hash      TEXT NOT NULL,
    expires_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX device_confirmations_expires ON device_confirmations (expires_at);
CREATE INDEX device_confirmations_device ON device_confirmations (device_code_hash);
