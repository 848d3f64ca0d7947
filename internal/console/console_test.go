package console

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}

const (
	adminOrg, acmeOrg, globexOrg, ssoOrg, dirOrg = "org-admin", "org-acme", "org-globex", "org-sso", "org-dir"
	instanceClient                               = "instance-client"
	instanceRedirect                             = "https://tenant.example/auth/callback"
	legacyClient                                 = "legacy-client"
	testIssuer                                   = "https://id.example"
)

type testConsole struct {
	t   *testing.T
	c   *Console
	st  *store.Store
	srv *httptest.Server
}

func mustConsole(t *testing.T, limit int) *testConsole {
	t.Helper()
	tc := newTestConsole(t, limit)
	tc.t = t
	return tc
}

func mustConsoleTB(b testing.TB) *testConsole { return newTestConsole(b, 0) }

func newTestConsole(t testing.TB, limit int) *testConsole {
	t.Helper()
	st := storetest.New(t)
	seed(t, st)
	c, err := New(Config{Issuer: testIssuer, ConsoleURL: "https://console.example", ClientID: "console-portal",
		AdminOrgID: adminOrg, ResolveLimit: limit}, st)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.Handler())
	t.Cleanup(srv.Close)
	return &testConsole{c: c, st: st, srv: srv}
}

func seed(t testing.TB, st *store.Store) {
	ctx, now := context.Background(), time.Now().UTC()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []string{adminOrg, acmeOrg, globexOrg, ssoOrg, dirOrg} {
		must(st.CreateOrganization(ctx, &platform.Organization{ID: o, Name: "Name of " + o, CreatedAt: now}))
	}
	for i, u := range []struct{ org, email string }{
		{adminOrg, "admin@platform.example"}, {acmeOrg, "alice@acme.example"}, {acmeOrg, "dana@partner.example"},
		{globexOrg, "dana@partner.example"}, {dirOrg, "peter@initech.example"}, {adminOrg, "both@acme.example"},
		{acmeOrg, "both@acme.example"},
	} {
		must(st.CreateUser(ctx, &platform.User{ID: "u" + string(rune('0'+i)), OrgID: u.org, Email: u.email, Name: u.email,
			PasswordHash: "x", CreatedAt: now, UpdatedAt: now}))
	}
	for _, c := range []platform.Customer{{ID: "cust-acme", Name: "Acme", OrgID: acmeOrg},
		{ID: "cust-globex", Name: "Globex", OrgID: globexOrg}, {ID: "cust-sso", Name: "Initech", OrgID: ssoOrg}} {
		c.CreatedAt = now
		must(st.CreateCustomer(ctx, &c))
	}
	must(st.AddCustomerDomain(ctx, "initech.example", "cust-sso"))
	must(st.CreateExternalIDP(ctx, &platform.ExternalIDP{ID: "idp-1", OrgID: ssoOrg, Name: "Initech Directory",
		Issuer: "https://dir.example", ClientID: "x", SecretSealed: []byte{1}, CreatedAt: now}))
	must(st.PutLoginPolicy(ctx, &platform.LoginPolicy{OrgID: ssoOrg, SSOAllowed: true, PasswordMinLength: 12,
		LockoutMaxAttempts: 5, LockoutSeconds: 900, UpdatedAt: now}))
	globex := platform.DefaultLoginPolicy(globexOrg)
	globex.SSOAllowed, globex.UpdatedAt = true, now
	must(st.PutLoginPolicy(ctx, globex))
	must(st.CreateExternalIDP(ctx, &platform.ExternalIDP{ID: "idp-2", OrgID: globexOrg, Name: "Globex AD",
		Issuer: "https://ad.example", ClientID: "x", SecretSealed: []byte{1}, CreatedAt: now}))
	must(st.CreateInstance(ctx, &platform.Instance{ID: "inst-1", CustomerID: "cust-acme", Name: "A", URL: "https://tenant.example", CreatedAt: now},
		&platform.InstanceConnection{InstanceID: "inst-1", OIDCClientID: instanceClient, OIDCRedirectURI: instanceRedirect, IDPAppID: "app-1", UpdatedAt: now}))
	must(st.CreateInstance(ctx, &platform.Instance{ID: "inst-2", CustomerID: "cust-acme", Name: "Legacy", URL: "https://old.example", CreatedAt: now},
		&platform.InstanceConnection{InstanceID: "inst-2", OIDCClientID: legacyClient, OIDCRedirectURI: "", UpdatedAt: now}))
}

func (tc *testConsole) post(path string, body any) (*http.Response, map[string]any) {
	tc.t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	resp, err := http.Post(tc.srv.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		tc.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

func (tc *testConsole) resolveOrg(email string) ResolveOrgResponse {
	tc.t.Helper()
	r, err := http.Post(tc.srv.URL+"/api/v1/login/resolve-org", "application/json", strings.NewReader(`{"email":"`+email+`"}`))
	if err != nil {
		tc.t.Fatal(err)
	}
	defer r.Body.Close()
	var out ResolveOrgResponse
	if r.StatusCode != http.StatusOK {
		tc.t.Fatalf("resolve-org %s = %d", email, r.StatusCode)
	}
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
		tc.t.Fatal(err)
	}
	return out
}

// spec: R4.1-ro-types, R5.5-enum
func TestResolveOrg(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	pw := Method{Type: "password"}
	tests := []struct {
		email string
		want  ResolveOrgResponse
	}{
		{"admin@platform.example", ResolveOrgResponse{Type: TypeInternal, Orgs: []OrgRef{}, AuthMethods: []OrgMethods{}}},
		{"Both@Acme.example", ResolveOrgResponse{Type: TypeInternal, Orgs: []OrgRef{}, AuthMethods: []OrgMethods{}}},
		{"nobody@acme.example", ResolveOrgResponse{Type: TypeNotFound, Orgs: []OrgRef{}, AuthMethods: []OrgMethods{}}},
		{"alice@acme.example", ResolveOrgResponse{Type: TypeCustomer, Orgs: []OrgRef{{ID: acmeOrg, Name: "Name of " + acmeOrg}},
			AuthMethods: []OrgMethods{{OrgID: acmeOrg, Methods: []Method{pw}}}}},
		{"dana@partner.example", ResolveOrgResponse{Type: TypeCustomer,
			Orgs: []OrgRef{{ID: acmeOrg, Name: "Name of " + acmeOrg}, {ID: globexOrg, Name: "Name of " + globexOrg}},
			AuthMethods: []OrgMethods{{OrgID: acmeOrg, Methods: []Method{pw}},
				{OrgID: globexOrg, Methods: []Method{pw, {Type: "sso", IDPID: "idp-2", Name: "Globex AD"}}}}}},
		// an SSO-only customer found by domain; the directory organization is not a customer
		{"peter@initech.example", ResolveOrgResponse{Type: TypeCustomer, Orgs: []OrgRef{{ID: ssoOrg, Name: "Name of " + ssoOrg}},
			AuthMethods: []OrgMethods{{OrgID: ssoOrg, Methods: []Method{{Type: "sso", IDPID: "idp-1", Name: "Initech Directory"}}}}}},
		{"new.hire@initech.example", ResolveOrgResponse{Type: TypeCustomer, Orgs: []OrgRef{{ID: ssoOrg, Name: "Name of " + ssoOrg}},
			AuthMethods: []OrgMethods{{OrgID: ssoOrg, Methods: []Method{{Type: "sso", IDPID: "idp-1", Name: "Initech Directory"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.email, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tc.resolveOrg(tt.email)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// spec: R7.1-shape
func TestResolveOrgBadInput(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	for name, body := range map[string]string{
		"ErrMalformedEmail": `{"email":"not an address"}`,
		"ErrDisplayName":    `{"email":"Eve <eve@x.example>"}`,
		"ErrEmpty":          `{"email":""}`,
		"ErrNotJSON":        `email=a@b.example`,
		"ErrTrailing":       `{"email":"a@b.example"} {}`,
		"ErrUnknownField":   `{"email":"a@b.example","orgId":"org-a"}`,
		"ErrNoBody":         ``,
	} {
		t.Run(name, func(t *testing.T) {
			resp, out := tc.post("/api/v1/login/resolve-org", body)
			errObj, _ := out["error"].(map[string]any)
			if resp.StatusCode != 400 || out["code"] != float64(400) || out["path"] != "/api/v1/login/resolve-org" ||
				errObj["summary"] == "" || len(errObj["detail"].([]any)) == 0 || out["timestamp"] == "" {
				t.Fatalf("got %d %v, want 400 with the 7.1 error object", resp.StatusCode, out)
			}
		})
	}
	t.Run("ErrTooLarge", func(t *testing.T) {
		resp, _ := tc.post("/api/v1/login/resolve-org", `{"email":"`+strings.Repeat("a", 2<<20)+`@x.example"}`)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("2 MiB body answered %d", resp.StatusCode)
		}
	})
}

// The rate limit per client address answers 429 with Retry-After.
// attack: resolve-org-flood
func TestResolveOrgRateLimit(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 3)
	for i := 1; i <= 4; i++ {
		resp, out := tc.post("/api/v1/login/resolve-org", map[string]string{"email": "alice@acme.example"})
		if i <= 3 && resp.StatusCode != 200 {
			t.Fatalf("request %d answered %d", i, resp.StatusCode)
		}
		if i == 4 && (resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || out["code"] != float64(429)) {
			t.Fatalf("request over the limit answered %d Retry-After=%q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
}

func (tc *testConsole) resolveClient(clientID, redirect string) bool {
	tc.t.Helper()
	resp, err := http.Get(tc.srv.URL + "/api/v1/login/resolve-client?" + url.Values{"client_id": {clientID}, "redirect_uri": {redirect}}.Encode())
	if err != nil {
		tc.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Valid *bool }
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 200 || out.Valid == nil {
		tc.t.Fatalf("resolve-client answered %d", resp.StatusCode)
	}
	return *out.Valid
}

func TestResolveClient(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	tests := []struct {
		name, client, redirect string
		want                   bool
	}{
		// spec: R4.1-rc1
		{"ErrUnknownClient", "nope", instanceRedirect, false},
		{"ErrMissingClient", "", instanceRedirect, false},
		// spec: R4.1-rc2, R9-legacy
		{"ErrLegacyEmptyRedirect", legacyClient, "https://old.example/auth/callback", false},
		// spec: R4.1-rc3
		{"ErrOtherRedirect", instanceClient, "https://evil.example/auth/callback", false},
		{"ErrRedirectWithQuery", instanceClient, instanceRedirect + "?x=1", false},
		{"ErrRedirectTrailingSlash", instanceClient, instanceRedirect + "/", false},
		{"ErrMissingRedirect", instanceClient, "", false},
		// spec: R4.1-rc3, R4.1-rc4
		{"OK", instanceClient, instanceRedirect, true},
		{"OKV3Path", instanceClient, "https://tenant.example/3/auth/callback", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tc.resolveClient(tt.client, tt.redirect); got != tt.want {
				t.Fatalf("valid = %v, want %v", got, tt.want)
			}
		})
	}
}

// The tenant flow's authorize step answers differently for internal and
// customer addresses, so it is rate limited per client address like
// resolve-org: beyond the limit 429 with Retry-After, whatever the address.
// attack: authorize-enumeration-oracle
func TestAttackAuthorizeRateLimit(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 3)
	for i := 1; i <= 4; i++ {
		email := "admin@platform.example"
		if i%2 == 0 {
			email = "nobody@acme.example"
		}
		code, out, _ := tc.authorize(tenantAuthorize(email, acmeOrg, "password", ""))
		if i <= 3 && code == http.StatusTooManyRequests {
			t.Fatalf("request %d already limited", i)
		}
		if i == 4 && (code != http.StatusTooManyRequests || out["code"] != float64(429)) {
			t.Fatalf("request over the limit answered %d %v", code, out)
		}
	}
	// resolve-org counts apart: its limit is untouched
	if resp, _ := tc.post("/api/v1/login/resolve-org", map[string]string{"email": "alice@acme.example"}); resp.StatusCode != http.StatusOK {
		t.Fatalf("resolve-org after the authorize limit answered %d", resp.StatusCode)
	}
}

// A page on another site can make a visitor's browser post to the login
// routes only as an HTML form would (urlencoded, multipart or text/plain,
// no preflight). Such a body is refused with 415 before it counts, so it
// cannot spend the visitor's address's rate-limit quota and lock the
// visitor out of signing in.
//
// attack: login-quota-cross-site-form
func TestAttackLoginQuotaCrossSiteForm(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 2)
	for _, path := range []string{"/api/v1/login/resolve-org", "/api/v1/login/authorize"} {
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
			for range 3 {
				req, _ := http.NewRequest(http.MethodPost, tc.srv.URL+path, strings.NewReader(`{"email":"alice@acme.example"}`))
				if ct != "" {
					req.Header.Set("Content-Type", ct)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnsupportedMediaType {
					t.Fatalf("%s as %q = %d, want 415", path, ct, resp.StatusCode)
				}
			}
		}
	}
	// the quota is whole: the visitor's own requests go through
	if resp, _ := tc.post("/api/v1/login/resolve-org", map[string]string{"email": "alice@acme.example"}); resp.StatusCode != http.StatusOK {
		t.Fatalf("resolve-org after the forms answered %d", resp.StatusCode)
	}
	if code, out, _ := tc.authorize(tenantAuthorize("admin@platform.example", acmeOrg, "password", "")); code == http.StatusTooManyRequests ||
		code == http.StatusUnsupportedMediaType {
		t.Fatalf("authorize after the forms answered %d %v", code, out)
	}
}
