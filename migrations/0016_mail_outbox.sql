-- The e-mail log is the outbox (D-mail): a message is written in the same
-- transaction as the change that causes it and delivered by a worker with a
-- lease per message (next_attempt_at moves ahead while one replica sends
-- it), retries and backoff. The body (text and HTML, which may carry a
-- single-use link) is sealed at rest and dropped once the message is sent.
ALTER TABLE email_log ADD COLUMN body_sealed BYTEA;
ALTER TABLE email_log ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE email_log ADD COLUMN next_attempt_at TIMESTAMPTZ;
ALTER TABLE email_log ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
ALTER TABLE email_log ADD COLUMN sent_at TIMESTAMPTZ;
CREATE INDEX email_log_due ON email_log (status, next_attempt_at);
-- Entries recorded before delivery existed have no body to send.
UPDATE email_log SET status = 'failed', last_error = 'recorded before e-mail delivery existed' WHERE status = 'queued';
