package storetest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/migrations"
)

// Run runs the conformance suite against stores made by newStore.
func Run(t *testing.T, newStore func(testing.TB) *store.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, *store.Store)
	}{
		{"MigrateTwice", testMigrateTwice},
		{"Organizations", testOrganizations},
		{"Users", testUsers},
		{"Lockout", testLockout},
		{"LoginAttemptReservation", testReserveLoginAttempt},
		{"CustomerNames", testCustomerNames},
		{"BriefReads", testBriefReads},
		{"CustomerDeletion", testCustomerDeletion},
		{"CustomerDomains", testCustomerDomains},
		{"Applications", testApplications},
		{"AuthRequestLifecycle", testAuthRequest},
		{"CodeExchangedOnce", testCodeExchangedOnce},
		{"RefreshFamily", testRefreshFamily},
		{"DPoP", testDPoP},
		{"RegistrationTokens", testRegistrationTokens},
		{"ClientMetadata", testClientMetadata},
		{"RateLimit", testRateLimit},
		{"IssueTokensRotation", testIssueTokens},
		{"Sessions", testSessions},
		{"SigningKeys", testSigningKeys},
		{"TxRollback", testTxRollback},
		{"TxAreas", testTxAreas},
		{"Data", testData},
		{"Access", testAccess},
		{"Credentials", testCredentials},
		{"AdminResources", testAdminResources},
		{"BackchannelLogouts", testBackchannelLogouts},
		{"AccountTokens", testAccountTokens},
		{"Outbox", testOutbox},
		{"Passkeys", testPasskeys},
		{"AuditTrail", testAuditTrail},
		{"Support", testSupport},
		{"Groups", testGroups},
		{"SCIM", testSCIM},
		{"Branding", testBranding},
		{"UserGrants", testUserGrants},
		{"Languages", testLanguages},
		{"Impersonation", testImpersonation},
		{"ImpersonationApproval", testImpersonationApproval},
		{"ImpersonationEndsWithActorGrant", testImpersonationEndsWithActorGrant},
		{"ImpersonationPruning", testImpersonationPruning},
		{"Overview", testOverview},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case has a database of its own
			tc.fn(t, newStore(t))
		})
	}
}

var ctx = context.Background()

// ts is a fixed instant at microsecond precision, which both databases keep.
var ts = time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)

func mustOrg(t *testing.T, st *store.Store, id string) {
	t.Helper()
	if err := st.CreateOrganization(ctx, &platform.Organization{ID: id, Name: "Org " + id, CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
}

// mustCustomer stores customer id, named name, with its organization org.
func mustCustomer(t *testing.T, st *store.Store, id, name, org string) {
	t.Helper()
	mustOrg(t, st, org)
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: id, Name: name, OrgID: org, CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
}

// mustCustomers stores customers named as their ids, each with its
// organization "org-"+id.
func mustCustomers(t *testing.T, st *store.Store, ids ...string) {
	t.Helper()
	for _, id := range ids {
		mustCustomer(t, st, id, id, "org-"+id)
	}
}

// mustInstance stores instance id of customer, named name at url, with
// its connection (OIDC client "client-"+id).
func mustInstance(t *testing.T, st *store.Store, id, customer, name, url string) {
	t.Helper()
	if err := st.CreateInstance(ctx, &platform.Instance{ID: id, CustomerID: customer, Name: name, URL: url, CreatedAt: ts},
		&platform.InstanceConnection{InstanceID: id, OIDCClientID: "client-" + id, UpdatedAt: ts}); err != nil {
		t.Fatal(err)
	}
}

func mustUser(t *testing.T, st *store.Store, id, org, email string) *platform.User {
	t.Helper()
	u := &platform.User{ID: id, OrgID: org, Email: email, EmailVerified: true, Name: "User " + id,
		PasswordHash: "$argon2id$x", CreatedAt: ts, UpdatedAt: ts}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// race runs try n times at once and counts the tries that answered true;
// an error fails the test.
func race(t *testing.T, n int, try func() (bool, error)) int {
	var won atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := try()
			if err != nil {
				t.Error(err)
			}
			if ok {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(won.Load())
}

// keys names each of rows with key, in order (nil for none).
func keys[T any](rows []T, key func(T) string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, key(r))
	}
	return out
}

// wantSame fails the test when a read answered err, or got differs from
// want (what names the row in the failure).
func wantSame[T any](t *testing.T, what string, want, got T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := platform.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

func testMigrateTwice(t *testing.T, st *store.Store) {
	applied, err := st.Migrate(ctx, migrations.FS)
	if err != nil || len(applied) != 0 {
		t.Fatalf("second migrate applied %v, err %v; want nothing", applied, err)
	}
}

func testOrganizations(t *testing.T, st *store.Store) {
	mustOrg(t, st, "b")
	mustOrg(t, st, "a")
	got, err := st.Organization(ctx, "a")
	wantSame(t, "organization", &platform.Organization{ID: "a", Name: "Org a", CreatedAt: ts}, got, err)
	_, err = st.Organization(ctx, "missing")
	wantCode(t, err, platform.ENOTFOUND)
	wantCode(t, st.CreateOrganization(ctx, &platform.Organization{ID: "a", Name: "dup", CreatedAt: ts}), platform.ECONFLICT)
	all, err := st.Organizations(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "a" {
		t.Fatalf("organizations = %v, %v", all, err)
	}
}

func testUsers(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o1")
	mustOrg(t, st, "o2")
	want := mustUser(t, st, "u1", "o1", " Same@Example.COM ")
	mustUser(t, st, "u2", "o2", "same@example.com")
	got, err := st.User(ctx, "u1")
	wantSame(t, "user", want, got, err)
	if got.Email != "same@example.com" {
		t.Errorf("email stored as %q, want normalized", got.Email)
	}
	both, err := st.UsersByEmail(ctx, "SAME@example.com", "")
	if err != nil || len(both) != 2 {
		t.Fatalf("UsersByEmail all orgs = %d users, %v; want 2", len(both), err)
	}
	one, err := st.UsersByEmail(ctx, "same@example.com", "o2")
	if err != nil || len(one) != 1 || one[0].ID != "u2" {
		t.Fatalf("UsersByEmail in o2 = %v, %v", one, err)
	}
	wantCode(t, st.CreateUser(ctx, &platform.User{ID: "u3", OrgID: "o1", Email: "same@example.com", Name: "x",
		CreatedAt: ts, UpdatedAt: ts}), platform.ECONFLICT)
	_, err = st.User(ctx, "nope")
	wantCode(t, err, platform.ENOTFOUND)
}

func testLockout(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o")
	mustUser(t, st, "u", "o", "u@example.com")
	until := ts.Add(15 * time.Minute)
	for i := 1; i <= 3; i++ {
		n, err := st.RecordLoginFailure(ctx, "u", 3, until)
		if err != nil || n != i {
			t.Fatalf("failure %d: count %d, %v", i, n, err)
		}
	}
	u, _ := st.User(ctx, "u")
	if !u.LockedUntil.Equal(until) {
		t.Fatalf("locked until %v, want %v", u.LockedUntil, until)
	}
	if err := st.ResetLoginFailures(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	u, _ = st.User(ctx, "u")
	if u.FailedLogins != 0 || !u.LockedUntil.IsZero() {
		t.Fatalf("after reset: %d failures, locked until %v", u.FailedLogins, u.LockedUntil)
	}
}

// testReserveLoginAttempt (D-lockout): attempts are reserved before they
// are checked, atomically, so the failures and the checks in flight never
// exceed the limit; a right answer gives its attempt back and clears the
// failures, a wrong one counts and the last locks; a locked account
// reserves nothing; an expired lock starts the count again; checks a
// crashed process left in flight are forgotten once stale.
func testReserveLoginAttempt(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o")
	mustUser(t, st, "u", "o", "u@example.com")
	until := ts.Add(15 * time.Minute)
	stale := ts.Add(-time.Minute)
	reserve := func(now, stale time.Time) store.AttemptReservation {
		t.Helper()
		r, err := st.ReserveLoginAttempt(ctx, "u", 3, now, stale)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	reserved := race(t, 12, func() (bool, error) {
		r, err := st.ReserveLoginAttempt(ctx, "u", 3, ts, stale)
		return r == store.AttemptReserved, err
	})
	if reserved != 3 {
		t.Fatalf("%d of 12 concurrent attempts reserved, want 3", reserved)
	}
	if r := reserve(ts, stale); r != store.AttemptBusy {
		t.Fatalf("a fourth attempt while three are in flight: %v, want busy", r)
	}
	// a right answer gives its attempt back, counting nothing
	if n, err := st.FinishLoginAttempt(ctx, "u", true, 3, until); err != nil || n != 0 {
		t.Fatalf("a right answer: %d failures, %v", n, err)
	}
	if r := reserve(ts, stale); r != store.AttemptReserved {
		t.Fatalf("after a right answer: %v, want reserved", r)
	}
	// three wrong answers: the third locks
	for i := 1; i <= 3; i++ {
		n, err := st.FinishLoginAttempt(ctx, "u", false, 3, until)
		if err != nil || n != i {
			t.Fatalf("wrong answer %d: %d failures, %v", i, n, err)
		}
	}
	u, _ := st.User(ctx, "u")
	if u.FailedLogins != 3 || !u.LockedUntil.Equal(until) {
		t.Fatalf("after the limit: %d counted, locked until %v", u.FailedLogins, u.LockedUntil)
	}
	if r := reserve(until.Add(-time.Second), stale); r != store.AttemptLocked {
		t.Fatalf("a locked account: %v", r)
	}
	if r := reserve(until.Add(time.Second), stale); r != store.AttemptReserved {
		t.Fatalf("after the lock expired: %v", r)
	}
	u, _ = st.User(ctx, "u")
	if !u.LockedUntil.IsZero() || u.FailedLogins != 0 {
		t.Fatalf("a fresh count keeps the old lock until %v, %d failures", u.LockedUntil, u.FailedLogins)
	}
	// released uncounted; then two in flight forever, forgotten once stale
	if err := st.ReleaseLoginAttempt(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	later := until.Add(time.Hour)
	for range 3 {
		if r := reserve(later, stale); r != store.AttemptReserved {
			t.Fatalf("after the release: %v", r)
		}
	}
	if r := reserve(later, later.Add(-time.Minute)); r != store.AttemptBusy {
		t.Fatalf("three fresh ones in flight: %v", r)
	}
	if r := reserve(later.Add(2*time.Minute), later.Add(time.Minute)); r != store.AttemptReserved {
		t.Fatalf("checks in flight past stale: %v, want forgotten", r)
	}
	if _, err := st.ReserveLoginAttempt(ctx, "nobody", 3, ts, stale); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("unknown user: %v", err)
	}
}

func testCustomerDomains(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "c", "C", "o")
	mustOrg(t, st, "other")
	if err := st.AddCustomerDomain(ctx, "Example.COM", "c"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		org, domain string
		want        bool
	}{{"o", "example.com", true}, {"o", "EXAMPLE.com", true}, {"o", "other.example", false}, {"other", "example.com", false}} {
		if got, err := st.OrgDomainVerified(ctx, tc.org, tc.domain); err != nil || got != tc.want {
			t.Errorf("OrgDomainVerified(%s, %s) = %v, %v; want %v", tc.org, tc.domain, got, err, tc.want)
		}
	}
	testDomainClaims(t, st)
}

// Claims (D-verified-domains): two customers claim one domain, only one
// holds it verified (the database refuses the second), an unverified claim
// does not count, re-verification lists what is due and drops a proof once.
func testDomainClaims(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "c2", "C2", "o2")
	claim := func(id, customer, domain string) {
		t.Helper()
		if err := st.CreateDomainClaim(ctx, &store.DomainClaim{ID: id, CustomerID: customer, Domain: domain, Token: "tok-" + id,
			CreatedBy: "u", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
	claim("a", "c", "shared.example")
	claim("b", "c2", "shared.example")
	if err := st.CreateDomainClaim(ctx, &store.DomainClaim{ID: "a2", CustomerID: "c", Domain: "shared.example", CreatedAt: ts}); platform.ErrorCode(err) != platform.ECONFLICT {
		t.Fatalf("a second claim of one customer: %v", err)
	}
	if err := st.AddCustomerDomain(ctx, "example.com", "c2"); platform.ErrorCode(err) != platform.ECONFLICT {
		t.Fatalf("recording a domain another customer holds: %v", err)
	}
	if ok, _ := st.OrgDomainVerified(ctx, "o", "shared.example"); ok {
		t.Fatal("an unverified claim counts")
	}
	if ok, _ := st.OrgVouchesForDomain(ctx, "o", "shared.example"); ok {
		t.Fatal("a customer's organization vouches for an unverified domain")
	}
	if ok, _ := st.OrgVouchesForDomain(ctx, "other", "shared.example"); !ok {
		t.Fatal("an organization of no customer does not vouch")
	}
	if err := st.MarkDomainVerified(ctx, "a", store.DomainDNS, ts); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkDomainVerified(ctx, "b", store.DomainDNS, ts); platform.ErrorCode(err) != platform.ECONFLICT {
		t.Fatalf("a second verified owner: %v", err)
	}
	if err := st.MarkDomainVerified(ctx, "missing", store.DomainDNS, ts); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("verify a missing claim: %v", err)
	}
	if ok, _ := st.OrgVouchesForDomain(ctx, "o", "Shared.Example"); !ok {
		t.Fatal("the verified domain does not vouch")
	}
	if got, err := st.VerifiedDomains(ctx, "c"); err != nil || strings.Join(got, ",") != "example.com,shared.example" {
		t.Fatalf("VerifiedDomains = %v, %v", got, err)
	}
	due, err := st.DomainClaimsDue(ctx, ts.Add(time.Hour), 10)
	if err != nil || len(due) != 1 || due[0].ID != "a" {
		t.Fatalf("due = %+v, %v (recorded domains are never due)", due, err)
	}
	if due, _ := st.DomainClaimsDue(ctx, ts, 10); len(due) != 0 {
		t.Fatalf("due before its check: %+v", due)
	}
	if err := st.MarkDomainCheckFailed(ctx, "a", ts.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkDomainCheckFailed(ctx, "a", ts.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if c, _ := st.DomainClaim(ctx, "a"); !c.FailingSince.Equal(ts.Add(time.Hour)) || c.VerifiedAt.IsZero() {
		t.Fatalf("failing claim: %+v", c)
	}
	if err := st.DropDomainVerification(ctx, "a", ts.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.DropDomainVerification(ctx, "a", ts.Add(3*time.Hour)); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("dropping twice: %v", err)
	}
	if err := st.MarkDomainVerified(ctx, "b", store.DomainHTTPS, ts); err != nil {
		t.Fatalf("the other customer, once the domain is free: %v", err)
	}
	if list, err := st.DomainClaims(ctx, "c2"); err != nil || len(list) != 1 || list[0].Method != store.DomainHTTPS {
		t.Fatalf("DomainClaims = %+v, %v", list, err)
	}
	if err := st.DeleteDomainClaim(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.OrgDomainVerified(ctx, "o2", "shared.example"); ok {
		t.Fatal("a deleted claim counts")
	}
	for i := range store.MaxDomainClaims {
		claim("many-"+strconv.Itoa(i), "c2", strconv.Itoa(i)+".example")
	}
	wantCode(t, st.CreateDomainClaim(ctx, &store.DomainClaim{ID: "over", CustomerID: "c2", Domain: "over.example", CreatedAt: ts}),
		platform.ELIMIT)
}

func testApplications(t *testing.T, st *store.Store) {
	app := &platform.Application{AppID: "app1", ClientID: "client1", Name: "App", Kind: platform.AppPublic,
		RedirectURIs: []string{"https://a.example/cb", "https://a.example/3/cb"}, PostLogoutRedirectURIs: []string{},
		CreatedAt: ts}
	if err := st.CreateApplication(ctx, app); err != nil {
		t.Fatal(err)
	}
	got, err := st.ApplicationByClientID(ctx, "client1")
	wantSame(t, "application", app, got, err)
	dup := *app
	dup.AppID = "app2"
	wantCode(t, st.CreateApplication(ctx, &dup), platform.ECONFLICT)
	bad := &platform.Application{AppID: "app3", ClientID: "c3", Name: "Bad", Kind: platform.AppPublic,
		RedirectURIs: []string{"javascript:alert(1)"}, CreatedAt: ts}
	wantCode(t, st.CreateApplication(ctx, bad), platform.EINVALID)
	_, err = st.ApplicationByClientID(ctx, "c3")
	wantCode(t, err, platform.ENOTFOUND)
}

func newAuthRequest(id string) *store.AuthRequest {
	age := int64(300)
	return &store.AuthRequest{ID: id, ClientID: "c", RedirectURI: "https://a.example/cb",
		Scopes: []string{"openid", "email"}, State: "st", Nonce: "n", ResponseType: "code",
		CodeChallenge: "challenge", CodeChallengeMethod: "S256", Prompt: []string{"login"}, MaxAge: &age,
		LoginHint: "u@example.com", CreatedAt: ts, ExpiresAt: ts.Add(time.Hour), BindingHash: "binding-" + id,
		HintUserID: "hinted"}
}

func testAuthRequest(t *testing.T, st *store.Store) {
	a := newAuthRequest("ar1")
	a.DPoPJKT = "thumbprint-of-the-code-key" // dpop_jkt round-trips (wantSame below)
	if err := st.CreateAuthRequest(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := st.AuthRequest(ctx, "ar1", ts)
	wantSame(t, "auth request", a, got, err)
	_, err = st.AuthRequest(ctx, "ar1", ts.Add(2*time.Hour))
	wantCode(t, err, platform.ENOTFOUND)
	if err := st.SetPendingUser(ctx, "ar1", "u1", []string{"fed"}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetPendingLink(ctx, "ar1", "idp-1", "ext-sub", "u1"); err != nil {
		t.Fatal(err)
	}
	got, _ = st.AuthRequest(ctx, "ar1", ts)
	if got.PendingUserID != "u1" || !cmp.Equal(got.PendingAMR, []string{"fed"}) || got.LinkIDPID != "idp-1" ||
		got.LinkSubject != "ext-sub" || got.LinkUserID != "u1" {
		t.Fatalf("pending user and link = %+v", got)
	}
	wantCode(t, st.SaveAuthCode(ctx, "ar1", "h", ts.Add(time.Minute)), platform.ENOTFOUND) // not done yet
	if err := st.CompleteAuthRequest(ctx, "ar1", "u1", ts, []string{"pwd"}, "sid1"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.CompleteAuthRequest(ctx, "ar1", "u2", ts, nil, ""), platform.ENOTFOUND) // only once
	if err := st.SaveAuthCode(ctx, "ar1", "codehash", ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, err = st.AuthRequestByCodeHash(ctx, "codehash", ts)
	if err != nil || got.UserID != "u1" || !got.Done || got.AMR[0] != "pwd" || got.SessionSID != "sid1" {
		t.Fatalf("by code = %+v, %v", got, err)
	}
	_, err = st.AuthRequestByCodeHash(ctx, "codehash", ts.Add(2*time.Minute))
	wantCode(t, err, platform.ENOTFOUND)
	if err := st.DeleteExpired(ctx, ts.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = st.AuthRequest(ctx, "ar1", ts)
	wantCode(t, err, platform.ENOTFOUND)
}

func testCodeExchangedOnce(t *testing.T, st *store.Store) {
	if err := st.CreateAuthRequest(ctx, newAuthRequest("ar")); err != nil {
		t.Fatal(err)
	}
	if wins := race(t, 8, func() (bool, error) { return st.MarkAuthRequestExchanged(ctx, "ar") }); wins != 1 {
		t.Fatalf("%d concurrent exchanges won, want exactly 1", wins)
	}
}

func testRefreshFamily(t *testing.T, st *store.Store) {
	at := &store.AccessToken{ID: "at1", FamilyID: "fam", ClientID: "c", UserID: "u", Scopes: []string{"openid"},
		Audience: []string{"c"}, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := st.CreateAccessToken(ctx, at); err != nil {
		t.Fatal(err)
	}
	rt := &store.RefreshToken{TokenHash: "rh1", FamilyID: "fam", ClientID: "c", UserID: "u",
		Scopes: []string{"openid", "offline_access"}, Audience: []string{"c"}, AMR: []string{"pwd"}, AuthTime: ts,
		AccessTokenID: "at1", CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := st.CreateRefreshToken(ctx, rt); err != nil {
		t.Fatal(err)
	}
	got, err := st.RefreshToken(ctx, "rh1", ts)
	wantSame(t, "refresh token", rt, got, err)
	if ok, err := st.UseRefreshToken(ctx, "rh1"); !ok || err != nil {
		t.Fatalf("first use = %v, %v", ok, err)
	}
	if ok, _ := st.UseRefreshToken(ctx, "rh1"); ok {
		t.Fatal("a refresh token was used twice")
	}
	// the kept answer of the rotation (D-refresh-grace)
	if _, _, err := st.RefreshSuccessor(ctx, "rh1"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("successor before it was kept: %v", err)
	}
	if err := st.SetRefreshSuccessor(ctx, "rh1", ts, []byte("sealed answer")); err != nil {
		t.Fatal(err)
	}
	if sealed, usedAt, err := st.RefreshSuccessor(ctx, "rh1"); err != nil || string(sealed) != "sealed answer" || !usedAt.Equal(ts) {
		t.Fatalf("successor = %q at %v, %v", sealed, usedAt, err)
	}
	if err := st.ForgetRefreshSuccessors(ctx, ts.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.RefreshSuccessor(ctx, "rh1"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("successor after it was forgotten: %v", err)
	}
	if err := st.SetRefreshSuccessor(ctx, "rh1", ts, []byte("sealed answer")); err != nil {
		t.Fatal(err)
	}
	if err := st.RevokeFamily(ctx, "fam"); err != nil {
		t.Fatal(err)
	}
	_, err = st.ActiveAccessToken(ctx, "at1", ts)
	wantCode(t, err, platform.ENOTFOUND)
	got, _ = st.RefreshToken(ctx, "rh1", ts)
	if !got.Revoked {
		t.Fatal("refresh token not revoked with its family")
	}
	if _, _, err := st.RefreshSuccessor(ctx, "rh1"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("a revoked family's kept answer is still handed out: %v", err)
	}
}

func testSessions(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o")
	mustUser(t, st, "u", "o", "u@example.com")
	s := &store.Session{IDHash: "sh", SID: "sid-sh", UserID: "u", AuthTime: ts, AMR: []string{"pwd", "otp"}, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour),
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64)", Address: "192.0.2.7", LastSeenAt: ts}
	if err := st.CreateSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := st.Session(ctx, "sh", ts)
	wantSame(t, "session", s, got, err)
	if err := st.ProveSession(ctx, "sh", ts.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, err = st.Session(ctx, "sh", ts); err != nil || !got.ProvedAt.Equal(ts.Add(time.Minute)) {
		t.Fatalf("proved at %v (%v), want %v", got, err, ts.Add(time.Minute))
	}
	wantCode(t, st.ProveSession(ctx, "gone", ts), platform.ENOTFOUND)
	_, err = st.Session(ctx, "sh", ts.Add(time.Hour))
	wantCode(t, err, platform.ENOTFOUND)
	if err := st.DeleteUserSessions(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	_, err = st.Session(ctx, "sh", ts)
	wantCode(t, err, platform.ENOTFOUND)
}

func testSigningKeys(t *testing.T, st *store.Store) {
	for i, nb := range []time.Time{ts, ts.Add(time.Hour)} {
		k := &store.SigningKey{ID: string(rune('a' + i)), Algorithm: "RS256", PrivateKey: []byte{1, 2, byte(i)},
			CreatedAt: ts, NotBefore: nb, ExpiresAt: nb.Add(2 * time.Hour)}
		if err := st.CreateSigningKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := st.SigningKeys(ctx, ts)
	if err != nil || len(keys) != 2 || keys[0].ID != "b" || keys[1].PrivateKey[2] != 0 {
		t.Fatalf("keys = %v, %v; want b then a", keys, err)
	}
	keys, _ = st.SigningKeys(ctx, ts.Add(150*time.Minute))
	if len(keys) != 1 || keys[0].ID != "b" {
		t.Fatalf("after a expired: %v", keys)
	}
}

func testTxRollback(t *testing.T, st *store.Store) {
	boom := errors.New("boom")
	err := st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateOrganization(ctx, &platform.Organization{ID: "tx", Name: "tx", CreatedAt: ts}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx error = %v", err)
	}
	_, err = st.Organization(ctx, "tx")
	wantCode(t, err, platform.ENOTFOUND)
}

// testTxAreas: the areas a transaction hands out are bound to it. A write
// through one area is seen by another within the transaction (and by an
// area's own InTx, which joins it), not outside it until the commit, and a
// rollback undoes the writes of every area.
func testTxAreas(t *testing.T, st *store.Store) {
	boom := errors.New("boom")
	write := func(fail bool) error {
		return st.InTx(ctx, func(tx *store.Store) error {
			var identity *store.Identity = &tx.Identity
			if err := identity.CreateOrganization(ctx, &platform.Organization{ID: "org-tx", Name: "tx", CreatedAt: ts}); err != nil {
				return err
			}
			tenancy := &tx.Tenancy
			if err := tenancy.CreateCustomer(ctx, &platform.Customer{ID: "cust-tx", Name: "tx", OrgID: "org-tx", CreatedAt: ts}); err != nil {
				return err
			}
			if _, err := st.Customer(ctx, "cust-tx"); platform.ErrorCode(err) != platform.ENOTFOUND {
				t.Errorf("outside the transaction before its commit: %v, want ENOTFOUND", err)
			}
			err := identity.InTx(ctx, func(inner *store.Store) error {
				_, err := inner.Customer(ctx, "cust-tx")
				return err
			})
			if err != nil {
				return err
			}
			if fail {
				return boom
			}
			return nil
		})
	}
	if err := write(true); !errors.Is(err, boom) {
		t.Fatalf("InTx error = %v", err)
	}
	_, err := st.Organization(ctx, "org-tx")
	wantCode(t, err, platform.ENOTFOUND)
	if err := write(false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Tenancy.Customer(ctx, "cust-tx"); err != nil {
		t.Fatalf("after the commit: %v", err)
	}
}

func testIssueTokens(t *testing.T, st *store.Store) {
	mk := func(n string) (*store.AccessToken, *store.RefreshToken) {
		return &store.AccessToken{ID: "at" + n, FamilyID: "fam", ClientID: "c", UserID: "u", Scopes: []string{"openid"},
				Audience: []string{"c"}, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)},
			&store.RefreshToken{TokenHash: "rt" + n, FamilyID: "fam", ClientID: "c", UserID: "u",
				Scopes: []string{"openid", "offline_access"}, Audience: []string{"c"}, AMR: []string{"pwd"}, AuthTime: ts,
				AccessTokenID: "at" + n, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	}
	at, rt := mk("1")
	if ok, err := st.IssueTokens(ctx, "", at, rt); !ok || err != nil {
		t.Fatalf("first issue = %v, %v", ok, err)
	}
	at2, rt2 := mk("2")
	rt2.DPoPJKT = "thumbprint-of-the-key" // a bound refresh token keeps its key through the one-statement rotation
	at2.DPoPJKT = "thumbprint-of-the-key" // and so does its access token (introspection answers it)
	if ok, err := st.IssueTokens(ctx, "rt1", at2, rt2); !ok || err != nil {
		t.Fatalf("rotation = %v, %v", ok, err)
	}
	got, err := st.RefreshToken(ctx, "rt2", ts)
	wantSame(t, "rotated refresh token", rt2, got, err)
	if gotAT, err := st.ActiveAccessToken(ctx, "at2", ts); err != nil || gotAT.DPoPJKT != "thumbprint-of-the-key" ||
		gotAT.UserID != "u" || !gotAT.ExpiresAt.Equal(at2.ExpiresAt) {
		t.Fatalf("rotated access token: %+v, %v", gotAT, err)
	}
	if gotAT, err := st.ActiveAccessToken(ctx, "at1", ts); err != nil || gotAT.DPoPJKT != "" {
		t.Fatalf("unbound access token: %+v, %v", gotAT, err)
	}
	// presenting rt1 again: nothing is stored
	at3, rt3 := mk("3")
	if ok, err := st.IssueTokens(ctx, "rt1", at3, rt3); ok || err != nil {
		t.Fatalf("reuse = %v, %v; want false, nil", ok, err)
	}
	_, err = st.RefreshToken(ctx, "rt3", ts)
	wantCode(t, err, platform.ENOTFOUND)
	_, err = st.ActiveAccessToken(ctx, "at3", ts)
	wantCode(t, err, platform.ENOTFOUND)
	// an unknown token: nothing stored either
	at4, rt4 := mk("4")
	if ok, _ := st.IssueTokens(ctx, "nope", at4, rt4); ok {
		t.Fatal("rotation of an unknown refresh token succeeded")
	}
}

// testDPoP: a DPoP proof is accepted once until it expires, at any replica
// (the database decides); an application's require_dpop round-trips.
func testDPoP(t *testing.T, st *store.Store) {
	if ok, err := st.UseDPoPProof(ctx, "proof-1", ts.Add(time.Minute)); !ok || err != nil {
		t.Fatalf("first use = %v, %v", ok, err)
	}
	if ok, err := st.UseDPoPProof(ctx, "proof-1", ts.Add(time.Minute)); ok || err != nil {
		t.Fatalf("replay = %v, %v; want false, nil", ok, err)
	}
	if err := st.DeleteExpired(ctx, ts.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.UseDPoPProof(ctx, "proof-1", ts.Add(3*time.Minute)); !ok || err != nil {
		t.Fatalf("after expiry = %v, %v", ok, err)
	}
	app := &platform.Application{AppID: "app-dpop", ClientID: "client-dpop", Name: "Bound", Kind: platform.AppPublic,
		RedirectURIs: []string{"https://bound.example/cb"}, RequireDPoP: true, CreatedAt: ts}
	if err := st.CreateApplication(ctx, app); err != nil {
		t.Fatal(err)
	}
	got, err := st.ApplicationByClientID(ctx, "client-dpop")
	if err != nil || !got.RequireDPoP {
		t.Fatalf("require_dpop = %+v, %v", got, err)
	}
	got.RequireDPoP = false
	if err := st.UpdateApplication(ctx, got); err != nil {
		t.Fatal(err)
	}
	if got, err = st.ApplicationByClientID(ctx, "client-dpop"); err != nil || got.RequireDPoP {
		t.Fatalf("require_dpop after update = %+v, %v", got, err)
	}
}

// testRegistrationTokens: an initial access token registers at most its
// uses, never once revoked or expired; its clients belong to its customer.
func testRegistrationTokens(t *testing.T, st *store.Store) {
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: "cust-reg", Name: "Reg", CreatedAt: ts, UpdatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	tok := &store.RegistrationToken{ID: "iat-1", CustomerID: "cust-reg", Name: "CLI", TokenHash: "h1", AllowPublic: true,
		RedirectHosts: []string{"app.example", "*.example.org"}, MaxUses: 2, CreatedBy: "u", CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := st.CreateRegistrationToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		got, err := st.UseRegistrationToken(ctx, "h1", ts)
		if err != nil || got.Uses != i || got.CustomerID != "cust-reg" || len(got.RedirectHosts) != 2 {
			t.Fatalf("use %d = %+v, %v", i, got, err)
		}
	}
	_, err := st.UseRegistrationToken(ctx, "h1", ts)
	wantCode(t, err, platform.ENOTFOUND)
	tok2 := *tok
	tok2.ID, tok2.TokenHash = "iat-2", "h2"
	if err := st.CreateRegistrationToken(ctx, &tok2); err != nil {
		t.Fatal(err)
	}
	_, err = st.UseRegistrationToken(ctx, "h2", ts.Add(time.Hour))
	wantCode(t, err, platform.ENOTFOUND) // expired
	if err := st.RevokeRegistrationToken(ctx, "iat-2", ts); err != nil {
		t.Fatal(err)
	}
	_, err = st.UseRegistrationToken(ctx, "h2", ts)
	wantCode(t, err, platform.ENOTFOUND) // revoked
	list, err := st.RegistrationTokens(ctx, "cust-reg")
	if err != nil || len(list) != 2 || list[0].RevokedAt.IsZero() == list[1].RevokedAt.IsZero() {
		t.Fatalf("list = %+v, %v", list, err)
	}
	app := &platform.Application{AppID: "app-reg", ClientID: "client-reg", Name: "CLI", Kind: platform.AppPublic,
		RedirectURIs: []string{"https://app.example/cb"}, RegisteredCustomerID: "cust-reg", RegistrationTokenID: "iat-1",
		RegistrationHash: "rat", CreatedAt: ts}
	if err := st.CreateApplication(ctx, app); err != nil {
		t.Fatal(err)
	}
	apps, err := st.RegisteredApplications(ctx, "cust-reg")
	if err != nil || len(apps) != 1 || apps[0].RegistrationHash != "rat" || apps[0].RegistrationTokenID != "iat-1" {
		t.Fatalf("registered applications = %+v, %v", apps, err)
	}
	if err := st.RevokeClientGrants(ctx, "client-reg", ts); err != nil {
		t.Fatal(err)
	}
	for i := len(list); i < store.MaxRegistrationTokens; i++ {
		more := *tok
		more.ID, more.TokenHash = "iat-more-"+strconv.Itoa(i), "hm"+strconv.Itoa(i)
		if err := st.CreateRegistrationToken(ctx, &more); err != nil {
			t.Fatal(err)
		}
	}
	tok.ID, tok.TokenHash = "iat-over", "h-over"
	wantCode(t, st.CreateRegistrationToken(ctx, tok), platform.ELIMIT)
}

// testCustomerNames (D-customer-names): a customer's name is unique,
// case-insensitively, at creation and rename; renaming a customer to its
// own name in another case is its own.
func testCustomerNames(t *testing.T, st *store.Store) {
	for _, o := range []string{"o1", "o2", "o3"} {
		mustOrg(t, st, o)
	}
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: "c1", Name: "Acme", OrgID: "o1", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	err := st.CreateCustomer(ctx, &platform.Customer{ID: "c2", Name: "ACME", OrgID: "o2", CreatedAt: ts})
	if platform.ErrorCode(err) != platform.ECONFLICT || !strings.HasPrefix(platform.ErrorMessage(err), "name ") {
		t.Fatalf("a second Acme: %v", err)
	}
	if err := st.CreateCustomer(ctx, &platform.Customer{ID: "c2", Name: "Globex", OrgID: "o2", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.UpdateCustomer(ctx, "c2", "acme", nil, ts), platform.ECONFLICT)
	if err := st.UpdateCustomer(ctx, "c1", "ACME", nil, ts); err != nil {
		t.Fatalf("renaming to its own name in capitals: %v", err)
	}
	if err := st.UpdateCustomer(ctx, "c2", "", nil, ts); err != nil {
		t.Fatalf("settings alone: %v", err)
	}
}
