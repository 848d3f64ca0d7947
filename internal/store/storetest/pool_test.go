package storetest

import (
	"context"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store"
)

// A pool database comes to the next test as the template made it: the rows
// a test wrote gone, the rows the migrations insert back, and a database a
// test left refusing connections made again.
func TestPoolDatabaseIsEmptiedForTheNextTest(t *testing.T) {
	serverURL := os.Getenv(EnvPostgres)
	if serverURL == "" {
		t.Skip("the pool is PostgreSQL's; set " + EnvPostgres)
	}
	var used string
	var permissions int
	t.Run("writes", func(t *testing.T) {
		used = NewMigratedDatabaseURL(t)
		conn := connect(t, used)
		permissions = count(t, conn, "role_permissions")
		if permissions == 0 {
			t.Fatal("the migrations seed role_permissions; the template has none")
		}
		mustExec(t, conn, "INSERT INTO organizations (id, name, created_at) VALUES ('org-1', 'Left behind', now())")
		mustExec(t, conn, "INSERT INTO users (id, org_id, email, email_verified, name, password_hash, failed_logins, created_at, updated_at) VALUES ('user-1', 'org-1', 'a@example.com', true, 'A', '', 0, now(), now())")
		mustExec(t, conn, "DELETE FROM role_permissions WHERE role = 'platform_admin'")
	})
	t.Run("reads", func(t *testing.T) {
		again := NewMigratedDatabaseURL(t)
		if dbName(again) != dbName(used) || !strings.HasPrefix(dbName(again), "platform_pool_") {
			t.Fatalf("the next test got %s, not the pool database %s it gave back", dbName(again), dbName(used))
		}
		conn := connect(t, again)
		if n := count(t, conn, "organizations") + count(t, conn, "users"); n != 0 {
			t.Errorf("%d rows of the last test left", n)
		}
		if n := count(t, conn, "role_permissions"); n != permissions {
			t.Errorf("role_permissions: %d rows, want the migrations' %d", n, permissions)
		}
		admin := connect(t, serverURL)
		mustExec(t, admin, "ALTER DATABASE "+dbName(again)+" ALLOW_CONNECTIONS false")
	})
	t.Run("made again", func(t *testing.T) {
		again := NewMigratedDatabaseURL(t)
		conn := connect(t, again)
		if n := count(t, conn, "role_permissions"); n != permissions {
			t.Errorf("role_permissions: %d rows, want the migrations' %d", n, permissions)
		}
	})
}

// A store of NewPostgres runs on the connections its binary keeps to the
// pool database, warm from the test before: the next test gets the same
// server connection, the rows of the last test gone; the store the last
// test had refuses statements, so nothing it left running writes into the
// next test; and connections a test ended make way for new ones.
//
// Not parallel, like the test above: each subtest must get back the pool
// database the one before gave back.
func TestPoolKeepsItsConnectionsForTheNextTest(t *testing.T) {
	serverURL := os.Getenv(EnvPostgres)
	if serverURL == "" {
		t.Skip("the pool is PostgreSQL's; set " + EnvPostgres)
	}
	ctx := context.Background()
	session := func(t *testing.T, st *store.Store) (db string, pid int) {
		t.Helper()
		if err := st.Conn().QueryRow(ctx, "SELECT current_database(), pg_backend_pid()").Scan(&db, &pid); err != nil {
			t.Fatal(err)
		}
		return db, pid
	}
	var first *store.Store
	var db string
	var pid int
	t.Run("writes", func(t *testing.T) {
		first = NewPostgres(t, serverURL)
		db, pid = session(t, first)
		if _, err := first.Conn().Exec(ctx, "INSERT INTO organizations (id, name, created_at) VALUES ('org-1', 'Left behind', now())"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("same connection", func(t *testing.T) {
		st := NewPostgres(t, serverURL)
		if gotDB, gotPID := session(t, st); gotDB != db || gotPID != pid {
			t.Errorf("the next test runs on %s, backend %d; want the kept connection to %s, backend %d", gotDB, gotPID, db, pid)
		}
		var n int
		if err := st.Conn().QueryRow(ctx, "SELECT count(*) FROM organizations WHERE id = 'org-1'").Scan(&n); err != nil || n != 0 {
			t.Errorf("rows of the last test: %d (%v), want 0", n, err)
		}
		if _, err := first.Conn().Exec(ctx, "INSERT INTO organizations (id, name, created_at) VALUES ('org-2', 'Late', now())"); !errors.Is(err, errLoanEnded) {
			t.Errorf("the last test's store wrote into this test's database: %v", err)
		}
		if err := first.Conn().QueryRow(ctx, "SELECT 1").Scan(new(int)); !errors.Is(err, errLoanEnded) {
			t.Errorf("the last test's store read: %v", err)
		}
		mustExec(t, connect(t, serverURL), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"+db+"' AND pid <> pg_backend_pid()")
	})
	t.Run("after the connections ended", func(t *testing.T) {
		st := NewPostgres(t, serverURL)
		gotDB, gotPID := session(t, st)
		if gotDB != db {
			t.Fatalf("got %s, want the pool database %s", gotDB, db)
		}
		if gotPID == pid {
			t.Errorf("backend %d was ended, yet serves", pid)
		}
	})
}

func connect(t *testing.T, u string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, conn *pgx.Conn, table string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func dbName(u string) string {
	p, _ := url.Parse(u)
	return strings.TrimPrefix(p.Path, "/")
}
