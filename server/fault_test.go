package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store/storetest"
)

// An upload whose database connection is terminated in the middle (a
// failover, an operator's pg_terminate_backend) answers 503 with
// Retry-After and leaves nothing of itself: the schedule holds exactly its
// rows from before (D-deadlines, D-cx all-or-nothing).
// spec: D-deadlines
func TestUploadBackendTerminated(t *testing.T) {
	t.Parallel()
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("terminates PostgreSQL backends; set " + storetest.EnvPostgres)
	}
	m := mustRunMainWith(t, func(m *Main) { m.Config.UploadTimeout = 5 * time.Minute })
	alice := signIn(t, m, "alice@acme.example")
	ctx := context.Background()
	before, err := m.Store.ScheduleRows(ctx, DemoHarborScheduleID)
	if err != nil || len(before) == 0 {
		t.Fatalf("the demo schedule's rows: %d, %v", len(before), err)
	}
	var rows []map[string]string
	for i := range 2000 {
		rows = append(rows, map[string]string{"ID": fmt.Sprintf("T-%04d", i), "Name": fmt.Sprintf("Task %d", i)})
	}
	body, _ := json.Marshal(map[string]any{"scheduleId": DemoHarborScheduleID, "data": rows})

	release := mustLockTable(t, m, "schedule_rows") // the upload waits here, inside its transaction
	answer := make(chan answerWithHeader, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, m.Config.InstanceURL+"/api/v1/cx/upload", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+alice.tenant.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- answerWithHeader{}
			return
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		answer <- answerWithHeader{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: out}
	}()
	waitForLockWaiters(t, m.Config.DatabaseURL, 1)
	admin, err := pgx.Connect(ctx, os.Getenv(storetest.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	u, _ := url.Parse(m.Config.DatabaseURL)
	if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND wait_event_type = 'Lock'`, strings.TrimPrefix(u.Path, "/")); err != nil {
		t.Fatal(err)
	}
	a := <-answer
	release()
	if a.status != http.StatusServiceUnavailable || a.retryAfter == "" || a.body["code"] != float64(503) {
		t.Fatalf("upload whose connection was terminated: %d Retry-After=%q %v", a.status, a.retryAfter, a.body)
	}
	after, err := m.Store.ScheduleRows(ctx, DemoHarborScheduleID)
	if err != nil || len(after) != len(before) {
		t.Fatalf("the schedule after the failed upload: %d rows (before %d), %v", len(after), len(before), err)
	}
}

type answerWithHeader struct {
	status     int
	retryAfter string
	body       map[string]any
}
