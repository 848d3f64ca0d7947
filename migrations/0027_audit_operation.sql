-- Every allowed admin write is recorded by the service that makes it, in the
-- write's own transaction, in one shape whichever transport it came through
-- (D-audit-events): the action of the capability matrix, as before, and now
-- the declared operation ("tenant.update"). Denials and earlier events have
-- none ('').
ALTER TABLE audit_log ADD COLUMN operation TEXT NOT NULL DEFAULT '';
