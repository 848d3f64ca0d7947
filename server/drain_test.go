package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store/storetest"
	"github.com/platform/platform/internal/testkit"
)

// lockUsers holds an exclusive lock on the users table of dbURL until
// release, so requests that read users wait.
func lockUsers(t *testing.T, dbURL string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := conn.Begin(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE users IN ACCESS EXCLUSIVE MODE"); err != nil {
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

// resolveOrgAsync starts a resolve-org request and returns its status.
func resolveOrgAsync(url string) <-chan int {
	out := make(chan int, 1)
	go func() {
		c := &http.Client{Timeout: 2 * time.Minute}
		resp, err := c.Post(url+"/api/v1/login/resolve-org", "application/json", bytes.NewBufferString(`{"email":"alice@acme.example"}`))
		if err != nil {
			out <- 0
			return
		}
		resp.Body.Close()
		out <- resp.StatusCode
	}()
	return out
}

func readyReason(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var body map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body["reason"]
}

// On SIGTERM the process drains (D-drain): readiness answers 503
// "draining" for DRAIN_DELAY while requests are still served, then the
// listeners close, a request in flight finishes, and the process exits 0.
// A request still running after SHUTDOWN_GRACE is cut off: the process
// still exits 0, soon after the grace.
// spec: D-drain
func TestSIGTERMDrain(t *testing.T) {
	// serial: its server processes listen on ports picked free beforehand (freePorts),
	// which a test running beside it could take first
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("the in-flight request waits on a PostgreSQL table lock; set " + storetest.EnvPostgres)
	}
	t.Run("InFlightFinishes", func(t *testing.T) {
		db := storetest.NewDatabaseURL(t)
		p := startProcess(t, db, "DRAIN_DELAY=2s", "SHUTDOWN_GRACE=20s", "REQUEST_TIMEOUT=60s")
		release := lockUsers(t, db)
		inFlight := resolveOrgAsync(p.URL(1))
		waitForLockWaiters(t, db, 1)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code, reason := readyReasonEventually(t, p.URL(1), "draining"); code != http.StatusServiceUnavailable {
			t.Fatalf("readiness while draining: %d %q", code, reason)
		}
		if code, _ := get(t, p.URL(0)+"/healthz"); code != http.StatusOK {
			t.Fatalf("a request during the drain delay answered %d", code)
		}
		release()
		if code := <-inFlight; code != http.StatusOK {
			t.Fatalf("the request in flight at SIGTERM answered %d", code)
		}
		if err, ok := p.wait(60 * time.Second); !ok || err != nil {
			t.Fatalf("exit after the drain: %v (exited %v)\n%s", err, ok, p.logs.String())
		}
	})
	t.Run("GraceEnforced", func(t *testing.T) {
		db := storetest.NewDatabaseURL(t)
		p := startProcess(t, db, "DRAIN_DELAY=0s", "SHUTDOWN_GRACE=2s", "REQUEST_TIMEOUT=5m", "DB_STATEMENT_TIMEOUT=5m")
		lockUsers(t, db) // never released while the process runs
		stuck := resolveOrgAsync(p.URL(1))
		waitForLockWaiters(t, db, 1)
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err, ok := p.wait(60 * time.Second); !ok || err != nil {
			t.Fatalf("a request stuck past the grace kept the process: exit %v (exited %v)\n%s", err, ok, p.logs.String())
		}
		if code := <-stuck; code == http.StatusOK {
			t.Fatal("the stuck request was answered as if it had finished")
		}
	})
}

// readyReasonEventually polls /readyz until it names reason (the signal is
// handled asynchronously).
func readyReasonEventually(t *testing.T, url, reason string) (int, string) {
	t.Helper()
	var code int
	var got string
	testkit.EventuallyWithin(testkit.Wait, func() bool {
		code, got = readyReason(t, url)
		return got == reason
	})
	return code, got
}
