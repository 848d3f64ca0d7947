package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testData covers the tenant data of the data API: masters, listing,
// schedule rows and idempotency records.
func testData(t *testing.T, st *store.Store) {
	mustDataTenant(t, st, "cust-a", "ten-a")
	mustDataTenant(t, st, "cust-b", "ten-b")
	t.Run("Masters", func(t *testing.T) { testDataMasters(t, st) })
	t.Run("Listing", func(t *testing.T) { testDataListing(t, st) })
	t.Run("ListingMarks", func(t *testing.T) { testDataListingMarks(t, st) })
	t.Run("Summaries", func(t *testing.T) { testDataSummaries(t, st) })
	t.Run("ScheduleRows", func(t *testing.T) { testDataScheduleRows(t, st) })
	t.Run("Idempotency", func(t *testing.T) { testDataIdempotency(t, st) })
}

func mustDataTenant(t *testing.T, st *store.Store, customer, tenant string) {
	t.Helper()
	mustCustomers(t, st, customer)
	if err := st.CreateTenant(ctx, &store.Tenant{ID: tenant, CustomerID: customer, Name: tenant, CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
}

func testDataMasters(t *testing.T, st *store.Store) {
	fields := []store.MasterField{{Key: "floors", Type: store.FieldNumber}, {Key: "tags", Type: store.FieldStringArray}}
	for _, m := range []store.Master{
		{ID: "m-a", TenantID: "ten-a", Name: "Building", Fields: fields, CreatedAt: ts},
		{ID: "m-b", TenantID: "ten-b", Name: "Building", CreatedAt: ts},
		{ID: "m-c", TenantID: "ten-a", Name: "System", CreatedAt: ts},
	} {
		if err := st.CreateMaster(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	err := st.CreateMaster(ctx, &store.Master{ID: "m-d", TenantID: "ten-a", Name: "Building", CreatedAt: ts})
	wantCode(t, err, platform.ECONFLICT)
	err = st.CreateMaster(ctx, &store.Master{ID: "m-e", TenantID: "ten-a", Name: "X", CreatedAt: ts,
		Fields: []store.MasterField{{Key: "a", Type: "money"}}})
	wantCode(t, err, platform.EINVALID)
	err = st.CreateMaster(ctx, &store.Master{ID: "m-e", TenantID: "ten-a", Name: "X", CreatedAt: ts,
		Fields: []store.MasterField{{Key: `a"b`, Type: store.FieldString}}})
	wantCode(t, err, platform.EINVALID)

	ids := func(f store.TenantFilter) []string {
		t.Helper()
		ms, err := st.MastersByName(ctx, "Building", f)
		if err != nil {
			t.Fatal(err)
		}
		return keys(ms, func(m store.Master) string { return m.ID })
	}
	for _, tc := range []struct {
		name string
		f    store.TenantFilter
		want []string
	}{
		{"All", store.TenantFilter{Scope: authz.Filter{All: true}}, []string{"m-a", "m-b"}},
		{"OneCustomer", store.TenantFilter{Scope: authz.Filter{CustomerIDs: []string{"cust-b"}}}, []string{"m-b"}},
		{"TwoCustomers", store.TenantFilter{Scope: authz.Filter{CustomerIDs: []string{"cust-a", "cust-b"}}}, []string{"m-a", "m-b"}},
		{"Tenant", store.TenantFilter{TenantID: "ten-a", Scope: authz.Filter{All: true}}, []string{"m-a"}},
		{"TenantOutOfScope", store.TenantFilter{TenantID: "ten-a", Scope: authz.Filter{CustomerIDs: []string{"cust-b"}}}, nil},
		{"NoScope", store.TenantFilter{}, nil},
		{"Tenants", store.TenantFilter{TenantIDs: []string{"ten-b", "ten-x"}, Scope: authz.Filter{All: true}}, []string{"m-b"}},
		{"TenantsOutOfScope", store.TenantFilter{TenantIDs: []string{"ten-a", "ten-b"}, Scope: authz.Filter{CustomerIDs: []string{"cust-b"}}}, []string{"m-b"}},
		{"NoTenants", store.TenantFilter{TenantIDs: []string{}, Scope: authz.Filter{All: true}}, nil},
	} {
		if got := ids(tc.f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: masters = %v, want %v", tc.name, got, tc.want)
		}
	}
	ms, _ := st.MastersByName(ctx, "Building", store.TenantFilter{TenantID: "ten-a", Scope: authz.Filter{All: true}})
	wantSame(t, "fields", fields, ms[0].Fields, nil)
}

func testDataListing(t *testing.T, st *store.Store) {
	if err := st.CreateMaster(ctx, &store.Master{ID: "lm", TenantID: "ten-a", Name: "Listing", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	// r0 … r9, one second apart; r3 deleted; r4 and r5 children of r0;
	// r6 … r9 in project p2; numbers descend so that sorts differ.
	var recs []store.MasterRecord
	for i := range 10 {
		r := store.MasterRecord{ID: fmt.Sprintf("r%d", i), MasterID: "lm", TenantID: "ten-a", ProjectID: "p1",
			Slug: fmt.Sprintf("s-%d", (i*7)%10), RefID: fmt.Sprintf("REF-%02d", 10-i), CreatedBy: "u",
			CreatedAt: ts.Add(time.Duration(i) * time.Second).Truncate(time.Millisecond), IsDeleted: i == 3}
		if i == 4 || i == 5 {
			r.ParentID = "r0"
		}
		if i >= 6 {
			r.ProjectID = "p2"
		}
		custom := map[string]any{"n": 100 - i*3, "flag": i%2 == 0, "name": string(rune('j' - i)), "tags": []string{string(rune('a' + i%3))}}
		if i == 2 { // no values: sorts last in both directions
			custom = map[string]any{"n": "not a number"}
		}
		r.CustomFields, _ = json.Marshal(custom)
		recs = append(recs, r)
	}
	if err := st.InsertMasterRecords(ctx, recs); err != nil {
		t.Fatal(err)
	}
	err := st.InsertMasterRecords(ctx, recs[:1])
	wantCode(t, err, platform.ECONFLICT)

	list := func(q store.RecordQuery) ([]string, int) {
		t.Helper()
		q.MasterIDs = []string{"lm"}
		if q.Limit == 0 {
			q.Limit = 50
		}
		page, err := st.ListMasterRecords(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return keys(page.Records, func(r store.MasterRecord) string { return r.ID }), page.Total
	}
	custom := func(key, typ string, desc bool) store.RecordSort {
		return store.RecordSort{Field: store.SortCustom, Key: key, Type: typ, Desc: desc}
	}
	for _, tc := range []struct {
		name  string
		q     store.RecordQuery
		want  []string
		total int
	}{
		{"Default", store.RecordQuery{}, []string{"r0", "r1", "r2", "r4", "r5", "r6", "r7", "r8", "r9"}, 9},
		{"IncludeDeleted", store.RecordQuery{IncludeDeleted: true}, []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"}, 10},
		{"Page2", store.RecordQuery{Limit: 4, Offset: 4}, []string{"r5", "r6", "r7", "r8"}, 9},
		{"PastTheEnd", store.RecordQuery{Limit: 4, Offset: 40}, []string{}, 9},
		{"CreatedAtDesc", store.RecordQuery{Limit: 3, Sort: store.RecordSort{Field: store.SortCreatedAt, Desc: true}}, []string{"r9", "r8", "r7"}, 9},
		{"Project", store.RecordQuery{ProjectID: "p2"}, []string{"r6", "r7", "r8", "r9"}, 4},
		{"Parent", store.RecordQuery{ParentID: "r0"}, []string{"r4", "r5"}, 2},
		{"Roots", store.RecordQuery{RootsOnly: true, ProjectID: "p1"}, []string{"r0", "r1", "r2"}, 3},
		{"Slug", store.RecordQuery{Sort: store.RecordSort{Field: store.SortSlug}}, []string{"r0", "r6", "r9", "r2", "r5", "r8", "r1", "r4", "r7"}, 9},
		{"RefIDDesc", store.RecordQuery{Limit: 3, Sort: store.RecordSort{Field: store.SortRefID, Desc: true}}, []string{"r0", "r1", "r2"}, 9},
		{"Number", store.RecordQuery{Limit: 3, Sort: custom("n", store.FieldNumber, false)}, []string{"r9", "r8", "r7"}, 9},
		{"NumberDescNullsLast", store.RecordQuery{Sort: custom("n", store.FieldNumber, true)}, []string{"r0", "r1", "r4", "r5", "r6", "r7", "r8", "r9", "r2"}, 9},
		{"String", store.RecordQuery{Sort: custom("name", store.FieldString, false)}, []string{"r9", "r8", "r7", "r6", "r5", "r4", "r1", "r0", "r2"}, 9},
		{"Boolean", store.RecordQuery{Sort: custom("flag", store.FieldBoolean, false)}, []string{"r1", "r5", "r7", "r9", "r0", "r4", "r6", "r8", "r2"}, 9},
		{"StringArray", store.RecordQuery{Sort: custom("tags", store.FieldStringArray, false)}, []string{"r0", "r6", "r9", "r1", "r4", "r7", "r5", "r8", "r2"}, 9},
		{"UnknownKey", store.RecordQuery{Sort: custom("zzz", store.FieldString, false)}, []string{"r0", "r1", "r2", "r4", "r5", "r6", "r7", "r8", "r9"}, 9},
	} {
		got, total := list(tc.q)
		if !slices.Equal(got, tc.want) || total != tc.total {
			t.Errorf("%s: got %v (total %d), want %v (total %d)", tc.name, got, total, tc.want, tc.total)
		}
	}

	page, err := st.ListMasterRecords(ctx, store.RecordQuery{MasterIDs: []string{"lm"}, ParentID: "r0", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := recs[4]
	want.CustomFields = nil
	got := page.Records[0]
	var gotCustom, wantCustom map[string]any
	_ = json.Unmarshal(got.CustomFields, &gotCustom)
	_ = json.Unmarshal(recs[4].CustomFields, &wantCustom)
	got.CustomFields = nil
	wantSame(t, "record", want, got, nil)
	wantSame(t, "custom fields", wantCustom, gotCustom, nil)

	_, err = st.ListMasterRecords(ctx, store.RecordQuery{MasterIDs: []string{"lm"}, Limit: 1, Sort: store.RecordSort{Field: "name"}})
	wantCode(t, err, platform.EINVALID)
	_, err = st.ListMasterRecords(ctx, store.RecordQuery{MasterIDs: []string{"lm"}, Limit: 1, Sort: custom(`x"); DROP`, store.FieldString, false)})
	wantCode(t, err, platform.EINVALID)
	page, err = st.ListMasterRecords(ctx, store.RecordQuery{MasterIDs: []string{"lm", "m-a"}, Limit: 2})
	if err != nil || page.Total != 9 || len(page.Records) != 2 {
		t.Fatalf("two masters: %+v, %v", page, err)
	}
}

func testDataScheduleRows(t *testing.T, st *store.Store) {
	for _, id := range []string{"sch-1", "sch-2"} {
		if err := st.CreateSchedule(ctx, &store.Schedule{ID: id, TenantID: "ten-b", Name: "Plan " + id, CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := st.Schedule(ctx, "sch-1")
	if err != nil || sc.CustomerID != "cust-b" || sc.TenantID != "ten-b" || sc.Name != "Plan sch-1" {
		t.Fatalf("Schedule = %+v, %v", sc, err)
	}
	_, err = st.Schedule(ctx, "nope")
	wantCode(t, err, platform.ENOTFOUND)

	load := func(id string) []cx.Row {
		t.Helper()
		rows, err := st.ScheduleRows(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if got := load("sch-1"); len(got) != 0 {
		t.Fatalf("new schedule has rows %v", got)
	}
	// Small sets go in batched upserts, large ones (PostgreSQL) through COPY.
	for _, n := range []int{3, 1200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			id := "sch-1"
			if n > 3 {
				id = "sch-2"
			}
			var rows []cx.Row
			for i := range n {
				rows = append(rows, cx.Row{ID: fmt.Sprintf("R-%05d", i), Name: "Row", PMEmail: "pm@example.com", CreatedAt: "2026-01-02"})
			}
			if err := st.UpsertScheduleRows(ctx, id, rows, ts); err != nil {
				t.Fatal(err)
			}
			rows[0].Name, rows[n-1].ParentID = "Renamed", rows[0].ID
			rows = append(rows, cx.Row{ID: "Z-new", Name: "New"})
			if err := st.UpsertScheduleRows(ctx, id, []cx.Row{rows[0], rows[n-1], rows[n]}, ts); err != nil {
				t.Fatal(err)
			}
			wantSame(t, "rows", rows, load(id), nil)
			boom := errors.New("boom")
			err := st.InTx(ctx, func(tx *store.Store) error {
				if err := tx.LockSchedule(ctx, id); err != nil {
					return err
				}
				if err := tx.UpsertScheduleRows(ctx, id, []cx.Row{{ID: rows[0].ID, Name: "Lost"}}, ts); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("InTx = %v", err)
			}
			wantSame(t, "after rollback", rows, load(id), nil)
		})
	}
	wantCode(t, st.InTx(ctx, func(tx *store.Store) error { return tx.LockSchedule(ctx, "nope") }), platform.ENOTFOUND)

	// two large upserts in one transaction
	var a, b []cx.Row
	for i := range 600 {
		a = append(a, cx.Row{ID: fmt.Sprintf("TX-%04d", i), Name: "first"})
		b = append(b, cx.Row{ID: fmt.Sprintf("TX-%04d", i+300), Name: "second"})
	}
	if err := st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.UpsertScheduleRows(ctx, "sch-1", a, ts); err != nil {
			return err
		}
		return tx.UpsertScheduleRows(ctx, "sch-1", b, ts)
	}); err != nil {
		t.Fatalf("two upserts in one transaction: %v", err)
	}
	n := 0
	for _, r := range load("sch-1") {
		if strings.HasPrefix(r.ID, "TX-") {
			n++
		}
	}
	if n != 900 {
		t.Fatalf("%d rows after two upserts, want 900", n)
	}
}

func testDataIdempotency(t *testing.T, st *store.Store) {
	rec := &store.IdempotencyRecord{Caller: "u1", Key: "k", RequestHash: "h1", Status: 200, Body: []byte(`{"a":1}`), CreatedAt: ts}
	if err := st.PutIdempotencyRecord(ctx, rec); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.PutIdempotencyRecord(ctx, rec), platform.ECONFLICT)
	other := *rec
	other.Caller, other.CreatedAt = "u2", ts.Add(time.Hour)
	if err := st.PutIdempotencyRecord(ctx, &other); err != nil {
		t.Fatal(err)
	}
	got, err := st.IdempotencyRecord(ctx, "u1", "k")
	wantSame(t, "record", rec, got, err)
	_, err = st.IdempotencyRecord(ctx, "u3", "k")
	wantCode(t, err, platform.ENOTFOUND)
	n, err := st.DeleteIdempotencyRecords(ctx, ts.Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("deleted %d, %v; want 1", n, err)
	}
	_, err = st.IdempotencyRecord(ctx, "u1", "k")
	wantCode(t, err, platform.ENOTFOUND)
}

// testDataListingMarks checks that a large master's listing through its
// counters and page marks gives exactly what counting and skipping gives:
// every page boundary around a mark, both directions, with and without
// deleted records, ties in created_at broken by id, and after more records
// arrive (the marks are rebuilt).
func testDataListingMarks(t *testing.T, st *store.Store) {
	if err := st.CreateMaster(ctx, &store.Master{ID: "big", TenantID: "ten-a", Name: "Big", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	add := func(from, n int) {
		t.Helper()
		recs := make([]store.MasterRecord, 0, n)
		for i := from; i < from+n; i++ {
			// three records share each instant; ids do not follow creation order
			recs = append(recs, store.MasterRecord{ID: fmt.Sprintf("b-%05d", (i*7919)%100000), MasterID: "big", TenantID: "ten-a",
				ProjectID: "p", CreatedAt: ts.Add(time.Duration(i/3) * time.Millisecond), IsDeleted: i%17 == 0})
		}
		if err := st.InsertMasterRecords(ctx, recs); err != nil {
			t.Fatal(err)
		}
	}
	add(0, 25_000)
	compare := func(label string) {
		t.Helper()
		for _, deleted := range []bool{false, true} {
			for _, desc := range []bool{false, true} {
				for _, off := range []int{0, 1, 998, 999, 1000, 1001, 12_345, 23_500, 23_529, 24_990, 30_000} {
					q := store.RecordQuery{MasterIDs: []string{"big"}, IncludeDeleted: deleted, Limit: 50, Offset: off,
						Sort: store.RecordSort{Field: store.SortCreatedAt, Desc: desc}}
					got, err := st.ListMasterRecords(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					q.ProjectID = "p" // the same records, counted and skipped in SQL
					want, err := st.ListMasterRecords(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					if got.Total != want.Total || !slices.Equal(recordIDs(got.Records), recordIDs(want.Records)) {
						t.Fatalf("%s deleted=%v desc=%v offset=%d: got %d %v, want %d %v", label, deleted, desc, off,
							got.Total, recordIDs(got.Records), want.Total, recordIDs(want.Records))
					}
				}
			}
		}
	}
	compare("first load")
	var marks int
	if err := st.Conn().QueryRow(ctx, `SELECT COUNT(*) FROM master_record_marks WHERE master_id = 'big'`).Scan(&marks); err != nil || marks != 25+24 {
		t.Fatalf("page marks: %d, %v; want 49 (the listing did not go through them)", marks, err)
	}
	add(25_000, 2_000) // later records, and ties with the last instant of the first load
	compare("after more records")
	sums, _, err := st.TenantSummaries(ctx, store.TenantFilter{TenantID: "ten-a", Scope: authz.Filter{All: true}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sums[0].Masters {
		if m.ID == "big" && m.Records != 27_000-27_000/17-1 {
			t.Errorf("live record counter = %d, want %d", m.Records, 27_000-27_000/17-1)
		}
	}
}

func recordIDs(recs []store.MasterRecord) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// testDataSummaries checks the caller's-tenants overview and its filter.
func testDataSummaries(t *testing.T, st *store.Store) {
	if err := st.CreateProject(ctx, &store.Project{ID: "prj-b", TenantID: "ten-b", Name: "Tower", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSchedule(ctx, &store.Schedule{ID: "sch-b", TenantID: "ten-b", ProjectID: "prj-b", Name: "Tower plan", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpsertScheduleRows(ctx, "sch-b", []cx.Row{{ID: "A", Name: "a"}, {ID: "B", Name: "b"}}, ts); err != nil {
		t.Fatal(err)
	}
	got, _, err := st.TenantSummaries(ctx, store.TenantFilter{Scope: authz.Filter{CustomerIDs: []string{"cust-b"}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "ten-b" || len(got[0].Projects) != 1 || got[0].Projects[0].Name != "Tower" {
		t.Fatalf("summaries = %+v", got)
	}
	var sched *store.ScheduleSummary
	for i := range got[0].Schedules {
		if got[0].Schedules[i].ID == "sch-b" {
			sched = &got[0].Schedules[i]
		}
	}
	if sched == nil || sched.Rows != 2 || sched.CustomerID != "cust-b" || sched.ProjectID != "prj-b" {
		t.Fatalf("schedule summary = %+v", sched)
	}
	for _, f := range []store.TenantFilter{{}, {TenantID: "ten-a", Scope: authz.Filter{CustomerIDs: []string{"cust-b"}}}} {
		if got, _, err := st.TenantSummaries(ctx, f, 0); err != nil || len(got) != 0 {
			t.Errorf("filter %+v: %d tenants, %v; want none", f, len(got), err)
		}
	}
	all, more, err := st.TenantSummaries(ctx, store.TenantFilter{Scope: authz.Filter{All: true}}, 0)
	if err != nil || len(all) != 2 || more {
		t.Fatalf("all tenants: %d, %v", len(all), err)
	}
	// at most limit tenants, the first by name, with their own projects and schedules only
	first, more, err := st.TenantSummaries(ctx, store.TenantFilter{Scope: authz.Filter{All: true}}, 1)
	if err != nil || len(first) != 1 || !more || first[0].ID != all[0].ID {
		t.Fatalf("one tenant: %+v %v %v", first, more, err)
	}
	for _, sc := range first[0].Schedules {
		if sc.TenantID != first[0].ID {
			t.Errorf("a schedule of another tenant: %+v", sc)
		}
	}
	if both, more, err := st.TenantSummaries(ctx, store.TenantFilter{Scope: authz.Filter{All: true}}, 2); err != nil || len(both) != 2 || more {
		t.Fatalf("two tenants within a limit of 2: %d %v %v", len(both), more, err)
	}
}
