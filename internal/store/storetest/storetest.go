// Package storetest opens throwaway databases for tests and holds the store
// conformance suite that PostgreSQL and SQLite both pass.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/postgres"
	"github.com/platform/platform/internal/store/sqlite"
)

// EnvPostgres names the variable holding a PostgreSQL server URL for tests.
// When set, New uses a fresh database on that server; otherwise SQLite.
const EnvPostgres = "TEST_DATABASE_URL"

// New returns a migrated store on the test database of this run: PostgreSQL
// when TEST_DATABASE_URL is set, SQLite otherwise.
func New(t testing.TB) *store.Store {
	t.Helper()
	if u := os.Getenv(EnvPostgres); u != "" {
		return NewPostgres(t, u)
	}
	return NewSQLite(t)
}

// NewSQLite returns a migrated store on a new SQLite file in t's temp dir
// (a copy of the migrated template).
func NewSQLite(t testing.TB) *store.Store {
	t.Helper()
	conn, err := sqlite.Open(context.Background(), newSQLiteFile(t))
	if err != nil {
		t.Fatal(err)
	}
	return open(t, store.New(conn))
}

// NewPostgres returns a migrated store on the server at serverURL: a pool
// database with the connections the binary keeps to it, lent to t until it
// ends, or, when the pool is all in use, a throwaway copy of the migrated
// template, dropped when the test ends.
func NewPostgres(t testing.TB, serverURL string) *store.Store {
	t.Helper()
	ctx := context.Background()
	tmpl, err := postgresTemplate(ctx, serverURL)
	if err != nil {
		t.Fatalf("template database: %v", err)
	}
	if d := claimPostgres(t, serverURL, tmpl); d != nil {
		if err := d.open(ctx); err != nil {
			t.Fatal(err)
		}
		return open(t, store.New(lend(d.conn)))
	}
	conn, err := postgres.Open(ctx, throwawayDatabase(t, serverURL, " TEMPLATE "+tmpl), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return open(t, store.New(conn))
}

func open(t testing.TB, st *store.Store) *store.Store {
	t.Helper()
	t.Cleanup(st.Close)
	return st
}

// NewDatabaseURL returns a DATABASE_URL for a fresh, empty database of this
// run's kind (a throwaway PostgreSQL database or a new SQLite file), removed
// when the test ends.
func NewDatabaseURL(t testing.TB) string {
	t.Helper()
	serverURL := os.Getenv(EnvPostgres)
	if serverURL == "" {
		return "sqlite:" + filepath.Join(t.TempDir(), "platform.db")
	}
	return newPostgresDatabase(t, serverURL, false)
}

// NewMigratedDatabaseURL is NewDatabaseURL with every migration applied (a
// copy of the migrated template), for tests of what runs on a database rather
// than of migrating one.
func NewMigratedDatabaseURL(t testing.TB) string {
	t.Helper()
	serverURL := os.Getenv(EnvPostgres)
	if serverURL == "" {
		return "sqlite:" + newSQLiteFile(t)
	}
	return newPostgresDatabase(t, serverURL, true)
}

// newSQLiteFile copies the migrated template to a new file in t's temp dir.
func newSQLiteFile(t testing.TB) string {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("sqlite template: %v", err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := copyFile(path, tmpl); err != nil {
		t.Fatal(err)
	}
	return path
}

// newPostgresDatabase gives the test a database on the server, dropped or
// given back to the pool when the test ends: migrated (a pool database, or a
// copy of the template when the pool is all in use) or empty.
func newPostgresDatabase(t testing.TB, serverURL string, migrated bool) string {
	t.Helper()
	if !migrated {
		return throwawayDatabase(t, serverURL, "")
	}
	tmpl, err := postgresTemplate(context.Background(), serverURL)
	if err != nil {
		t.Fatalf("template database: %v", err)
	}
	if d := claimPostgres(t, serverURL, tmpl); d != nil {
		return d.url
	}
	return throwawayDatabase(t, serverURL, " TEMPLATE "+tmpl)
}

// throwawayDatabase makes a database on the server with the clause create
// ("" or " TEMPLATE …"), dropped when t ends.
func throwawayDatabase(t testing.TB, serverURL, create string) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "platform_test_" + hex.EncodeToString(b)
	if err := onServer(serverURL, "CREATE DATABASE "+name+create, "ALTER DATABASE "+name+" "+testDatabaseSettings); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := onServer(serverURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Log(err)
		}
	})
	return databaseURL(serverURL, name)
}

// testDatabaseSettings are the settings of every test database: a commit
// does not wait for its WAL to reach the disk (a test database need not
// survive a crash of the server; the tests' many small commits run 25 %
// faster).
const testDatabaseSettings = "SET synchronous_commit = off"

// onServer runs statements on the server at serverURL.
func onServer(serverURL string, statements ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", EnvPostgres, err)
	}
	defer admin.Close(ctx)
	for _, statement := range statements {
		if _, err := admin.Exec(ctx, statement); err != nil {
			return fmt.Errorf("%s: %w", statement, err)
		}
	}
	return nil
}

// databaseURL is serverURL with its database replaced by name.
func databaseURL(serverURL, name string) string {
	u, _ := url.Parse(serverURL)
	u.Path = "/" + name
	return u.String()
}
