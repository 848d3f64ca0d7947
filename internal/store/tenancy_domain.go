package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

// DomainClaim is a customer's claim of an e-mail domain
// (D-verified-domains). It counts only while VerifiedAt is set; Method is
// how it was last proven (DomainDNS, DomainHTTPS, DomainRecorded).
// CheckedAt is the last proof attempt, FailingSince the first failure in a
// row of a verified claim's re-verification; both zero until then.
type DomainClaim struct {
	ID           string
	CustomerID   string
	Domain       string
	Token        string
	Method       string
	VerifiedAt   time.Time
	CheckedAt    time.Time
	FailingSince time.Time
	CreatedBy    string
	CreatedAt    time.Time
}

// How a domain was proven.
const (
	DomainDNS      = "dns"      // the TXT record
	DomainHTTPS    = "https"    // the well-known file
	DomainRecorded = "recorded" // a platform_admin recorded it; never re-verified
)

// MaxDomainClaims is how many domains one customer may claim; a list of
// them is one page.
const MaxDomainClaims = 50

func scanDomainClaim(r Row) (DomainClaim, error) {
	var d DomainClaim
	var verified, checked, failing sql.NullTime
	err := r.Scan(&d.ID, &d.CustomerID, &d.Domain, &d.Token, &d.Method, &verified, &checked, &failing, &d.CreatedBy, &d.CreatedAt)
	d.VerifiedAt, d.CheckedAt, d.FailingSince = verified.Time, checked.Time, failing.Time
	return d, err
}

var domainClaims = table[DomainClaim]{"customer_domain_claims", "domain claim",
	`id, customer_id, domain, token, method, verified_at, checked_at, failing_since, created_by, created_at`, scanDomainClaim}

// errDomainTaken is the conflict of a domain another customer holds verified.
var errDomainTaken = platform.Errorf(platform.ECONFLICT, "the domain is verified by another customer")

// CreateDomainClaim stores an unverified claim. ECONFLICT when the customer
// already claims the domain; ELIMIT past MaxDomainClaims.
func (s *Tenancy) CreateDomainClaim(ctx context.Context, d *DomainClaim) error {
	if err := s.underLimit(ctx, "customer_domain_claims", "customer_id = $1", d.CustomerID, MaxDomainClaims,
		"a customer claims at most %d domains; delete one first"); err != nil {
		return err
	}
	var mine, taken bool
	if err := s.db.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM customer_domain_claims WHERE customer_id = $1 AND domain = $2),
		EXISTS (SELECT 1 FROM customer_domain_claims WHERE customer_id <> $1 AND domain = $2 AND verified_at IS NOT NULL)`,
		d.CustomerID, d.Domain).Scan(&mine, &taken); err != nil {
		return err
	}
	switch {
	case mine:
		return platform.Errorf(platform.ECONFLICT, "the customer already claims this domain")
	case taken && !d.VerifiedAt.IsZero():
		return errDomainTaken
	}
	return domainClaims.insert(ctx, s.db, d.ID, d.CustomerID, d.Domain, d.Token, d.Method, nullTime(d.VerifiedAt),
		nullTime(d.CheckedAt), nullTime(d.FailingSince), d.CreatedBy, d.CreatedAt.UTC())
}

// DomainClaim returns one claim. ENOTFOUND.
func (s *Tenancy) DomainClaim(ctx context.Context, id string) (*DomainClaim, error) {
	return domainClaims.get(ctx, s.db, id)
}

// DomainClaims lists a customer's claims by domain (at most MaxDomainClaims).
func (s *Tenancy) DomainClaims(ctx context.Context, customerID string) ([]DomainClaim, error) {
	return domainClaims.list(ctx, s.db, `customer_id = $1`, `domain, id`, customerID)
}

// DeleteDomainClaim removes a claim, verified or not. ENOTFOUND.
func (s *Tenancy) DeleteDomainClaim(ctx context.Context, id string) error {
	return s.execOne(ctx, "domain claim", `DELETE FROM customer_domain_claims WHERE id = $1`, id)
}

// MarkDomainVerified records a successful proof of claim id by method at
// now. ECONFLICT when another customer holds the domain verified (the
// unique index decides, so two proofs at once cannot both win); ENOTFOUND.
func (s *Tenancy) MarkDomainVerified(ctx context.Context, id, method string, now time.Time) error {
	n, err := s.db.Exec(ctx, `UPDATE customer_domain_claims SET method = $2,
		verified_at = COALESCE(verified_at, $3), checked_at = $3, failing_since = NULL WHERE id = $1`, id, method, now.UTC())
	switch {
	case errors.Is(err, ErrUnique):
		return errDomainTaken
	case err == nil && n == 0:
		err = ErrNoRows
	}
	return wrap(err, "domain claim")
}

// MarkDomainCheckFailed records a failed proof of claim id at now: a
// verified claim starts (or goes on) failing. ENOTFOUND.
func (s *Tenancy) MarkDomainCheckFailed(ctx context.Context, id string, now time.Time) error {
	return s.execOne(ctx, "domain claim", `UPDATE customer_domain_claims SET checked_at = $2,
		failing_since = CASE WHEN verified_at IS NULL THEN NULL ELSE COALESCE(failing_since, $2) END WHERE id = $1`, id, now.UTC())
}

// DropDomainVerification makes claim id unverified again (its proof has
// failed past the grace). ENOTFOUND when it is gone or no longer verified
// (another replica dropped it first).
func (s *Tenancy) DropDomainVerification(ctx context.Context, id string, now time.Time) error {
	return s.execOne(ctx, "domain claim", `UPDATE customer_domain_claims SET verified_at = NULL, method = '',
		failing_since = NULL, checked_at = $2 WHERE id = $1 AND verified_at IS NOT NULL`, id, now.UTC())
}

// DomainClaimsDue lists up to limit verified claims proven by DNS or HTTPS
// whose last check is older than before, the oldest first: the next
// re-verification pass. Recorded domains are never due.
func (s *Tenancy) DomainClaimsDue(ctx context.Context, before time.Time, limit int) ([]DomainClaim, error) {
	return domainClaims.list(ctx, s.db, `verified_at IS NOT NULL AND method IN ('dns', 'https') AND checked_at < $1`,
		`checked_at, id LIMIT $2`, before.UTC(), limit)
}

// VerifiedDomains lists the domains a customer holds verified.
func (s *Tenancy) VerifiedDomains(ctx context.Context, customerID string) ([]string, error) {
	return queryAll(ctx, s.db, scanString, `SELECT domain FROM customer_domain_claims
		WHERE customer_id = $1 AND verified_at IS NOT NULL ORDER BY domain`, customerID)
}

// OrgDomainVerified reports whether domain is verified for the customer
// whose organization is orgID.
func (s *Tenancy) OrgDomainVerified(ctx context.Context, orgID, domain string) (bool, error) {
	var ok bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM customer_domain_claims d JOIN customers c ON c.id = d.customer_id
		WHERE c.org_id = $1 AND d.domain = $2 AND d.verified_at IS NOT NULL)`, orgID, strings.ToLower(domain)).Scan(&ok)
	return ok, err
}

// AddCustomerDomain records domain as verified for a customer by a
// platform_admin (method DomainRecorded: customer creation, the demo data).
// ECONFLICT when the customer already claims it or another customer holds
// it verified.
func (s *Tenancy) AddCustomerDomain(ctx context.Context, domain, customerID string) error {
	domain = strings.ToLower(domain)
	now := time.Now().UTC().Truncate(time.Microsecond)
	return s.CreateDomainClaim(ctx, &DomainClaim{ID: "recorded:" + customerID + ":" + domain, CustomerID: customerID,
		Domain: domain, Method: DomainRecorded, VerifiedAt: now, CreatedAt: now})
}

// OrgVouchesForDomain reports whether an organization's providers may
// create accounts just in time for addresses at domain
// (D-verified-domains): a customer's organization only for the domains the
// customer holds verified; an organization of no customer (a directory
// behind SSO, the administrator organization) for any.
func (s *Tenancy) OrgVouchesForDomain(ctx context.Context, orgID, domain string) (bool, error) {
	var ok bool
	err := s.db.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM customers WHERE org_id = $1)
		OR EXISTS (SELECT 1 FROM customer_domain_claims d JOIN customers c ON c.id = d.customer_id
			WHERE c.org_id = $1 AND d.domain = $2 AND d.verified_at IS NOT NULL)`, orgID, strings.ToLower(domain)).Scan(&ok)
	return ok, err
}
