package adminhttp

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/domains/dnstest"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/store"
)

// clock is a test's settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// domainEnv is an API whose domain proofs ask a real DNS server on
// loopback, with a clock the test moves.
func domainEnv(t *testing.T) (*env, *dnstest.Server, *clock) {
	t.Helper()
	d := dnstest.Start(t)
	clk := &clock{now: time.Now().UTC().Truncate(time.Second)}
	r := domains.NewResolver(d.Addr)
	e := newEnv(t, admin.WithClock(clk.Now), admin.WithDomainProver(domains.Prover{Resolver: r, Egress: egress.Policy{Resolver: r}}))
	return e, d, clk
}

// domainClaim is a claim as the API answers it.
type domainClaim struct {
	ID, CustomerID, Domain, DisplayName, Status, Method, RecordName, RecordValue, WellKnownURL string
	VerifiedAt, FailingSince                                                                   *time.Time
}

func claimDomain(t *testing.T, e *env, user, customer, domain string) domainClaim {
	t.Helper()
	resp := e.do(user, http.MethodPost, "/customers/"+customer+"/domains", map[string]any{"domain": domain})
	if resp.Status != http.StatusCreated {
		t.Fatalf("claim %s = %d %s", domain, resp.Status, resp.Body)
	}
	var c domainClaim
	decodeInto(t, resp, &c)
	return c
}

func verifyPath(c domainClaim) string {
	return "/customers/" + c.CustomerID + "/domains/" + c.ID + "/verify"
}

// A customer's admin claims a domain and is answered the TXT record to
// publish; verifying before it is published answers 400 saying what was
// looked for and changes nothing; once the record is at the DNS server the
// domain is verified (by dns), listed as such and audited; deleting it
// takes it away. Malformed domains are refused with 400 and nothing is
// stored. A member of the customer may do none of it.
func TestDomainClaimAndVerifyByDNS(t *testing.T) {
	t.Parallel()
	e, d, _ := domainEnv(t)
	cust := e.mustCustomer()
	adm, member := e.mustUser(authz.Admin, cust), e.mustUser(authz.Member, cust)

	c := claimDomain(t, e, adm, cust, "Acme.Example")
	if c.Domain != "acme.example" || c.Status != "pending" || c.RecordName != "_platform-challenge.acme.example" ||
		!strings.HasPrefix(c.RecordValue, "platform-domain-verification=") || len(c.RecordValue) < 40 ||
		c.WellKnownURL != "https://acme.example/.well-known/platform-domain-verification.txt" {
		t.Fatalf("claim = %+v", c)
	}
	if resp := e.do(adm, http.MethodPost, "/customers/"+cust+"/domains", map[string]any{"domain": "acme.example"}); resp.Status != http.StatusConflict {
		t.Fatalf("second claim of the same domain = %d %s", resp.Status, resp.Body)
	}
	for _, bad := range []string{"localhost", "*.acme.example", "10.0.0.1", "intranet", "https://acme.example/"} {
		resp := e.do(adm, http.MethodPost, "/customers/"+cust+"/domains", map[string]any{"domain": bad})
		if resp.Status != http.StatusBadRequest {
			t.Errorf("claim %q = %d %s", bad, resp.Status, resp.Body)
		}
		checkErrorObject(t, resp, "/customers/"+cust+"/domains")
	}

	resp := e.do(adm, http.MethodPost, verifyPath(c), nil)
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "_platform-challenge.acme.example") {
		t.Fatalf("verify before publishing = %d %s", resp.Status, resp.Body)
	}
	if ok, _ := e.st.OrgDomainVerified(context.Background(), orgOf(t, e, cust), "acme.example"); ok {
		t.Fatal("an unproven claim counts as verified")
	}

	d.Publish("acme.example", c.RecordValue)
	if resp := e.do(member, http.MethodPost, verifyPath(c), nil); resp.Status != http.StatusForbidden {
		t.Fatalf("member verifies = %d %s", resp.Status, resp.Body)
	}
	resp = e.doWithID("verify-dns", adm, http.MethodPost, verifyPath(c), nil)
	var v domainClaim
	decodeInto(t, resp, &v)
	if resp.Status != http.StatusOK || v.Status != "verified" || v.Method != "dns" || v.VerifiedAt == nil {
		t.Fatalf("verify = %d %s", resp.Status, resp.Body)
	}
	if rows := auditRows(t, e.st, "verify-dns"); len(rows) != 1 || rows[0].Operation != "domain.verify" || rows[0].CustomerID != cust {
		t.Fatalf("audit = %+v", rows)
	}
	if ok, _ := e.st.OrgDomainVerified(context.Background(), orgOf(t, e, cust), "acme.example"); !ok {
		t.Fatal("the verified domain does not count")
	}
	list := e.do(adm, http.MethodGet, "/customers/"+cust+"/domains", nil)
	if list.Status != http.StatusOK || !strings.Contains(string(list.Body), `"status":"verified"`) {
		t.Fatalf("list = %d %s", list.Status, list.Body)
	}
	if resp := e.do(member, http.MethodGet, "/customers/"+cust+"/domains", nil); resp.Status != http.StatusForbidden {
		t.Fatalf("member lists = %d", resp.Status)
	}

	if resp := e.do(adm, http.MethodDelete, "/customers/"+cust+"/domains/"+c.ID, nil); resp.Status != http.StatusNoContent {
		t.Fatalf("delete = %d %s", resp.Status, resp.Body)
	}
	if ok, _ := e.st.OrgDomainVerified(context.Background(), orgOf(t, e, cust), "acme.example"); ok {
		t.Fatal("a deleted domain still counts")
	}
}

func orgOf(t *testing.T, e *env, customerID string) string {
	t.Helper()
	c, err := e.st.Customer(context.Background(), customerID)
	if err != nil {
		t.Fatal(err)
	}
	return c.OrgID
}

// Two customers claim one domain (a claim blocks no one); the first to
// publish its record and verify holds it. The other, with its own record
// published as well, is refused with 409 and stays pending; it cannot
// verify the holder's claim through its own customer's path, nor reach
// the holder's domains at all (404, as for what does not exist); the holder's owner and a
// platform_admin can. Deleting the holder's claim frees the domain.
//
// attack: verify-foreign-domain
func TestAttackVerifyAnotherCustomersDomain(t *testing.T) {
	t.Parallel()
	e, d, _ := domainEnv(t)
	a, b := e.mustCustomer(), e.mustCustomer()
	ownerA, adminB, pa := e.mustUser(authz.Owner, a), e.mustUser(authz.Admin, b), e.mustUser(authz.PlatformAdmin, "")
	ca := claimDomain(t, e, ownerA, a, "shared.example")
	cb := claimDomain(t, e, adminB, b, "shared.example")
	d.SetTXT("_platform-challenge.shared.example", ca.RecordValue, cb.RecordValue)

	if resp := e.do(ownerA, http.MethodPost, verifyPath(ca), nil); resp.Status != http.StatusOK {
		t.Fatalf("holder verifies = %d %s", resp.Status, resp.Body)
	}
	resp := e.do(adminB, http.MethodPost, verifyPath(cb), nil)
	if resp.Status != http.StatusConflict || !strings.Contains(string(resp.Body), "another customer") {
		t.Fatalf("second customer verifies = %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(adminB, http.MethodPost, "/customers/"+b+"/domains/"+ca.ID+"/verify", nil); resp.Status != http.StatusNotFound {
		t.Fatalf("the holder's claim through the other customer's path = %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(adminB, http.MethodPost, verifyPath(ca), nil); resp.Status != http.StatusNotFound {
		t.Fatalf("the holder's claim through the holder's path = %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(adminB, http.MethodDelete, "/customers/"+a+"/domains/"+ca.ID, nil); resp.Status != http.StatusNotFound {
		t.Fatalf("delete the holder's claim = %d %s", resp.Status, resp.Body)
	}
	if ok, _ := e.st.OrgDomainVerified(context.Background(), orgOf(t, e, b), "shared.example"); ok {
		t.Fatal("the second customer holds the domain")
	}
	// a platform_admin records it for b: refused as well, the domain is a's
	if resp := e.do(pa, http.MethodPost, "/customers", map[string]any{"name": "C", "domains": []string{"shared.example"}}); resp.Status != http.StatusConflict {
		t.Fatalf("a new customer recorded with the domain = %d %s", resp.Status, resp.Body)
	}

	if resp := e.do(pa, http.MethodDelete, "/customers/"+a+"/domains/"+ca.ID, nil); resp.Status != http.StatusNoContent {
		t.Fatalf("platform_admin deletes = %d %s", resp.Status, resp.Body)
	}
	if resp := e.do(adminB, http.MethodPost, verifyPath(cb), nil); resp.Status != http.StatusOK {
		t.Fatalf("verify after the holder let go = %d %s", resp.Status, resp.Body)
	}
}

// Re-verification: a verified domain whose record disappears is failing at
// the next check (still verified), and loses its status once it has been
// failing for the grace, audited as domain.unverify by the
// re-verification; a record that comes back within the grace keeps the
// domain. Recorded domains are never checked.
func TestDomainReverification(t *testing.T) {
	t.Parallel()
	e, d, clk := domainEnv(t)
	cust := e.mustCustomer()
	adm := e.mustUser(authz.Admin, cust)
	keep := claimDomain(t, e, adm, cust, "keep.example")
	lose := claimDomain(t, e, adm, cust, "lose.example")
	if err := e.st.AddCustomerDomain(context.Background(), "recorded.example", cust); err != nil {
		t.Fatal(err)
	}
	d.Publish("keep.example", keep.RecordValue)
	d.Publish("lose.example", lose.RecordValue)
	for _, c := range []domainClaim{keep, lose} {
		if resp := e.do(adm, http.MethodPost, verifyPath(c), nil); resp.Status != http.StatusOK {
			t.Fatalf("verify %s = %d %s", c.Domain, resp.Status, resp.Body)
		}
	}
	ctx := context.Background()
	status := func(id string) *store.DomainClaim {
		t.Helper()
		c, err := e.st.DomainClaim(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// the changed record: lose.example's now holds another value; keep's goes for a while
	d.Publish("lose.example", domains.RecordValue("someone-else"))
	d.Publish("keep.example", "")

	clk.Add(admin.DomainRecheck + time.Minute)
	if n, err := e.svc.ReverifyDomains(ctx); err != nil || n != 0 {
		t.Fatalf("first pass: %d dropped, %v", n, err)
	}
	if c := status(lose.ID); c.VerifiedAt.IsZero() || c.FailingSince.IsZero() {
		t.Fatalf("after one failed check: %+v", c)
	}
	list := e.do(adm, http.MethodGet, "/customers/"+cust+"/domains", nil)
	if !strings.Contains(string(list.Body), `"status":"failing"`) {
		t.Fatalf("list while failing: %s", list.Body)
	}
	d.Publish("keep.example", keep.RecordValue) // back within the grace

	clk.Add(admin.DomainGrace)
	if n, err := e.svc.ReverifyDomains(ctx); err != nil || n != 1 {
		t.Fatalf("pass past the grace: %d dropped, %v", n, err)
	}
	if c := status(lose.ID); !c.VerifiedAt.IsZero() || c.Method != "" {
		t.Fatalf("lose.example after the grace: %+v", c)
	}
	if c := status(keep.ID); c.VerifiedAt.IsZero() || !c.FailingSince.IsZero() {
		t.Fatalf("keep.example, back within the grace: %+v", c)
	}
	if c := status("recorded:" + cust + ":recorded.example"); c.VerifiedAt.IsZero() || !c.CheckedAt.IsZero() {
		t.Fatalf("recorded domain: %+v", c)
	}
	if ok, _ := e.st.OrgDomainVerified(ctx, orgOf(t, e, cust), "lose.example"); ok {
		t.Fatal("the dropped domain still counts")
	}
	var n int
	if err := e.st.Conn().QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE operation = 'domain.unverify'
		AND actor_id = 'system:domain-reverification' AND customer_id = $1`, cust).Scan(&n); err != nil || n != 1 {
		t.Fatalf("domain.unverify events: %d (%v)", n, err)
	}
	if n, err := e.svc.ReverifyDomains(ctx); err != nil || n != 0 {
		t.Fatalf("pass again: %d dropped, %v", n, err)
	}
}

// An invitation to an address outside the customer's verified domains
// goes out with a warning; inside them, or for a customer with no verified
// domain, without one.
func TestInvitationOutsideVerifiedDomains(t *testing.T) {
	t.Parallel()
	e, _, _ := domainEnv(t)
	cust, plain := e.mustCustomer(), e.mustCustomer()
	adm := e.mustUser(authz.Admin, cust)
	pa := e.mustUser(authz.PlatformAdmin, "")
	if err := e.st.AddCustomerDomain(context.Background(), "acme.example", cust); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		customer, user, email string
		warn                  bool
	}{
		{cust, adm, "new@acme.example", false},
		{cust, adm, "new@gmail.example", true},
		{cust, adm, "new@sub.acme.example", true},
		{plain, pa, "new@gmail.example", false},
	} {
		resp := e.do(tc.user, http.MethodPost, "/customers/"+tc.customer+"/users", map[string]any{"email": tc.email, "name": "New"})
		if resp.Status != http.StatusCreated {
			t.Fatalf("invite %s = %d %s", tc.email, resp.Status, resp.Body)
		}
		w, _ := resp.json(t)["warning"].(string)
		if (w != "") != tc.warn || (tc.warn && !strings.Contains(w, "acme.example")) {
			t.Errorf("invite %s: warning %q, want one: %v", tc.email, w, tc.warn)
		}
	}
}
