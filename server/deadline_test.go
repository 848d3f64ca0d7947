package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store/postgres"
	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/testkit"
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
	t.Parallel()
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

// waitForLockWaiters waits until n backends of the database of dbURL
// wait on a lock.
func waitForLockWaiters(t *testing.T, dbURL string, n int) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, os.Getenv(storetest.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	testkit.Eventually(t, fmt.Sprintf("%d requests waiting on the lock", n), func() bool {
		var waiting int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
			name).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		return waiting >= n
	})
}

// readyz tells a busy pool from an unreachable database: with every
// connection held by requests waiting on a lock it answers "database pool
// busy" (and database requests answer 503 at once); with the database
// refusing connections it answers "database unreachable".
// spec: D-deadlines
func TestReadinessReasons(t *testing.T) {
	t.Parallel()
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("needs PostgreSQL; set " + storetest.EnvPostgres)
	}
	m := mustRunMainWith(t, func(m *Main) {
		m.Config.DBMaxConns, m.Config.DBAcquireTimeout, m.Config.RequestTimeout = 2, 300*time.Millisecond, time.Minute
	})
	if code, reason := readyReason(t, m.Config.ConsoleURL); code != http.StatusOK {
		t.Fatalf("readyz before: %d %q", code, reason)
	}
	release := mustLockTable(t, m, "users")
	held := []<-chan int{resolveOrgAsync(m.Config.ConsoleURL), resolveOrgAsync(m.Config.ConsoleURL)}
	waitForLockWaiters(t, m.Config.DatabaseURL, 2) // both connections held by requests waiting on the lock
	if code, reason := readyReason(t, m.Config.ConsoleURL); code != http.StatusServiceUnavailable || reason != "database pool busy" {
		t.Fatalf("readyz with the pool held: %d %q", code, reason)
	}
	if code := <-resolveOrgAsync(m.Config.ConsoleURL); code != http.StatusServiceUnavailable {
		t.Fatalf("a request with the pool held: %d", code)
	}
	release()
	for _, h := range held {
		if code := <-h; code != http.StatusOK {
			t.Fatalf("a request that waited on the lock: %d", code)
		}
	}
	// the database stops taking connections
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, os.Getenv(storetest.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := m.Store.Conn().(*postgres.Conn).Pool.Config().ConnConfig.Database
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS false"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(ctx, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true") })
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name); err != nil {
		t.Fatal(err)
	}
	if code, reason := readyReasonEventually(t, m.Config.ConsoleURL, "database unreachable"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz with the database refusing connections: %d %q", code, reason)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true"); err != nil {
		t.Fatal(err)
	}
	if code, reason := readyReasonEventually(t, m.Config.ConsoleURL, ""); code != http.StatusOK {
		t.Fatalf("readyz after the database came back: %d %q", code, reason)
	}
}

// A client that sends its body slowly (slowloris) holds its connection no
// longer than the request's deadline: the server stops reading, answers
// and closes, instead of waiting for the body for minutes.
// attack: slow-body
func TestAttackSlowBody(t *testing.T) {
	t.Parallel()
	m := mustRunMainWith(t, func(m *Main) { m.Config.RequestTimeout = time.Second })
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.Config.ConsoleURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /api/v1/login/resolve-org HTTP/1.1\r\nHost: console\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"email\":"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute)) // a safety net; the server's deadline is what is tested
	answer, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server was still waiting for the body after a minute")
	}
	if strings.HasPrefix(string(answer), "HTTP/1.1 200") {
		t.Fatalf("a request whose body never came answered 200:\n%s", answer)
	}
}
