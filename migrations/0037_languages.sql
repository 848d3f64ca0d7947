-- Languages (D-languages): the language a user saved for the sign-in and
-- account pages and the e-mails sent to them ('' = none, the browser's is
-- used), and the OIDC ui_locales a login transaction was asked with.
ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT '';
ALTER TABLE auth_requests ADD COLUMN ui_locales TEXT NOT NULL DEFAULT '';
