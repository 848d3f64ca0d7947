-- A refresh token presented again shortly after it was rotated, by the same
-- client (a retry after a lost answer), gets the answer of its rotation again
-- instead of revoking its family (D-refresh-grace). That answer is kept
-- sealed, with the time of the rotation, for the grace period only.
ALTER TABLE refresh_tokens ADD COLUMN used_at TIMESTAMPTZ;
ALTER TABLE refresh_tokens ADD COLUMN successor_sealed BYTEA;
