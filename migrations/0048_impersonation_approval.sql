-- A customer may name an approver of support impersonation
-- (D-impersonation-approval): one of its owners or admins, '' for none.
-- With one, an impersonation starts awaiting approval: no subject token
-- exists (token_hash holds 'pending:' and the id, which no SHA-256 in
-- base64url equals), token_expires_at is when the request lapses unanswered.
-- The approver approves or denies it (approval 'approved' or 'denied',
-- decided_at); after approval the support user collects the one-time
-- subject token. approval is '' for an impersonation that needed none.
ALTER TABLE customers ADD COLUMN impersonation_approver_id TEXT NOT NULL DEFAULT '';
ALTER TABLE impersonations ADD COLUMN approval TEXT NOT NULL DEFAULT '';
ALTER TABLE impersonations ADD COLUMN approver_id TEXT NOT NULL DEFAULT '';
ALTER TABLE impersonations ADD COLUMN decided_at TIMESTAMPTZ;
