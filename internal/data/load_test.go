package data_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/storetest"

	"net/http/httptest"
)

// TestLoadMasterRecords is the load run of docs/benchmarks.md: one
// master with 1,000,000 records, listed through HTTP at page 1, a page in
// the middle and the last page, in both directions, with the latency
// percentiles and the plans (EXPLAIN ANALYZE) of the statements the store
// runs. It only runs with LOAD_RUN=1 (TEST_DATABASE_URL for PostgreSQL):
//
//	LOAD_RUN=1 TEST_DATABASE_URL=postgres://… go test ./internal/data -run LoadMasterRecords -v -timeout 30m
//
// It reports and asserts nothing about time; it fails only when an answer is wrong.
func TestLoadMasterRecords(t *testing.T) {
	t.Parallel()
	if os.Getenv("LOAD_RUN") != "1" {
		t.Skip("set LOAD_RUN=1 to run the 1,000,000-record load run")
	}
	n := 1_000_000
	st := storetest.New(t)
	rec := &recordingConn{Conn: st.Conn()}
	traced := store.New(rec)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.CreateOrganization(ctx, &platform.Organization{ID: "org-acme", Name: "Acme", CreatedAt: t0}))
	must(st.CreateCustomer(ctx, &platform.Customer{ID: custAcme, Name: "Acme", OrgID: "org-acme", CreatedAt: t0}))
	must(st.CreateUser(ctx, &platform.User{ID: ownerA, OrgID: "org-acme", Email: "owner@acme.example", Name: "Owner", CreatedAt: t0, UpdatedAt: t0}))
	must(st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: ownerA, Role: "owner", CustomerID: custAcme, CreatedAt: t0}))
	owner := access.Identity{UserID: ownerA, GrantID: storetest.MustGrant(t, st, ownerA)}
	must(st.CreateTenant(ctx, &store.Tenant{ID: tenAcme, CustomerID: custAcme, Name: "Harbor Campus", CreatedAt: t0}))
	must(st.CreateMaster(ctx, &store.Master{ID: "m-load", TenantID: tenAcme, Name: "Asset", CreatedAt: t0,
		Fields: []store.MasterField{{Key: "floor", Type: store.FieldNumber}, {Key: "tag", Type: store.FieldString},
			{Key: "active", Type: store.FieldBoolean}, {Key: "installed", Type: store.FieldDate}}}))

	start := time.Now()
	const batch = 100_000
	for from := 0; from < n; from += batch {
		recs := make([]store.MasterRecord, 0, batch)
		for i := from; i < from+batch; i++ {
			custom := fmt.Sprintf(`{"floor": %d, "tag": "AHU-%07d", "active": %v, "installed": "2025-%02d-%02d"}`, i%40, i, i%3 != 0, 1+i%12, 1+i%28)
			r := store.MasterRecord{ID: fmt.Sprintf("asset-%07d", i), MasterID: "m-load", TenantID: tenAcme, ProjectID: fmt.Sprintf("prj-%d", i%4),
				Slug: fmt.Sprintf("asset-%d", i), RefID: fmt.Sprintf("REF-%07d", i), CustomFields: json.RawMessage(custom),
				CreatedBy: ownerA, CreatedAt: t0.Add(time.Duration(i) * time.Second), IsDeleted: i%100 == 99}
			if i%10 != 0 {
				r.ParentID = fmt.Sprintf("asset-%07d", i-i%10)
			}
			recs = append(recs, r)
		}
		must(st.InsertMasterRecords(ctx, recs))
	}
	loaded := time.Since(start)
	analyze := `ANALYZE master_records`
	if st.Dialect() == store.Postgres {
		analyze = `VACUUM ANALYZE master_records`
	}
	if _, err := st.Conn().Exec(ctx, analyze); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	must(st.BuildMasterRecordMarks(ctx, "m-load"))
	marks := time.Since(start)
	t.Logf("database %s: %d records loaded in %v (InsertMasterRecords, batches of %d), page marks built in %v", st.Dialect(), n, loaded.Round(time.Millisecond), batch, marks.Round(time.Millisecond))

	acc, err := access.New(ctx, st)
	must(err)
	svc := data.New(traced, acc)
	r := chi.NewRouter()
	r.Use(httpapi.WithRequestID)
	srv := httptest.NewServer(r)
	defer srv.Close()
	data.NewHandler(svc, srv.URL, 0).Mount(r, acc.Require(func(*http.Request) (access.Identity, error) { return owner, nil }))

	live := n - n/100
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	get := func(query string) listing {
		resp, err := client.Get(srv.URL + "/api/v1/master-record/Asset?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var l listing
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", query, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	type scenario struct {
		name, query, first string
		total              int
		requests           int
	}
	middle := live / 50 / 2
	scenarios := []scenario{
		{"page 1", "page=1&pageSize=50", "asset-0000000", live, 300},
		{fmt.Sprintf("page %d (middle)", middle), fmt.Sprintf("page=%d&pageSize=50", middle), "", live, 300},
		{fmt.Sprintf("page %d (last)", live/50), fmt.Sprintf("page=%d&pageSize=50", live/50), "", live, 300},
		{"page 1, newest first", "page=1&pageSize=50&sort=-createdAt", "asset-0999998", live, 300},
		{fmt.Sprintf("page %d, newest first", middle), fmt.Sprintf("page=%d&pageSize=50&sort=-createdAt", middle), "", live, 300},
		{fmt.Sprintf("page %d, 1,000 per page", live/1000/2), fmt.Sprintf("page=%d&pageSize=1000", live/1000/2), "", live, 100},
		{fmt.Sprintf("page %d, with deleted", n/50/2), fmt.Sprintf("page=%d&pageSize=50&includeDeleted=true", n/50/2), fmt.Sprintf("asset-%07d", (n/50/2-1)*50), n, 300},
		{"page 1, counted and skipped (projectID filter)", "page=1&pageSize=50&projectID=prj-1", "asset-0000001", 250000, 30},
		{fmt.Sprintf("page %d, counted and skipped (projectID filter)", 250000/50/2), fmt.Sprintf("page=%d&pageSize=50&projectID=prj-1", 250000/50/2), "", 250000, 30},
	}
	var report strings.Builder
	report.WriteString("| listing | requests | p50 | p95 | p99 | max | total |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range scenarios {
		for range 5 { // warm-up
			get(sc.query)
		}
		lat := make([]time.Duration, 0, sc.requests)
		var l listing
		for range sc.requests {
			t0 := time.Now()
			l = get(sc.query)
			lat = append(lat, time.Since(t0))
		}
		if l.Total != sc.total || len(l.Rows) == 0 || (sc.first != "" && l.Rows[0]["_id"] != sc.first) {
			t.Fatalf("%s: total %d, %d rows, first %v", sc.name, l.Total, len(l.Rows), l.Rows[0]["_id"])
		}
		slices.Sort(lat)
		pct := func(p float64) string { return fmtMS(lat[min(len(lat)-1, int(float64(len(lat))*p))]) }
		fmt.Fprintf(&report, "| %s | %d | %s | %s | %s | %s | %d |\n", sc.name, sc.requests, pct(0.50), pct(0.95), pct(0.99), fmtMS(lat[len(lat)-1]), l.Total)
	}
	// 8 clients at once on the middle page: throughput
	var wg sync.WaitGroup
	const clients, each = 8, 100
	start = time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				get(fmt.Sprintf("page=%d&pageSize=50", middle))
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	fmt.Fprintf(&report, "\n%d clients × %d requests of page %d: %v, %.0f requests/s\n", clients, each, middle, el.Round(time.Millisecond), float64(clients*each)/el.Seconds())
	t.Logf("latency through HTTP (one client unless said):\n%s", report.String())

	// the plans of what the store runs for page 1, the middle page, and the scanned listing
	for _, q := range []string{"page=1&pageSize=50", fmt.Sprintf("page=%d&pageSize=50", middle), fmt.Sprintf("page=%d&pageSize=50&projectID=prj-1", 250000/50/2)} {
		rec.reset()
		get(q)
		for _, s := range rec.statements() {
			if !strings.HasPrefix(strings.TrimSpace(s.sql), "SELECT") && !strings.HasPrefix(strings.TrimSpace(s.sql), "WITH") {
				continue
			}
			t.Logf("?%s\n%s\nargs %v\n%s", q, compact(s.sql), s.args, explain(t, st, s))
		}
	}
}

func fmtMS(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func compact(sql string) string { return strings.Join(strings.Fields(sql), " ") }

// explain runs EXPLAIN ANALYZE of a recorded statement.
func explain(t *testing.T, st *store.Store, s stmt) string {
	t.Helper()
	prefix := "EXPLAIN (ANALYZE, BUFFERS) "
	if st.Dialect() == store.SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := st.Conn().Query(ctx, prefix+s.sql, s.args...)
	if err != nil {
		return "explain: " + err.Error()
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		if st.Dialect() == store.SQLite {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				return err.Error()
			}
			out = append(out, detail)
			continue
		}
		var line string
		if err := rows.Scan(&line); err != nil {
			return err.Error()
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// recordingConn is a store.Conn that remembers the statements it runs.
type recordingConn struct {
	store.Conn
	mu    sync.Mutex
	stmts []stmt
}

type stmt struct {
	sql  string
	args []any
}

func (c *recordingConn) note(sql string, args []any) {
	c.mu.Lock()
	c.stmts = append(c.stmts, stmt{sql, args})
	c.mu.Unlock()
}

func (c *recordingConn) reset() { c.mu.Lock(); c.stmts = nil; c.mu.Unlock() }

func (c *recordingConn) statements() []stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.stmts)
}

func (c *recordingConn) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	c.note(sql, args)
	return c.Conn.Exec(ctx, sql, args...)
}

func (c *recordingConn) Query(ctx context.Context, sql string, args ...any) (store.Rows, error) {
	c.note(sql, args)
	return c.Conn.Query(ctx, sql, args...)
}

func (c *recordingConn) QueryRow(ctx context.Context, sql string, args ...any) store.Row {
	c.note(sql, args)
	return c.Conn.QueryRow(ctx, sql, args...)
}
