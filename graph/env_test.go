package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/admin/adminhttp"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
)

var ctx = context.Background()

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 678_000_000, time.UTC)

// Users of the fixtures, one per role and scope mode.
const (
	platAdm    = "u-platform-admin"
	acctMgr    = "u-account-manager" // granted Acme: strict scope
	qaAdm      = "u-qa-admin"        // granted Acme and inst-acme-1
	focusU     = "u-focus"           // platform_admin in focus mode on Globex: soft scope
	readerU    = "u-reader"
	financeAdm = "u-finance-admin"
	complAdm   = "u-compliance-admin"
	infraOps   = "u-infra-ops"
	ownerA     = "u-owner-acme" // own scope
	billingA   = "u-billing-acme"
	viewerA    = "u-viewer-acme"
	memberA    = "u-member-acme"
	ownerG     = "u-owner-globex"
)

const (
	custAcme   = "cust-acme"
	custGlobex = "cust-globex"
	instAcme1  = "inst-acme-1"
	instAcme2  = "inst-acme-2"
	tenAcme    = "ten-acme"
	tenAcme2   = "ten-acme-2"
	tenGlobex  = "ten-globex"
	schAcme    = "sch-acme"
	adminOrg   = "org-platform"
)

// testUserHeader names the caller: the real access.Require loads the
// principal from the store; only the token check is replaced (the user
// signs in with a grant of its own, storetest.Logins).
const testUserHeader = "X-Test-User"

// headerAuth is the test's authenticator over logins: a header the client
// sets itself, as a bearer token is (no CSRF proof asked); without it, the
// user id as the bearer token (Authorization: Bearer <user id>), which a
// router passes on as it passes a real one.
func headerAuth(logins *storetest.Logins) access.Authenticator {
	return func(r *http.Request) (access.Identity, error) {
		id := r.Header.Get(testUserHeader)
		if id == "" {
			id, _ = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		if id == "" {
			return access.Identity{}, nil
		}
		return access.Identity{UserID: id, GrantID: logins.Grant(id), Via: access.ViaBearer}, nil
	}
}

// env is the GraphQL endpoint and the REST routes over one real store
// (SQLite, or PostgreSQL with TEST_DATABASE_URL), served through HTTP.
type env struct {
	t       testing.TB
	st      *store.Store
	queries *atomic.Int64 // SQL statements run through st
	srv     *httptest.Server
	adm     *admin.Service
}

// newEnv builds the env; opts change the GraphQL endpoint's configuration.
func newEnv(t testing.TB, opts ...func(*graph.Config)) *env {
	t.Helper()
	return newEnvOn(t, nil, opts...)
}

// newEnvOn is newEnv over the database connection as wrap wraps it (nil:
// as it is).
func newEnvOn(t testing.TB, wrap func(store.Conn) store.Conn, opts ...func(*graph.Config)) *env {
	t.Helper()
	base := storetest.New(t)
	conn := base.Conn()
	if wrap != nil {
		conn = wrap(conn)
	}
	cc := &countingConn{Conn: conn, n: &atomic.Int64{}}
	st := store.New(cc)
	mustFixtures(t, st)
	acc, err := access.New(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	adm := admin.NewService(st, acc, admin.WithAdminOrg(adminOrg), admin.WithApps(&memApps{}))
	dataSvc := data.New(st, acc)
	auth := acc.Require(headerAuth(storetest.NewLogins(t, base))) // signing in is no statement of the request
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID)
	cfg := graph.Config{Resolver: graph.Resolver{Access: acc, Admin: adm, Data: dataSvc}, Auth: auth}
	for _, o := range opts {
		o(&cfg)
	}
	gh := graph.NewHandler(cfg)
	r.Handle("/graphql", gh)
	general := cfg
	general.NoFastPage = true
	r.Handle("/graphql-executor", graph.NewHandler(general))
	r.Handle("/graphql/assets/*", gh)
	// Each role's subgraph (D-graphql-subgraphs): the console's and the
	// tenant role's, over the same services.
	consoleCfg, dataCfg := cfg, cfg
	consoleCfg.Data, dataCfg.Admin = nil, nil
	r.Handle("/graphql-console", graph.NewHandler(consoleCfg))
	r.Handle("/graphql-data", graph.NewHandler(dataCfg))
	r.Route("/api/v1", func(r chi.Router) { adminhttp.New(adm, acc).Mount(r, auth) })
	dataRouter := chi.NewRouter()
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	data.NewHandler(dataSvc, srv.URL, 0).Mount(dataRouter, auth)
	r.Mount("/data", dataRouter)
	return &env{t: t, st: st, queries: cc.n, srv: srv, adm: adm}
}

// countingConn counts the SQL statements run on the database.
type countingConn struct {
	store.Conn
	n *atomic.Int64
}

func (c *countingConn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	c.n.Add(1)
	return c.Conn.Exec(ctx, q, args...)
}

func (c *countingConn) Query(ctx context.Context, q string, args ...any) (store.Rows, error) {
	c.n.Add(1)
	return c.Conn.Query(ctx, q, args...)
}

func (c *countingConn) QueryRow(ctx context.Context, q string, args ...any) store.Row {
	c.n.Add(1)
	return c.Conn.QueryRow(ctx, q, args...)
}

func (c *countingConn) InTx(ctx context.Context, fn func(tx store.DB) error) error {
	return c.Conn.InTx(ctx, func(tx store.DB) error { return fn(&countingDB{DB: tx, n: c.n}) })
}

type countingDB struct {
	store.DB
	n *atomic.Int64
}

func (c *countingDB) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	c.n.Add(1)
	return c.DB.Exec(ctx, q, args...)
}

func (c *countingDB) Query(ctx context.Context, q string, args ...any) (store.Rows, error) {
	c.n.Add(1)
	return c.DB.Query(ctx, q, args...)
}

func (c *countingDB) QueryRow(ctx context.Context, q string, args ...any) store.Row {
	c.n.Add(1)
	return c.DB.QueryRow(ctx, q, args...)
}

func mustFixtures(t testing.TB, st *store.Store) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []platform.Organization{{ID: adminOrg, Name: "Platform"}, {ID: "org-acme", Name: "Acme"}, {ID: "org-globex", Name: "Globex"}} {
		o.CreatedAt = t0
		must(st.CreateOrganization(ctx, &o))
	}
	for _, c := range []platform.Customer{{ID: custAcme, Name: "Acme", OrgID: "org-acme"}, {ID: custGlobex, Name: "Globex", OrgID: "org-globex"}} {
		c.CreatedAt = t0
		must(st.CreateCustomer(ctx, &c))
	}
	for _, u := range []platform.ConsoleUser{
		{UserID: platAdm, Role: "platform_admin"}, {UserID: acctMgr, Role: "account_manager"}, {UserID: qaAdm, Role: "qa_admin"},
		{UserID: focusU, Role: "platform_admin"}, {UserID: readerU, Role: "reader"}, {UserID: financeAdm, Role: "finance_admin"},
		{UserID: complAdm, Role: "compliance_admin"}, {UserID: infraOps, Role: "infra_ops"},
		{UserID: ownerA, Role: "owner", CustomerID: custAcme}, {UserID: billingA, Role: "billing", CustomerID: custAcme},
		{UserID: viewerA, Role: "viewer", CustomerID: custAcme}, {UserID: memberA, Role: "member", CustomerID: custAcme},
		{UserID: ownerG, Role: "owner", CustomerID: custGlobex},
	} {
		org := adminOrg
		if u.CustomerID == custAcme {
			org = "org-acme"
		} else if u.CustomerID == custGlobex {
			org = "org-globex"
		}
		must(st.CreateUser(ctx, &platform.User{ID: u.UserID, OrgID: org, Email: u.UserID + "@example.com", Name: u.UserID,
			PasswordHash: "$argon2id$x", CreatedAt: t0, UpdatedAt: t0}))
		u.CreatedAt = t0
		must(st.PutConsoleUser(ctx, &u))
	}
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: acctMgr, TargetID: custAcme, GrantedAt: t0}))
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: qaAdm, TargetID: custAcme, GrantedAt: t0}))
	for _, in := range []string{instAcme1, instAcme2} {
		must(st.CreateInstance(ctx, &platform.Instance{ID: in, CustomerID: custAcme, Name: in, URL: "https://" + in + ".example", CreatedAt: t0},
			&platform.InstanceConnection{InstanceID: in, OIDCClientID: "client-" + in, OIDCRedirectURI: "https://" + in + ".example/auth/callback",
				IDPAppID: "app-" + in, UpdatedAt: t0}))
	}
	must(st.PutGrant(ctx, true, &store.Grant{GranteeID: qaAdm, TargetID: instAcme1, GrantedAt: t0}))
	must(st.SetFocus(ctx, focusU, custGlobex, time.Now().Add(-time.Minute), time.Now().Add(time.Hour)))
	for _, tn := range []store.Tenant{{ID: tenAcme, CustomerID: custAcme, InstanceID: instAcme1, Name: "Harbor Campus"},
		{ID: tenAcme2, CustomerID: custAcme, InstanceID: instAcme2, Name: "Inland Depot"},
		{ID: tenGlobex, CustomerID: custGlobex, Name: "Data Center North"}} {
		tn.CreatedAt = t0
		must(st.CreateTenant(ctx, &tn))
	}
	must(st.CreateProject(ctx, &store.Project{ID: "prj-tower", TenantID: tenAcme, Name: "Harbor Tower", CreatedAt: t0}))
	must(st.CreateProject(ctx, &store.Project{ID: "prj-dc", TenantID: tenGlobex, Name: "DC North", CreatedAt: t0}))
	fields := []store.MasterField{{Key: "floors", Type: store.FieldNumber}, {Key: "address", Type: store.FieldString}}
	must(st.CreateMaster(ctx, &store.Master{ID: "m-bld-acme", TenantID: tenAcme, Name: "Building", Fields: fields, CreatedAt: t0}))
	must(st.CreateMaster(ctx, &store.Master{ID: "m-bld-globex", TenantID: tenGlobex, Name: "Building", Fields: fields, CreatedAt: t0}))
	var recs []store.MasterRecord
	for i, id := range []string{"B1", "B2", "B3", "B4", "B5"} {
		parent := ""
		if i > 0 {
			parent = "B1"
		}
		recs = append(recs, store.MasterRecord{ID: id, MasterID: "m-bld-acme", TenantID: tenAcme, ProjectID: "prj-tower", ParentID: parent,
			Slug: "b" + id, RefID: "REF-" + id, CustomFields: json.RawMessage(`{"floors": ` + string(rune('1'+i)) + `, "address": "Harbor Way"}`),
			CreatedBy: ownerA, CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	recs = append(recs, store.MasterRecord{ID: "G1", MasterID: "m-bld-globex", TenantID: tenGlobex, ProjectID: "prj-dc",
		CustomFields: json.RawMessage(`{"floors": 2}`), CreatedBy: ownerG, CreatedAt: t0})
	must(st.InsertMasterRecords(ctx, recs))
	must(st.CreateSchedule(ctx, &store.Schedule{ID: schAcme, TenantID: tenAcme, ProjectID: "prj-tower", Name: "Commissioning", CreatedAt: t0}))
	must(st.UpsertScheduleRows(ctx, schAcme, []cx.Row{{ID: "ROOT", Name: "Root", CreatedAt: "2025-01-06"}}, t0))
	must(st.CreateMeter(ctx, &store.Meter{ID: "meter-api", Key: "api_calls", Name: "API calls", Unit: "call", Aggregation: "sum",
		CreatedAt: t0, UpdatedAt: t0}))
	for i, c := range []string{custAcme, custGlobex} {
		for _, period := range []string{"2026-01", "2026-02"} {
			must(st.PutUsageRow(ctx, &store.UsageRow{ID: "usage-" + c + "-" + period, CustomerID: c, MeterKey: "api_calls", Period: period,
				Units: float64(1000 * (i + 1)), BilledAmountCents: int64(1250 * (i + 1)), Currency: "EUR"}))
		}
	}
}

// gqlError is one entry of a GraphQL response's errors.
type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

func (e gqlError) code() string { s, _ := e.Extensions["code"].(string); return s }

// gqlResponse is an answer of the GraphQL endpoint.
type gqlResponse struct {
	Status int
	Header http.Header
	Data   map[string]any
	Errors []gqlError
	Raw    []byte
}

// codes lists the errors' codes.
func (r gqlResponse) codes() []string {
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.code())
	}
	return out
}

// gql posts one operation as userID.
func (e *env) gql(userID, query string, vars map[string]any) gqlResponse {
	e.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		e.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return e.send(userID, req)
}

func (e *env) send(userID string, req *http.Request) gqlResponse {
	e.t.Helper()
	if userID != "" {
		req.Header.Set(testUserHeader, userID)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := gqlResponse{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	var doc struct {
		Data   map[string]any `json:"data"`
		Errors []gqlError     `json:"errors"`
	}
	if err := json.Unmarshal(raw, &doc); err == nil {
		out.Data, out.Errors = doc.Data, doc.Errors
	}
	return out
}

// rest sends one REST request as userID.
func (e *env) rest(userID, method, path string, body any) (int, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(testUserHeader, userID)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// dig walks a decoded JSON value along keys (strings) and indexes (ints).
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}
