package console

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Home-realm discovery (D-verified-domains): an address nobody has, at a
// domain a customer holds verified, resolves to that customer's
// organization with its SSO; at a domain only claimed (not proven), or
// whose proof was dropped, it resolves to nobody.
func TestResolveOrgHomeRealm(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	ctx := context.Background()
	got := tc.resolveOrg("new.hire@initech.example")
	if got.Type != TypeCustomer || len(got.Orgs) != 1 || got.Orgs[0].ID != ssoOrg ||
		len(got.AuthMethods[0].Methods) != 1 || got.AuthMethods[0].Methods[0].IDPID != "idp-1" {
		t.Fatalf("unknown address at a verified domain: %+v", got)
	}
	if err := tc.st.CreateDomainClaim(ctx, &store.DomainClaim{ID: "claim-1", CustomerID: "cust-sso", Domain: "initech-claimed.example",
		Token: "t", CreatedBy: "u", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got := tc.resolveOrg("new.hire@initech-claimed.example"); got.Type != TypeNotFound {
		t.Fatalf("unknown address at a claimed, unproven domain: %+v", got)
	}
	if err := tc.st.MarkDomainVerified(ctx, "claim-1", store.DomainDNS, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := tc.resolveOrg("new.hire@initech-claimed.example"); got.Type != TypeCustomer {
		t.Fatalf("after the proof: %+v", got)
	}
	if err := tc.st.DropDomainVerification(ctx, "claim-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := tc.resolveOrg("new.hire@initech-claimed.example"); got.Type != TypeNotFound {
		t.Fatalf("after the proof was dropped: %+v", got)
	}
}

// At a verified domain, resolve-org answers an address with an account and
// one without byte for byte alike, with the same status, whatever methods
// the organization allows (here password and SSO): the home realm's
// methods, never only those of the account.
//
// attack: resolve-org-home-realm-enumeration
func TestAttackResolveOrgVerifiedDomainEnumeration(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	ctx, now := context.Background(), time.Now()
	p := platform.DefaultLoginPolicy(ssoOrg)
	p.PasswordAllowed, p.SSOAllowed, p.SSOCreateUsers, p.PasskeyAllowed, p.UpdatedAt = true, true, true, true, now
	if err := tc.st.PutLoginPolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := tc.st.CreateUser(ctx, &platform.User{ID: "known", OrgID: ssoOrg, Email: "known@initech.example", Name: "Known",
		PasswordHash: "x", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	raw := func(email string) (int, string) {
		r, err := http.Post(tc.srv.URL+"/api/v1/login/resolve-org", "application/json", strings.NewReader(`{"email":"`+email+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(b)
	}
	knownStatus, known := raw("known@initech.example")
	unknownStatus, unknown := raw("nobody@initech.example")
	if knownStatus != http.StatusOK || knownStatus != unknownStatus || known != unknown {
		t.Fatalf("known: %d %s\nunknown: %d %s", knownStatus, known, unknownStatus, unknown)
	}
	if !strings.Contains(known, `"password"`) || !strings.Contains(known, `"idp-1"`) {
		t.Fatalf("the home realm's methods are missing: %s", known)
	}
}
