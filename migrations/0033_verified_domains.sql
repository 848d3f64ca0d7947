-- Verified domains (D-verified-domains): a customer claims an e-mail domain
-- and proves it by a DNS TXT record or an HTTPS well-known file holding the
-- claim's token. Several customers may claim one domain; only one may hold
-- it verified (the partial unique index). An unverified claim does nothing.
-- method is how the domain was last proven: 'dns', 'https', or 'recorded'
-- (a platform_admin recorded it; the domains of customer_domains, which this
-- table replaces, are migrated as recorded and stay verified). checked_at
-- is the last proof attempt, failing_since the first of the failures in a
-- row of a verified domain's re-verification (cleared by a success).
CREATE TABLE customer_domain_claims (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    domain        TEXT NOT NULL,
    token         TEXT NOT NULL,
    method        TEXT NOT NULL DEFAULT '',
    verified_at   TIMESTAMPTZ,
    checked_at    TIMESTAMPTZ,
    failing_since TIMESTAMPTZ,
    created_by    TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    UNIQUE (customer_id, domain)
);
CREATE UNIQUE INDEX customer_domain_claims_verified ON customer_domain_claims (domain) WHERE verified_at IS NOT NULL;
CREATE INDEX customer_domain_claims_domain ON customer_domain_claims (domain);
CREATE INDEX customer_domain_claims_checked ON customer_domain_claims (checked_at);

INSERT INTO customer_domain_claims (id, customer_id, domain, token, method, verified_at, checked_at, failing_since, created_by, created_at)
    SELECT 'recorded:' || d.domain, d.customer_id, d.domain, '', 'recorded', c.created_at, NULL, NULL, '', c.created_at
    FROM customer_domains d JOIN customers c ON c.id = d.customer_id;

DROP TABLE customer_domains;
