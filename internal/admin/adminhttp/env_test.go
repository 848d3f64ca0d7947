package adminhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/domains"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

// testUserHeader names the caller in tests: the real access.Require loads
// the principal from the store, only the token check is replaced (the user
// signs in with a grant of its own, storetest.Logins).
const testUserHeader = "X-Test-User"

// auth is the test's authenticator: the user the header names, with its grant.
func (e *env) auth(r *http.Request) (access.Identity, error) {
	id := r.Header.Get(testUserHeader)
	if id == "" {
		return access.Identity{}, nil
	}
	out := access.Identity{UserID: id, GrantID: e.logins.Grant(id)}
	// what a token's act, grant_id, auth_time and acr would say (testSignIn)
	if g := r.Header.Get(testGrantHeader); g != "" {
		out.GrantID = g
	}
	out.Actor, out.ACR = r.Header.Get(testActorHeader), r.Header.Get(testACRHeader)
	if age, err := time.ParseDuration(r.Header.Get(testAuthAgeHeader)); err == nil {
		out.AuthTime = time.Now().Add(-age)
	}
	return out, nil
}

// The test's stand-ins for the claims of an access token beyond its
// subject: the grant (grant_id), who acts (act), how long ago and how the
// user signed in (auth_time, acr).
const (
	testGrantHeader   = "X-Test-Grant"
	testActorHeader   = "X-Test-Actor"
	testAuthAgeHeader = "X-Test-Auth-Age"
	testACRHeader     = "X-Test-ACR"
)

// env is the admin API over a real store (SQLite, or PostgreSQL with
// TEST_DATABASE_URL), served by httptest through the real route table.
type env struct {
	t        testing.TB
	st       *store.Store
	acc      *access.Service
	svc      *admin.Service
	adm      *API
	srv      *httptest.Server
	apps     *fakeApps
	adminOrg string
	seq      atomic.Int64
	logins   *storetest.Logins
	orgs     sync.Map // customer id → organization id, of the customers mustCustomer made
}

func newEnv(t testing.TB, opts ...admin.Option) *env {
	t.Helper()
	st := storetest.New(t)
	ctx := context.Background()
	acc, err := access.New(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, acc: acc, apps: newFakeApps(), adminOrg: "admin-org", logins: storetest.NewLogins(t, st)}
	if err := st.CreateOrganization(ctx, &platform.Organization{ID: e.adminOrg, Name: "Platform", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	opts = append([]admin.Option{admin.WithApps(e.apps), admin.WithAdminOrg(e.adminOrg), admin.WithEgress(egress.Policy{Resolver: noDNS}),
		admin.WithDomainProver(domains.Prover{Resolver: noDNS, Egress: egress.Policy{Resolver: noDNS}})}, opts...)
	e.svc = admin.NewService(st, acc, opts...)
	e.adm = New(e.svc, acc)
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID)
	r.Route("/api/v1", func(r chi.Router) { e.adm.Mount(r, acc.Require(e.auth)) })
	e.srv = httptest.NewServer(r)
	t.Cleanup(e.srv.Close)
	return e
}

// noDNS resolves from /etc/hosts only (localhost), so the webhook URL
// check never asks a DNS server in tests: other names do not resolve,
// which the check accepts.
var noDNS = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("no DNS in tests")
}}

func (e *env) id(prefix string) string { return fmt.Sprintf("%s-%d", prefix, e.seq.Add(1)) }

// mustCustomer creates a customer with its organization.
func (e *env) mustCustomer() string {
	e.t.Helper()
	ctx := context.Background()
	id, org := e.id("cust"), e.id("org")
	now := time.Now()
	if err := e.st.CreateOrganization(ctx, &platform.Organization{ID: org, Name: "Org " + id, CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.CreateCustomer(ctx, &platform.Customer{ID: id, Name: "Customer " + id, OrgID: org, CreatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	e.orgs.Store(id, org)
	return id
}

// mustInstance creates an instance of a customer with a connection.
func (e *env) mustInstance(customerID string) string {
	e.t.Helper()
	id := e.id("inst")
	now := time.Now()
	url := "https://" + id + ".example"
	if err := e.st.CreateInstance(context.Background(),
		&platform.Instance{ID: id, CustomerID: customerID, Name: "Instance " + id, URL: url, CreatedAt: now},
		&platform.InstanceConnection{InstanceID: id, OIDCClientID: "client-" + id, OIDCRedirectURI: url + admin.CallbackPath,
			IDPAppID: "app-" + id, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.SetInstanceDatabaseURI(context.Background(), id, "postgres://db.internal/"+id); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// mustUser creates a user; role "" gives none (a customer's member by
// default), customerID "" makes an internal user.
func (e *env) mustUser(role authz.Role, customerID string) string {
	e.t.Helper()
	ctx := context.Background()
	org := e.adminOrg
	if o, ok := e.orgs.Load(customerID); ok {
		org = o.(string) // a customer's organization never changes
	} else if customerID != "" {
		c, err := e.st.Customer(ctx, customerID)
		if err != nil {
			e.t.Fatal(err)
		}
		org = c.OrgID
	}
	id := e.id("user")
	now := time.Now()
	if err := e.st.CreateUser(ctx, &platform.User{ID: id, OrgID: org, Email: id + "@example.com", Name: "User " + id,
		PasswordHash: "$argon2id$x", CreatedAt: now, UpdatedAt: now}); err != nil {
		e.t.Fatal(err)
	}
	if role != 0 {
		if err := e.st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: role.String(), CustomerID: customerID,
			CreatedAt: now}); err != nil {
			e.t.Fatal(err)
		}
	}
	return id
}

func (e *env) mustGrant(userID string, instance bool, target string) {
	e.t.Helper()
	if err := e.st.PutGrant(context.Background(), instance, &store.Grant{GranteeID: userID, TargetID: target,
		GrantedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) mustFocus(userID, customerID string) {
	e.t.Helper()
	now := time.Now()
	if err := e.st.SetFocus(context.Background(), userID, customerID, now.Add(-time.Minute), now.Add(time.Hour)); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) mustTenant(customerID, instanceID string) string {
	e.t.Helper()
	id := e.id("tenant")
	if err := e.st.CreateTenant(context.Background(), &store.Tenant{ID: id, CustomerID: customerID,
		InstanceID: instanceID, Name: "Tenant " + id, CreatedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// response is an answer of the API.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// typedBody is a request body sent with its own Content-Type ("": none).
type typedBody struct{ contentType, body string }

// do sends one request as userID. body: nil, a string or []byte sent as
// is, a typedBody, or a value encoded as JSON.
func (e *env) do(userID, method, path string, body any) response {
	e.t.Helper()
	return e.doWithID("", userID, method, path, body)
}

// doWithID is do with the request id the request comes with ("": none).
func (e *env) doWithID(requestID, userID, method, path string, body any) response {
	e.t.Helper()
	return e.doWithHeaders(nil, requestID, userID, method, path, body)
}

// doWithHeaders is doWithID with more request headers.
func (e *env) doWithHeaders(headers map[string]string, requestID, userID, method, path string, body any) response {
	e.t.Helper()
	var rd io.Reader
	contentType := "application/json"
	switch b := body.(type) {
	case nil:
	case typedBody:
		rd, contentType = strings.NewReader(b.body), b.contentType
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+"/api/v1"+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil && contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if requestID != "" {
		req.Header.Set("X-Request-ID", requestID)
	}
	if userID != "" {
		req.Header.Set(testUserHeader, userID)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// fakeApps is an identity provider's application registry in memory.
type fakeApps struct {
	mu     sync.Mutex
	apps   map[string]*admin.App
	public map[string]bool
	n      int
}

func newFakeApps() *fakeApps {
	return &fakeApps{apps: map[string]*admin.App{}, public: map[string]bool{}}
}

func (f *fakeApps) Create(_ context.Context, in admin.AppInput) (*admin.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	a := &admin.App{AppID: fmt.Sprintf("app-%d", f.n), ClientID: fmt.Sprintf("client-%d", f.n), RedirectURIs: in.RedirectURIs}
	f.apps[a.AppID] = a
	cp := *a
	if in.AuthMethod == "" || in.AuthMethod == platform.AuthNone {
		f.public[a.AppID] = true
	} else {
		cp.ClientSecret = fmt.Sprintf("secret-%d", f.n)
	}
	return &cp, nil
}

func (f *fakeApps) Update(_ context.Context, appID string, in admin.AppInput) (*admin.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.apps[appID]
	if !ok {
		a = &admin.App{AppID: appID, ClientID: "client-" + appID}
		f.apps[appID] = a
	}
	a.RedirectURIs = in.RedirectURIs
	cp := *a
	return &cp, nil
}

func (f *fakeApps) Delete(_ context.Context, appID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.apps, appID)
	return nil
}

func (f *fakeApps) Rotate(_ context.Context, appID string) (*admin.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	a, ok := f.apps[appID]
	if !ok {
		a = &admin.App{AppID: appID}
		f.apps[appID] = a
	}
	a.ClientID = fmt.Sprintf("client-%d", f.n)
	cp := *a
	return &cp, nil
}

// RotateSecret answers a new secret; an application made public by Create
// (no auth method) has none: ECONFLICT, as the provider answers. Seeded
// applications the fake never made count as confidential.
func (f *fakeApps) RotateSecret(_ context.Context, appID string) (*admin.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.public[appID] {
		return nil, platform.Errorf(platform.ECONFLICT, "the identity provider refused the application: this application authenticates without a secret (none)")
	}
	f.n++
	a, ok := f.apps[appID]
	if !ok {
		a = &admin.App{AppID: appID, ClientID: "client-" + appID}
		f.apps[appID] = a
	}
	cp := *a
	cp.ClientSecret = fmt.Sprintf("secret-%d", f.n)
	return &cp, nil
}

var _ admin.Apps = (*fakeApps)(nil)
