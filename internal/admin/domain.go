package admin

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// customerDomains manages the e-mail domains a customer claims and proves
// (D-verified-domains): a claim answers the TXT record (or well-known file)
// to publish; verifying looks for it; a verified domain makes its
// customer's organization the home realm of the domain's addresses at
// resolve-org, lets the customer's providers create accounts just in time
// for them, and is checked again periodically (ReverifyDomains). One
// customer at most holds a domain verified; unverified claims do nothing.
type customerDomains struct {
	*core
	prover domains.Prover
}

// How often a verified domain's proof is looked for again, and how long it
// may be missing before the domain loses its verified status.
const (
	DomainRecheck = 24 * time.Hour
	DomainGrace   = 72 * time.Hour
)

// domainsPerPass bounds the claims one re-verification pass checks.
const domainsPerPass = 100

// DomainView is a customer's domain claim as the API shows it: the record
// (or file) that proves it, and its status: "pending" (not proven yet),
// "verified", or "failing" (verified, its proof missing since FailingSince;
// it loses the status DomainGrace after that).
type DomainView struct {
	ID         string `json:"id"`
	CustomerID string `json:"customerId"`
	// Domain is the ASCII (A-label) form; DisplayName its Unicode form.
	Domain      string `json:"domain"`
	DisplayName string `json:"displayName"`
	Status      string `json:"status"`
	// Method is how it was proven: dns, https, or recorded (by a
	// platform_admin, never re-verified); "" while pending.
	Method string `json:"method"`
	// RecordName and RecordValue are the TXT record to publish; the same
	// value in the file at WellKnownURL proves it too. Empty for a
	// recorded domain.
	RecordName   string     `json:"recordName"`
	RecordValue  string     `json:"recordValue"`
	WellKnownURL string     `json:"wellKnownUrl"`
	VerifiedAt   *time.Time `json:"verifiedAt"`
	CheckedAt    *time.Time `json:"checkedAt"`
	FailingSince *time.Time `json:"failingSince"`
	CreatedAt    time.Time  `json:"createdAt"`
}

// DomainInput is the domain a customer claims.
type DomainInput struct {
	Domain string `json:"domain"`
}

func newDomainView(d *store.DomainClaim) *DomainView {
	v := &DomainView{ID: d.ID, CustomerID: d.CustomerID, Domain: d.Domain, DisplayName: domains.Display(d.Domain),
		Status: "pending", Method: d.Method, VerifiedAt: timeOrNull(d.VerifiedAt), CheckedAt: timeOrNull(d.CheckedAt),
		FailingSince: timeOrNull(d.FailingSince), CreatedAt: d.CreatedAt}
	switch {
	case !d.FailingSince.IsZero() && !d.VerifiedAt.IsZero():
		v.Status = "failing"
	case !d.VerifiedAt.IsZero():
		v.Status = "verified"
	}
	if d.Token != "" {
		v.RecordName, v.RecordValue, v.WellKnownURL = domains.RecordName(d.Domain), domains.RecordValue(d.Token), domains.WellKnownURL(d.Domain)
	}
	return v
}

// ListDomains lists a customer's domains by name (one page, at most
// store.MaxDomainClaims).
func (s *customerDomains) ListDomains(ctx context.Context, c *access.Caller, customerID string) (*Page[*DomainView], error) {
	return customerList(ctx, s.core, c, OpDomainList, customerID, s.store.DomainClaims, newDomainView)
}

// ClaimDomain claims a domain for the customer and answers the record to
// publish. A claim blocks no one: another customer may claim the same
// domain, and the first to prove it holds it. EINVALID for a malformed
// domain (domains.Check); ECONFLICT when the customer claims it already;
// ELIMIT past store.MaxDomainClaims.
func (s *customerDomains) ClaimDomain(ctx context.Context, c *access.Caller, customerID string, in DomainInput) (*DomainView, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpDomainClaim); err != nil {
		return nil, err
	}
	name, err := domains.Check(in.Domain)
	if err != nil {
		return nil, err
	}
	d := &store.DomainClaim{ID: newID(), CustomerID: customerID, Domain: name, Token: randomHex(16),
		CreatedBy: c.UserID, CreatedAt: s.stamp()}
	return created(ctx, s.core, c, OpDomainClaim, on(customerID, "customers", customerID, "domains", d.ID), d,
		(*store.Store).CreateDomainClaim, newDomainView)
}

// VerifyDomain looks for the claim's TXT record, then its well-known file,
// and marks the domain verified when either holds the value. EINVALID,
// saying what was found, when neither does (nothing changes: a verified
// domain stays so until re-verification drops it); ECONFLICT when another
// customer holds the domain verified; ENOTFOUND for a claim of another
// customer.
func (s *customerDomains) VerifyDomain(ctx context.Context, c *access.Caller, customerID, id string) (*DomainView, error) {
	d, err := s.claimOf(ctx, c, customerID, id, OpDomainVerify)
	if err != nil {
		return nil, err
	}
	how, err := domains.Proof(store.DomainRecorded), error(nil)
	if d.Method != store.DomainRecorded { // a platform_admin's record stands as it is
		how, err = s.prover.Prove(ctx, d.Domain, domains.RecordValue(d.Token))
	}
	if errors.Is(err, domains.ErrNotProven) {
		return nil, platform.Errorf(platform.EINVALID, "the domain is not proven yet: %s",
			strings.TrimPrefix(err.Error(), domains.ErrNotProven.Error()+": "))
	}
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	return reread(ctx, s.core, c, OpDomainVerify, on(customerID, "customers", customerID, "domains", id), func(tx *store.Store) error {
		return tx.MarkDomainVerified(ctx, id, string(how), now)
	}, s.store.DomainClaim, id, newDomainView)
}

// DeleteDomain removes a claim; a verified domain stops counting at once.
func (s *customerDomains) DeleteDomain(ctx context.Context, c *access.Caller, customerID, id string) error {
	if _, err := s.claimOf(ctx, c, customerID, id, OpDomainDelete); err != nil {
		return err
	}
	return s.audited(ctx, c, OpDomainDelete, on(customerID, "customers", customerID, "domains", id), func(tx *store.Store) error {
		return tx.DeleteDomainClaim(ctx, id)
	})
}

// claimOf decides op on the customer and loads its claim id; a claim of
// another customer answers as a missing one.
func (s *customerDomains) claimOf(ctx context.Context, c *access.Caller, customerID, id string, op Operation) (*store.DomainClaim, error) {
	if _, err := s.customerFor(ctx, c, customerID, op); err != nil {
		return nil, err
	}
	d, err := s.store.DomainClaim(ctx, id)
	if err == nil && d.CustomerID != customerID {
		err = platform.Errorf(platform.ENOTFOUND, "domain claim not found")
	}
	return d, err
}

// domainReverifier is the actor of re-verification in the audit log.
const domainReverifier = "system:domain-reverification"

// ReverifyDomains checks again the proof of every verified domain not
// checked for DomainRecheck (at most domainsPerPass a pass): found, the
// domain stays verified; missing, it starts failing, and a domain failing
// for DomainGrace loses its verified status, audited as the operation
// domain.unverify by the actor "system:domain-reverification". It answers
// how many domains lost the status. Recorded domains are not checked.
func (s *customerDomains) ReverifyDomains(ctx context.Context) (int, error) {
	now := s.stamp()
	due, err := s.store.DomainClaimsDue(ctx, now.Add(-DomainRecheck), domainsPerPass)
	if err != nil {
		return 0, err
	}
	dropped := 0
	for i := range due {
		d := &due[i]
		how, err := s.prover.Prove(ctx, d.Domain, domains.RecordValue(d.Token))
		switch {
		case err == nil:
			err = s.store.MarkDomainVerified(ctx, d.ID, string(how), now)
		case !errors.Is(err, domains.ErrNotProven):
		case d.FailingSince.IsZero() || now.Sub(d.FailingSince) < DomainGrace:
			err = s.store.MarkDomainCheckFailed(ctx, d.ID, now)
		default:
			sys := &access.Caller{Principal: authz.Principal{UserID: domainReverifier, Role: authz.PlatformAdmin}}
			err = s.audited(ctx, sys, OpDomainUnverify, on(d.CustomerID, "customers", d.CustomerID, "domains", d.ID), func(tx *store.Store) error {
				return tx.DropDomainVerification(ctx, d.ID, now)
			})
			if err == nil {
				dropped++
				slog.InfoContext(ctx, "domain lost its verified status", "domain", d.Domain, "customer_id", d.CustomerID)
			}
		}
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			continue // deleted, or dropped by another replica, meanwhile
		}
		if err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}
