package store

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migrate applies, in order and each in its own transaction, every migration in
// fsys that the database has not seen. Migrations are forward only.
// Every step, the creation of schema_migrations included, runs under
// LockMigrate, so replicas that start at once on an empty database migrate
// one after another.
func (s *Store) Migrate(ctx context.Context, fsys fs.FS) (applied []string, err error) {
	err = s.Locked(ctx, LockMigrate, func(tx *Store) error {
		_, err := tx.db.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	numbered := map[int]string{} // a second file of one number would never run
	for _, name := range names {
		version, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", name)
		}
		if other, ok := numbered[version]; ok {
			return nil, fmt.Errorf("migrations %s and %s have the same number", other, name)
		}
		numbered[version] = name
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		err = s.Locked(ctx, LockMigrate, func(tx *Store) error {
			var n int
			if err := tx.db.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			for _, stmt := range splitStatements(s.rewriteDDL(string(body))) {
				if _, err := tx.db.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("%w\n%s", err, stmt)
				}
			}
			if _, err := tx.db.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				version, name, time.Now().UTC()); err != nil {
				return err
			}
			applied = append(applied, name)
			return nil
		})
		if err != nil {
			return applied, fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return applied, nil
}

func (s *querier) rewriteDDL(sql string) string {
	if s.Dialect() != SQLite {
		return sql
	}
	return strings.NewReplacer("TIMESTAMPTZ", "TIMESTAMP", "BYTEA", "BLOB").Replace(sql)
}

// splitStatements splits a migration at semicolons that end a line, dropping
// comment-only lines. Migrations keep one statement per terminated line.
func splitStatements(sql string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(sql, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}
