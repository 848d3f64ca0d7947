package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/postgres"
	"github.com/platform/platform/internal/store/sqlite"
	"github.com/platform/platform/migrations"
)

// A test's database is a copy of a migrated template: migrating costs tens of
// statements per migration, a copy one statement (PostgreSQL's CREATE
// DATABASE … TEMPLATE) or one file copy (SQLite). Templates are named by a
// hash of the migrations, so test binaries of one tree share them, and a tree
// with other migrations (a branch, a new file) makes its own.

// migrationsHash is the first 12 hex digits of SHA-256 over the migrations'
// names and contents.
var migrationsHash = sync.OnceValue(func() string {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		body, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(body))
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
})

// templateFormat names what a PostgreSQL template holds beyond the migrated
// schema (2: the seed schema pool databases are emptied to), so a template an
// older tree made is not taken for one.
const templateFormat = "2"

// lockTemplate is the advisory lock that serializes making a PostgreSQL
// template across test binaries running at once.
const lockTemplate int64 = 727100

// postgresTemplates remembers, per server URL, the template this process made
// or found.
var postgresTemplates sync.Map // serverURL → *templateOnce

type templateOnce struct {
	once sync.Once
	name string
	err  error
}

// postgresTemplate returns the name of a migrated template database on the
// server, making it once: under an advisory lock, a database that exists
// and is marked as a template is taken as it is; anything else of that name
// (a run that stopped half way) is dropped and made again.
func postgresTemplate(ctx context.Context, serverURL string) (string, error) {
	v, _ := postgresTemplates.LoadOrStore(serverURL, &templateOnce{})
	o := v.(*templateOnce)
	o.once.Do(func() {
		admin, err := pgx.Connect(ctx, serverURL)
		if err != nil {
			o.err = err
			return
		}
		defer admin.Close(context.Background())
		o.name, o.err = makePostgresTemplate(ctx, admin, serverURL)
	})
	return o.name, o.err
}

func makePostgresTemplate(ctx context.Context, admin *pgx.Conn, serverURL string) (string, error) {
	name := "platform_tmpl_" + migrationsHash() + "_" + templateFormat
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", lockTemplate); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockTemplate) //nolint:errcheck
	var isTemplate bool
	err := admin.QueryRow(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&isTemplate)
	switch {
	case err == nil && isTemplate:
		return name, nil
	case err == nil:
		if _, err := admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			return "", err
		}
	case err != pgx.ErrNoRows:
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	conn, err := postgres.Open(ctx, databaseURL(serverURL, name), postgres.Options{})
	if err != nil {
		return "", err
	}
	st := store.New(conn)
	_, err = st.Migrate(ctx, migrations.FS)
	st.Close()
	if err != nil {
		return "", fmt.Errorf("migrate template: %w", err)
	}
	seedConn, err := pgx.Connect(ctx, databaseURL(serverURL, name))
	if err != nil {
		return "", err
	}
	err = seedTemplate(ctx, seedConn)
	seedConn.Close(ctx)
	if err != nil {
		return "", fmt.Errorf("seed schema of the template: %w", err)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return "", err
	}
	return name, nil
}

// sqliteTemplate is the path of a migrated SQLite file in the system's
// temporary directory, made once per migrations hash: written under another
// name and renamed into place, so test binaries running at once never read
// half a file.
var sqliteTemplate = sync.OnceValues(func() (string, error) {
	path := filepath.Join(os.TempDir(), "platform-test-"+migrationsHash()+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	dir, err := os.MkdirTemp("", "platform-template-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "template.db")
	ctx := context.Background()
	conn, err := sqlite.Open(ctx, tmp)
	if err != nil {
		return "", err
	}
	st := store.New(conn)
	_, err = st.Migrate(ctx, migrations.FS)
	if err == nil {
		_, err = conn.DB.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	st.Close()
	if err != nil {
		return "", fmt.Errorf("migrate template: %w", err)
	}
	// The file is complete once the last connection has closed (the WAL is
	// checkpointed into it).
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
})

// copyFile copies src to a new file dst.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
