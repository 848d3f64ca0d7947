package data_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/store"
)

// benchRows returns n valid rows of one schedule: a parent tree of
// fan-out 8, a predecessor with a lag on every other row, and the usual
// optional fields filled in.
func benchRows(n int, name string) []cx.Row {
	rows := make([]cx.Row, n)
	for i := range rows {
		r := &rows[i]
		r.ID, r.Name = fmt.Sprintf("R-%06d", i), fmt.Sprintf("%s %d", name, i)
		if i > 0 {
			r.ParentID = fmt.Sprintf("R-%06d", i/8)
		}
		if i >= 10 && i%2 == 0 {
			r.Predecessors = fmt.Sprintf("R-%06d FS+1d", i-3)
		}
		r.PMEmail, r.Discipline, r.Building, r.CreatedAt = "pm@example.com", "Mechanical", "Tower A", "2025-02-03"
	}
	return rows
}

// benchBody is the JSON upload body of rows.
func benchBody(scheduleID string, rows []cx.Row) []byte {
	var b bytes.Buffer
	b.WriteString(`{"scheduleId":"` + scheduleID + `","data":[`)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		row, _ := jsonMarshal(&rows[i])
		b.Write(row)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkUpload persists 100,000 rows: into an empty schedule and over
// 100,000 stored rows that all change, through the service (lock, read
// the stored rows, validate, upsert, commit) and through HTTP (the JSON
// body decoded as well). TEST_DATABASE_URL selects PostgreSQL.
func BenchmarkUpload(b *testing.B) {
	e := newEnv(b)
	acc, err := access.New(ctx, e.st)
	if err != nil {
		b.Fatal(err)
	}
	caller := e.caller(b, acc, ownerA)
	const n = 100_000
	first, second := benchRows(n, "Task"), benchRows(n, "Renamed task")
	sched := 0
	newSchedule := func(rows []cx.Row) string {
		b.Helper()
		sched++
		id := fmt.Sprintf("bench-%d", sched)
		if err := e.st.CreateSchedule(ctx, &store.Schedule{ID: id, TenantID: tenAcme, Name: id, CreatedAt: t0}); err != nil {
			b.Fatal(err)
		}
		if rows != nil {
			if err := e.st.UpsertScheduleRows(ctx, id, rows, t0); err != nil {
				b.Fatal(err)
			}
		}
		return id
	}
	upload := func(b *testing.B, id string, rows []cx.Row, wantCreated, wantUpdated int) {
		res, err := e.svc.Upload(ctx, caller, &cx.Request{ScheduleID: id, Rows: rows}, data.UploadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Summary.Created != wantCreated || res.Summary.Updated != wantUpdated {
			b.Fatalf("summary %+v", res.Summary)
		}
	}
	b.Run("service/new/rows=100k", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := newSchedule(nil)
			b.StartTimer()
			upload(b, id, first, n, 0)
		}
	})
	b.Run("service/replace/rows=100k", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := newSchedule(first)
			b.StartTimer()
			upload(b, id, second, 0, n)
		}
	})
	b.Run("http/new/rows=100k", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := newSchedule(nil)
			body := benchBody(id, first)
			b.SetBytes(int64(len(body)))
			b.StartTimer()
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+uploadPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+ownerA)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.Run("store/upsert/rows=100k", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			id := newSchedule(nil)
			b.StartTimer()
			if err := e.st.UpsertScheduleRows(ctx, id, first, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
