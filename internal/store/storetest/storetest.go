// Package storetest opens throwaway databases for tests and holds the store
// conformance suite that PostgreSQL and SQLite both pass.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// NewPostgres returns a migrated store on a throwaway database on the server
// at serverURL (a copy of the migrated template), dropped when the test ends.
func NewPostgres(t testing.TB, serverURL string) *store.Store {
	t.Helper()
	conn, err := postgres.Open(context.Background(), newPostgresDatabase(t, serverURL, true), postgres.Options{})
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

// newPostgresDatabase makes a throwaway database on the server, migrated (a
// copy of the template) or empty, dropped when the test ends.
func newPostgresDatabase(t testing.TB, serverURL string, migrated bool) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvPostgres, err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "platform_test_" + hex.EncodeToString(b)
	create := "CREATE DATABASE " + name
	if migrated {
		tmpl, err := postgresTemplate(ctx, admin, serverURL)
		if err != nil {
			admin.Close(ctx)
			t.Fatalf("template database: %v", err)
		}
		create += " TEMPLATE " + tmpl
	}
	if _, err := admin.Exec(ctx, create); err != nil {
		admin.Close(ctx)
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop database %s: %v", name, err)
		}
		admin.Close(ctx)
	})
	return databaseURL(serverURL, name)
}

// databaseURL is serverURL with its database replaced by name.
func databaseURL(serverURL, name string) string {
	u, _ := url.Parse(serverURL)
	u.Path = "/" + name
	return u.String()
}
