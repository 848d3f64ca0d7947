-- The audit log becomes the security audit trail (D-audit-trail): security
-- events of the identity provider (sign-ins and their failures, lockouts,
-- password resets, second factors, passkeys, sessions, tokens) are rows of
-- the same table as the administration writes and denials, in one schema
-- aligned with OCSF (docs/api.md, "Audit events").
--
-- kind is the event's kind (sign_in, account.locked, admin.write, …), from
-- which the OCSF category, class and activity follow. The actor's e-mail,
-- organization and role are stored when the event is written, so a deleted
-- user still shows; target names what the event acted on; source_ip and
-- user_agent say where the request came from; details holds the few fields
-- of a kind (a JSON object: method, client, grant type, …).
ALTER TABLE audit_log ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN actor_email TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN actor_org_id TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN actor_role TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_type TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_id TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN target_name TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN source_ip TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
-- seq is the event's place in the stream the export follows (D-audit-stream):
-- on PostgreSQL the writing transaction's id plus audit_stream's shift, read
-- only once every older transaction has ended; on SQLite, whose writers
-- take turns, one more than the largest before it. Events from before the
-- stream have 0. The shift grows when the database was restored into a
-- server whose transaction ids are behind the stream's (AlignAuditStream).
ALTER TABLE audit_log ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE TABLE audit_stream (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    shift BIGINT NOT NULL
);
INSERT INTO audit_stream (id, shift) VALUES (1, 0);

-- What the log held before: administration writes, denials, and the passkey
-- events under the names they had.
UPDATE audit_log SET kind = CASE
        WHEN action IN ('passkey.sign_in', 'passkey.second_factor') THEN 'sign_in'
        WHEN action = 'passkey.register' THEN 'passkey.added'
        WHEN action = 'passkey.rename' THEN 'passkey.renamed'
        WHEN action = 'passkey.remove' THEN 'passkey.removed'
        WHEN action = 'passkey.confirm' THEN 'reauthentication'
        WHEN action = 'passkey.clone_detected' THEN 'passkey.clone_detected'
        WHEN decision = 'denied' THEN 'access.denied'
        ELSE 'admin.write' END,
    actor_email = COALESCE((SELECT email FROM users WHERE users.id = audit_log.actor_id), '');

CREATE INDEX audit_log_stream ON audit_log (seq, id);
CREATE INDEX audit_log_customer_stream ON audit_log (customer_id, seq, id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at, id);
-- The provider's maintenance records the end of each lock that ran out
-- (account.unlocked) as it lifts it.
CREATE INDEX users_locked ON users (locked_until) WHERE locked_until IS NOT NULL;
