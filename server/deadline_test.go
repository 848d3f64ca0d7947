package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store/storetest"
)

// mustLockTable holds an exclusive lock on table of m's database, as a
// long migration or a stuck transaction would, until release is called.
func mustLockTable(t *testing.T, m *Main, table string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, m.Config.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE "+table+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			_ = tx.Rollback(ctx)
			conn.Close(ctx)
		}
	}
	t.Cleanup(release)
	return release
}

// A request whose database work is stuck behind a lock ends at its deadline
// with 503, Retry-After and the 7.1 object, not after the lock is gone;
// routes that do not need the locked table answer meanwhile.
// spec: D-deadlines
func TestDeadlineHeldLock(t *testing.T) {
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("table locks are PostgreSQL's; set " + storetest.EnvPostgres)
	}
	m := mustRunMainWith(t, func(m *Main) { m.Config.RequestTimeout = 500 * time.Millisecond })
	release := mustLockTable(t, m, "users")
	client := &http.Client{Timeout: time.Minute} // a safety net: the product's own deadline is what is tested
	resp, err := client.Post(m.Config.ConsoleURL+"/api/v1/login/resolve-org", "application/json",
		bytes.NewBufferString(`{"email":"alice@acme.example"}`))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || body["code"] != float64(503) {
		t.Fatalf("resolve-org behind a held lock: %d Retry-After=%q %v", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if code, _ := get(t, m.Config.ConsoleURL+"/api/v1/login/resolve-client?client_id=instance-demo&redirect_uri=x"); code != http.StatusOK {
		t.Fatalf("a route that does not need the locked table answered %d", code)
	}
	release()
	if code, _ := get(t, m.Config.IssuerURL+"/healthz"); code != http.StatusOK {
		t.Fatalf("healthz = %d", code)
	}
	resp, err = http.Post(m.Config.ConsoleURL+"/api/v1/login/resolve-org", "application/json",
		bytes.NewBufferString(`{"email":"alice@acme.example"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after the lock is released resolve-org answered %d", resp.StatusCode)
	}
}
