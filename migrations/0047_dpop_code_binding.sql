-- DPoP (RFC 9449, D-dpop), the rest: an authorization request may name the
-- key its code is bound to (dpop_jkt, section 10), which the code exchange's
-- proof must be of; an access token keeps the thumbprint of the key it is
-- bound to, so that introspection answers cnf.jkt (section 6.2). Empty when
-- unbound.
ALTER TABLE auth_requests ADD COLUMN dpop_jkt TEXT NOT NULL DEFAULT '';
ALTER TABLE access_tokens ADD COLUMN dpop_jkt TEXT NOT NULL DEFAULT '';
