package data_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/tenant"
)

var update = flag.Bool("update", false, "rewrite the golden files and sample spreadsheets under testdata/")

var ctx = context.Background()

// t0 is when the fixture records were created.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 678_000_000, time.UTC)

// Fixture callers: user id → console role and home customer.
const (
	ownerA   = "u-owner-acme"
	adminA   = "u-admin-acme"
	memberA  = "u-member-acme"
	viewerA  = "u-viewer-acme"
	billingA = "u-billing-acme"
	ownerG   = "u-owner-globex"
	platAdm  = "u-platform-admin"
	acctMgr  = "u-account-manager"   // granted Acme
	acctMgr0 = "u-account-manager-0" // no grants
	qaAdm    = "u-qa-admin"          // granted Acme and its instance inst-acme-1 (not inst-acme-2)
	readerU  = "u-reader"
	focusU   = "u-focus"     // platform_admin in focus mode on Globex
	nobody   = "u-no-access" // a user of the administrator organization without a console role
)

const (
	custAcme   = "cust-acme"
	custGlobex = "cust-globex"
	tenAcme    = "ten-acme"
	tenAcme2   = "ten-acme-2"
	tenGlobex  = "ten-globex"
	schAcme    = "sch-acme"
	schAcme2   = "sch-acme-2"
	schGlobex  = "sch-globex"
)

// storedRows are the rows of schAcme before each test: a parent, a child
// after a predecessor, as the demo's Harbor Tower schedule holds them.
var storedRows = []cx.Row{
	{ID: "HT-BLDG", Name: "Harbor Tower", ParentChildDependency: "TopDown", PMEmail: "pm.harbor@acme.example", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
	{ID: "HT-CHW", Name: "Chilled water plant start-up", ParentID: "HT-BLDG", SystemName: "Chilled water plant", Discipline: "Mechanical", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
	{ID: "HT-AHU-1", Name: "AHU-1 functional test", ParentID: "HT-BLDG", Predecessors: "HT-CHW FS+2d", SystemName: "AHU-1", Discipline: "Mechanical", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
}

// env is a data API over a real store (SQLite, or PostgreSQL with
// TEST_DATABASE_URL) behind a real HTTP server. Requests authenticate as a
// fixture user by the session cookie whose value is the user id, or else by
// "Authorization: Bearer <user id>" (the tenant role's order); the
// authenticators are the test's, everything after them (loading the caller,
// scope, decisions, the CSRF check) is real.
type env struct {
	st      *store.Store
	srv     *httptest.Server
	svc     *data.Service
	handler *data.Handler
	logins  *storetest.Logins
}

// newEnv builds the env; uploadConcurrency, when given, bounds the uploads
// the handler runs at once (default data.DefaultUploadConcurrency).
func newEnv(t testing.TB, uploadConcurrency ...int) *env {
	t.Helper()
	st := storetest.New(t)
	mustFixtures(t, st)
	acc, err := access.New(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	svc := data.New(st, acc)
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID)
	srv := httptest.NewUnstartedServer(r)
	srv.Start()
	t.Cleanup(srv.Close)
	logins := storetest.NewLogins(t, st)
	signIn := func(id string, via access.Via) access.Identity {
		if id == "" {
			return access.Identity{}
		}
		return access.Identity{UserID: id, GrantID: logins.Grant(id), Via: via}
	}
	cookieAuth := func(r *http.Request) (access.Identity, error) {
		c, err := r.Cookie(tenant.SessionCookie)
		if err != nil {
			return access.Identity{}, nil
		}
		return signIn(c.Value, access.ViaCookie), nil
	}
	bearerAuth := func(r *http.Request) (access.Identity, error) {
		id, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			return access.Identity{}, nil
		}
		return signIn(id, access.ViaBearer), nil
	}
	concurrency := 0
	if len(uploadConcurrency) > 0 {
		concurrency = uploadConcurrency[0]
	}
	h := data.NewHandler(svc, srv.URL, concurrency)
	h.Mount(r, acc.Require(cookieAuth, bearerAuth))
	return &env{st: st, srv: srv, svc: svc, handler: h, logins: logins}
}

// caller loads a fixture user as the API would.
func (e *env) caller(t testing.TB, acc *access.Service, userID string) *access.Caller {
	t.Helper()
	c, err := acc.Load(ctx, access.Identity{UserID: userID, GrantID: e.logins.Grant(userID)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixtureOrgs are the organizations of the fixture users: the customers'
// and the administrator organization.
var fixtureOrgs = map[string]string{custAcme: "org-acme", custGlobex: "org-globex", "": "org-platform"}

func mustFixtures(t testing.TB, st *store.Store) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, org := range []string{"org-acme", "org-globex", "org-platform"} {
		must(st.CreateOrganization(ctx, &platform.Organization{ID: org, Name: org, CreatedAt: t0}))
	}
	for _, c := range []platform.Customer{{ID: custAcme, Name: "Acme", OrgID: "org-acme"}, {ID: custGlobex, Name: "Globex", OrgID: "org-globex"}} {
		c.CreatedAt = t0
		must(st.CreateCustomer(ctx, &c))
	}
	must(st.CreateUser(ctx, &platform.User{ID: nobody, OrgID: "org-platform", Email: nobody + "@platform.example", Name: nobody,
		CreatedAt: t0, UpdatedAt: t0}))
	for _, u := range []platform.ConsoleUser{
		{UserID: ownerA, Role: "owner", CustomerID: custAcme}, {UserID: adminA, Role: "admin", CustomerID: custAcme},
		{UserID: memberA, Role: "member", CustomerID: custAcme}, {UserID: viewerA, Role: "viewer", CustomerID: custAcme},
		{UserID: billingA, Role: "billing", CustomerID: custAcme}, {UserID: ownerG, Role: "owner", CustomerID: custGlobex},
		{UserID: platAdm, Role: "platform_admin"}, {UserID: acctMgr, Role: "account_manager"}, {UserID: acctMgr0, Role: "account_manager"},
		{UserID: qaAdm, Role: "qa_admin"}, {UserID: readerU, Role: "reader"}, {UserID: focusU, Role: "platform_admin"},
	} {
		u.CreatedAt = t0
		must(st.CreateUser(ctx, &platform.User{ID: u.UserID, OrgID: fixtureOrgs[u.CustomerID], Email: u.UserID + "@example.com",
			Name: u.UserID, CreatedAt: t0, UpdatedAt: t0}))
		must(st.PutConsoleUser(ctx, &u))
	}
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: acctMgr, TargetID: custAcme, GrantedAt: t0}))
	must(st.PutGrant(ctx, false, &store.Grant{GranteeID: qaAdm, TargetID: custAcme, GrantedAt: t0}))
	for _, in := range []string{"inst-acme-1", "inst-acme-2"} {
		must(st.CreateInstance(ctx, &platform.Instance{ID: in, CustomerID: custAcme, Name: in, URL: "https://" + in + ".example", CreatedAt: t0},
			&platform.InstanceConnection{InstanceID: in, OIDCClientID: "client-" + in, UpdatedAt: t0}))
	}
	must(st.PutGrant(ctx, true, &store.Grant{GranteeID: qaAdm, TargetID: "inst-acme-1", GrantedAt: t0}))
	must(st.SetFocus(ctx, focusU, custGlobex, time.Now(), time.Now().Add(time.Hour)))

	for _, tn := range []store.Tenant{{ID: tenAcme, CustomerID: custAcme, InstanceID: "inst-acme-1", Name: "Harbor Campus"},
		{ID: tenAcme2, CustomerID: custAcme, InstanceID: "inst-acme-2", Name: "Inland Depot"}, {ID: tenGlobex, CustomerID: custGlobex, Name: "Data Center North"}} {
		tn.CreatedAt = t0
		must(st.CreateTenant(ctx, &tn))
	}
	for _, p := range []store.Project{{ID: "prj-tower", TenantID: tenAcme, Name: "Harbor Tower"}, {ID: "prj-lab", TenantID: tenAcme, Name: "Riverside Lab"},
		{ID: "prj-depot", TenantID: tenAcme2, Name: "Depot"}, {ID: "prj-dc", TenantID: tenGlobex, Name: "DC North"}} {
		p.CreatedAt = t0
		must(st.CreateProject(ctx, &p))
	}
	building := []store.MasterField{{Key: "floors", Type: store.FieldNumber}, {Key: "address", Type: store.FieldString},
		{Key: "occupied", Type: store.FieldBoolean}, {Key: "handoverDate", Type: store.FieldDate}, {Key: "certifications", Type: store.FieldStringArray}}
	for _, m := range []store.Master{
		{ID: "m-bld-acme", TenantID: tenAcme, Name: "Building", Fields: building},
		{ID: "m-bld-acme2", TenantID: tenAcme2, Name: "Building", Fields: building},
		{ID: "m-bld-globex", TenantID: tenGlobex, Name: "Building", Fields: building},
		{ID: "m-sys-acme", TenantID: tenAcme, Name: "System", Fields: []store.MasterField{{Key: "code", Type: store.FieldString}}},
	} {
		m.CreatedAt = t0
		must(st.CreateMaster(ctx, &m))
	}
	rec := func(id, master, tenant, project, parent string, i int, deleted bool, custom string) store.MasterRecord {
		return store.MasterRecord{ID: id, MasterID: master, TenantID: tenant, ProjectID: project, ParentID: parent,
			Slug: strings.ToLower(id), RefID: "REF-" + id, CustomFields: json.RawMessage(custom), CreatedBy: ownerA,
			CreatedAt: t0.Add(time.Duration(i) * time.Minute), IsDeleted: deleted}
	}
	must(st.InsertMasterRecords(ctx, []store.MasterRecord{
		rec("HC", "m-bld-acme", tenAcme, "prj-tower", "", 0, false, `{"floors": 0, "address": "1 Harbor Way", "occupied": false, "handoverDate": "2026-09-30", "certifications": ["LEED Gold"]}`),
		rec("HT", "m-bld-acme", tenAcme, "prj-tower", "HC", 1, false, `{"floors": 32, "address": "1 Harbor Way", "occupied": false, "handoverDate": "2026-06-30", "certifications": ["LEED Gold", "WELL Silver"]}`),
		// a key the master does not define and a value of the wrong type: neither is shown
		rec("HTP", "m-bld-acme", tenAcme, "prj-tower", "HT", 2, false, `{"floors": 4, "address": "3 Harbor Way", "occupied": "yes", "colour": "red"}`),
		rec("OLD", "m-bld-acme", tenAcme, "prj-tower", "", 3, true, `{"floors": 1}`),
		rec("RL", "m-bld-acme", tenAcme, "prj-lab", "", 4, false, `{"floors": 6, "address": "80 River Road", "occupied": true, "handoverDate": "2025-03-31", "certifications": []}`),
		rec("RLA", "m-bld-acme", tenAcme, "prj-lab", "RL", 5, false, `{"floors": 2.5}`),
		rec("DEP", "m-bld-acme2", tenAcme2, "prj-depot", "", 6, false, `{"floors": 1, "address": "5 Depot Lane"}`),
		rec("DCN", "m-bld-globex", tenGlobex, "prj-dc", "", 7, false, `{"floors": 2, "address": "400 Fiber Loop"}`),
		rec("CHW", "m-sys-acme", tenAcme, "prj-tower", "", 8, false, `{"code": "CHW"}`),
	}))
	for _, sc := range []store.Schedule{{ID: schAcme, TenantID: tenAcme, ProjectID: "prj-tower", Name: "Harbor Tower commissioning"},
		{ID: schAcme2, TenantID: tenAcme, ProjectID: "prj-lab", Name: "Riverside Lab commissioning"},
		{ID: schGlobex, TenantID: tenGlobex, ProjectID: "prj-dc", Name: "DC North commissioning"}} {
		sc.CreatedAt = t0
		must(st.CreateSchedule(ctx, &sc))
	}
	must(st.UpsertScheduleRows(ctx, schAcme, storedRows, t0))
}

// response is an answer of the API.
type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into a map.
func (r *response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object (%v): %.300s", err, r.body)
	}
	return m
}

// request options.
type reqOpt func(*http.Request)

func asUser(id string) reqOpt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+id) }
}

func withCookie(id string) reqOpt {
	return func(r *http.Request) { r.AddCookie(&http.Cookie{Name: tenant.SessionCookie, Value: id}) }
}

func withHeader(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

func (e *env) do(t *testing.T, method, path string, body io.Reader, opts ...reqOpt) *response {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: b}
}

func (e *env) get(t *testing.T, path string, opts ...reqOpt) *response {
	t.Helper()
	return e.do(t, http.MethodGet, path, nil, opts...)
}

// postJSON posts an upload body.
func (e *env) postJSON(t *testing.T, path string, body []byte, opts ...reqOpt) *response {
	t.Helper()
	return e.do(t, http.MethodPost, path, bytes.NewReader(body), append([]reqOpt{withHeader("Content-Type", "application/json")}, opts...)...)
}

// upload builds a JSON upload body.
func upload(scheduleID string, rows ...map[string]string) []byte {
	b, _ := json.Marshal(map[string]any{"scheduleId": scheduleID, "data": rows})
	return b
}

// rows returns the rows stored in a schedule.
func (e *env) rows(t *testing.T, scheduleID string) []cx.Row {
	t.Helper()
	rows, err := e.st.ScheduleRows(ctx, scheduleID)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// wantRows checks that a schedule holds exactly want (in any order).
func (e *env) wantRows(t *testing.T, scheduleID string, want []cx.Row) {
	t.Helper()
	want = slices.Clone(want)
	slices.SortFunc(want, func(a, b cx.Row) int { return strings.Compare(a.ID, b.ID) })
	if diff := cmp.Diff(want, e.rows(t, scheduleID)); diff != "" {
		t.Fatalf("schedule %s rows (-want +got):\n%s", scheduleID, diff)
	}
}

var (
	timestampRe = regexp.MustCompile(`"timestamp": "[^"]*"`)
	requestIDRe = regexp.MustCompile(`"requestId": "[^"]*"`)
)

// golden compares a response body, indented, with testdata/golden/name.json
// after blanking what changes from run to run (timestamp, requestId).
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v: %.300s", name, err, body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	got := timestampRe.ReplaceAll(buf.Bytes(), []byte(`"timestamp": "…"`))
	got = requestIDRe.ReplaceAll(got, []byte(`"requestId": "…"`))
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/data -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// wantError checks the 7.1 error object (R7.1-shape) and its status.
func wantError(t *testing.T, r *response, status int, path string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d: %.500s", r.status, status, r.body)
	}
	m := r.json(t)
	if got, _ := m["code"].(float64); int(got) != status {
		t.Errorf("code = %v, want %d", m["code"], status)
	}
	if ts, _ := m["timestamp"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(ts) {
		t.Errorf("timestamp = %q", m["timestamp"])
	}
	if m["path"] != path {
		t.Errorf("path = %v, want %s", m["path"], path)
	}
	e, _ := m["error"].(map[string]any)
	if s, _ := e["summary"].(string); s == "" {
		t.Errorf("error.summary missing: %v", m)
	}
	if d, ok := e["detail"].([]any); !ok || len(d) == 0 {
		t.Errorf("error.detail = %v, want a non-empty array of strings", e["detail"])
	}
	return m
}

// detail returns error.detail joined, for messages.
func detail(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["detail"].([]any)
	return fmt.Sprint(d...)
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
