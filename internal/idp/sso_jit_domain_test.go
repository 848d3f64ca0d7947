package idp

import (
	"context"
	"net/http"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// A customer's provider creates accounts just in time only for addresses
// at a domain its customer holds verified (D-verified-domains): with no
// claim of the address's domain, or a claim not proven yet, or the domain
// verified by another customer, the sign-in ends on the generic page and no
// account is made; once verified for this customer, the account is made.
//
// attack: jit-unverified-domain
func TestAttackJITOutsideVerifiedDomains(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	for _, tc := range []struct {
		name   string
		claim  func(ctx context.Context, st *store.Store) error
		create bool
	}{
		{"NoClaim", func(context.Context, *store.Store) error { return nil }, false},
		{"UnverifiedClaim", func(ctx context.Context, st *store.Store) error {
			return st.CreateDomainClaim(ctx, &store.DomainClaim{ID: "claim-b", CustomerID: "cust-b", Domain: "zitadel.ch",
				Token: "t", CreatedBy: "u", CreatedAt: time.Now()})
		}, false},
		{"VerifiedByAnotherCustomer", func(ctx context.Context, st *store.Store) error {
			if err := st.CreateOrganization(ctx, &platform.Organization{ID: "org-z", Name: "Z", CreatedAt: time.Now()}); err != nil {
				return err
			}
			if err := st.CreateCustomer(ctx, &platform.Customer{ID: "cust-z", Name: "Z", OrgID: "org-z", CreatedAt: time.Now()}); err != nil {
				return err
			}
			return st.AddCustomerDomain(ctx, "zitadel.ch", "cust-z")
		}, false},
		{"OtherDomainVerified", func(ctx context.Context, st *store.Store) error {
			return st.AddCustomerDomain(ctx, "b.example", "cust-b")
		}, false},
		{"Verified", func(ctx context.Context, st *store.Store) error {
			if err := st.CreateDomainClaim(ctx, &store.DomainClaim{ID: "claim-b", CustomerID: "cust-b", Domain: "zitadel.ch",
				Token: "t", CreatedBy: "u", CreatedAt: time.Now()}); err != nil {
				return err
			}
			return st.MarkDomainVerified(ctx, "claim-b", store.DomainDNS, time.Now())
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t)
			ctx := context.Background()
			if err := ti.st.CreateCustomer(ctx, &platform.Customer{ID: "cust-b", Name: "B", OrgID: orgB, CreatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if err := tc.claim(ctx, ti.st); err != nil {
				t.Fatal(err)
			}
			ext := startExternalOP(t, ti.issuer, nil)
			idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
			r := ti.rp()
			resp, _, _ := ti.ssoLogin(t, ext, r.authURL(newFlow(), oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
			users, err := ti.st.UsersByEmail(ctx, extEmail, "")
			if err != nil {
				t.Fatal(err)
			}
			if !tc.create {
				if resp.StatusCode != http.StatusBadGateway || len(users) != 0 {
					t.Fatalf("sign-in answered %d and %d accounts exist; want the generic 502 page and none", resp.StatusCode, len(users))
				}
				return
			}
			if q := callback(t, resp); q.Get("code") == "" || len(users) != 1 || users[0].OrgID != orgB {
				t.Fatalf("verified domain: %v, %d accounts", q, len(users))
			}
		})
	}
}
