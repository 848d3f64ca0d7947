package idp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
)

// A customer admin's own provider, creating accounts at first sign-in,
// asserts an address that already has an account in another organization
// or in the administrator organization (it would appear in resolve-org and
// the user lists under the customer): no account is created (rows
// counted), the sign-in ends on the generic page. A provider a
// platform_admin trusts may, for an address on a domain recorded for its
// customer; for an administrator's address not even that one.
//
// attack: jit-foreign-address
func TestAttackJITForeignAddress(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	const orgC = "org-c"
	for _, tc := range []struct {
		name            string
		holderOrg       string
		trusted, create bool
	}{
		{"OtherOrganization", orgC, false, false},
		{"OtherOrganizationTrustedOtherDomain", orgC, true, false},
		{"AdministratorOrganizationTrusted", orgA, true, false},
		{"OtherOrganizationTrustedRecordedDomain", orgC, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ti := mustIDP(t)
			ctx, now := context.Background(), time.Now()
			if err := ti.st.CreateOrganization(ctx, &platform.Organization{ID: orgC, Name: "Organization C", CreatedAt: now}); err != nil {
				t.Fatal(err)
			}
			if err := ti.st.CreateUser(ctx, &platform.User{ID: "holder", OrgID: tc.holderOrg, Email: extEmail, EmailVerified: true,
				Name: "Holder", CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			if err := ti.st.CreateCustomer(ctx, &platform.Customer{ID: "cust-b", Name: "B", OrgID: orgB, CreatedAt: now}); err != nil {
				t.Fatal(err)
			}
			domain := "zitadel.ch"
			if tc.name == "OtherOrganizationTrustedOtherDomain" {
				domain = "b.example"
			}
			if err := ti.st.AddCustomerDomain(ctx, domain, "cust-b"); err != nil {
				t.Fatal(err)
			}
			ext := startExternalOP(t, ti.issuer, nil)
			idpID := ti.mustSSOOrg(t, ext, ssoOnly(true))
			if tc.trusted {
				x, _ := ti.st.ExternalIDP(ctx, idpID)
				x.LinkTrusted = true
				if err := ti.st.UpdateExternalIDP(ctx, x); err != nil {
					t.Fatal(err)
				}
			}
			r := ti.rp()
			f := newFlow()
			resp, body, _ := ti.ssoLogin(t, ext, r.authURL(f, oauth2.SetAuthURLParam("scope", "openid "+ScopeOrgPrefix+orgB+" "+ScopeOrgIDPPrefix+idpID)))
			users, err := ti.st.UsersByEmail(ctx, extEmail, "")
			if err != nil {
				t.Fatal(err)
			}
			if !tc.create {
				if resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, "Reference:") {
					t.Fatalf("sign-in answered %d, want the generic 502 page\n%.300s", resp.StatusCode, body)
				}
				if len(users) != 1 || users[0].ID != "holder" {
					t.Fatalf("accounts with the address: %d, want only the holder's", len(users))
				}
				return
			}
			if q := callback(t, resp); q.Get("code") == "" {
				t.Fatalf("trusted provider on the recorded domain: %v", q)
			}
			if len(users) != 2 {
				t.Fatalf("accounts with the address: %d, want the holder's and the new one of org B", len(users))
			}
		})
	}
}

// The management API refuses an identity provider whose issuer is an
// internal address (loopback, private, the metadata address, localhost)
// with the egress policy's rule, before anything is dialled, and stores
// nothing; an issuer on an address EGRESS_ALLOW lists is registered.
func TestSSORegistrationRefusesInternalIssuer(t *testing.T) {
	// serial: the external provider (zitadel's example OP) registers its client in a process-wide list
	ti := mustIDP(t, func(c *Config) { c.Egress = egress.Policy{} })
	m := ti.mgmtClient(t, true)
	for _, issuer := range []string{"http://127.0.0.1:9/", "https://10.0.0.7/", "https://169.254.169.254/latest/", "http://localhost:8080/"} {
		code, body := m.do(http.MethodPost, "/organizations/"+orgB+"/identity-providers", map[string]any{
			"name": "Internal", "issuer": issuer, "clientId": extClientID, "clientSecret": extSecret})
		if msg := strings.ToLower(fmt.Sprint(body)); code != http.StatusBadRequest ||
			!strings.Contains(msg, "public address") || !strings.Contains(msg, "egress policy") {
			t.Errorf("issuer %s = %d %v, want 400 from the egress policy", issuer, code, body)
		}
	}
	if xs, err := ti.st.ExternalIDPs(context.Background(), orgB); err != nil || len(xs) != 0 {
		t.Fatalf("%d providers stored (%v)", len(xs), err)
	}

	allowed := mustIDP(t) // EGRESS_ALLOW: 127.0.0.1
	ext := startExternalOP(t, allowed.issuer, nil)
	allowed.mustSSOOrg(t, ext, ssoOnly(true))
}
