// Package sqlite adapts embedded SQLite (modernc.org/sqlite, pure Go) to store.Conn.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/platform/platform/internal/store"
)

// Conn is a database/sql-backed store.Conn over one SQLite file.
type Conn struct {
	DB    *sql.DB
	q     querier
	stmts *stmtCache
	w     writer  // the process's one writer at a time (D-sqlite-writer)
	tx    *sql.Tx // set in a transaction
	// unkept, in a transaction: the queries it ran that no statement was
	// kept for, which InTx prepares for the cache once it has committed
	unkept *[]string
}

type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

var _ store.Conn = (*Conn)(nil)

// maxConns bounds the connections to the file: readers run beside each
// other and beside the one writer (WAL).
const maxConns = 8

// Open opens (creating when needed) the database file at path, or an in-memory
// database for ":memory:". WAL mode lets readers run beside the one writer;
// transactions take the write lock up front so they never deadlock.
func Open(ctx context.Context, path string) (*Conn, error) {
	dsn := "file:" + path
	if path == ":memory:" {
		dsn = "file::memory:?mode=memory&cache=shared"
	} else if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	dsn += sep + "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// every connection stays open: a new one parses the schema and
	// prepares its statements again
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return &Conn{DB: db, q: db, stmts: newStmtCache(db), w: newWriter()}, nil
}

func (c *Conn) Dialect() string                { return store.SQLite }
func (c *Conn) Ping(ctx context.Context) error { return c.DB.PingContext(ctx) }
func (c *Conn) Close() {
	c.stmts.close()
	c.DB.Close()
}

// querier is query's kept statement, or q. A transaction uses a statement
// kept before and prepares none for the cache: preparing takes another
// connection, which statements waiting for the transaction's write lock
// could all hold. It notes the query instead, and InTx keeps it once the
// transaction has ended, so a statement that only ever runs in
// transactions (a token's inserts) is compiled once, not on every call.
func (c *Conn) querier(ctx context.Context, query string) querier {
	if c.tx != nil {
		if st := c.stmts.kept(query); st != nil {
			return stmtQuerier{c.tx.StmtContext(ctx, st)} // closed with the transaction
		}
		if !slices.Contains(*c.unkept, query) {
			*c.unkept = append(*c.unkept, query)
		}
	} else if st := c.stmts.get(ctx, query); st != nil {
		return stmtQuerier{st}
	}
	return c.q
}

func (c *Conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	query = rewrite(query)
	if c.tx == nil && writes(query) {
		defer c.w.acquire(ctx)()
	}
	res, err := c.querier(ctx, query).ExecContext(ctx, query, args...)
	if err != nil {
		return 0, mapErr(err)
	}
	return res.RowsAffected()
}

// Query and QueryRow take no writer slot, also for a statement that writes
// (UPDATE … RETURNING): the slot would be held until the rows are closed
// or scanned, which nothing guarantees; SQLite's busy handler orders them.
func (c *Conn) Query(ctx context.Context, query string, args ...any) (store.Rows, error) {
	query = rewrite(query)
	rows, err := c.querier(ctx, query).QueryContext(ctx, query, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	return sqlRows{rows}, nil
}

func (c *Conn) QueryRow(ctx context.Context, query string, args ...any) store.Row {
	query = rewrite(query)
	return sqlRow{c.querier(ctx, query).QueryRowContext(ctx, query, args...)}
}

// InTx runs fn in an immediate (write-locking) transaction, once the
// writer slot is this one's (D-sqlite-writer).
func (c *Conn) InTx(ctx context.Context, fn func(store.DB) error) error {
	var unkept []string
	err := c.inTx(ctx, func(tx *sql.Tx) error {
		return fn(&Conn{DB: c.DB, q: tx, stmts: c.stmts, w: c.w, tx: tx, unkept: &unkept})
	})
	for _, q := range unkept { // the transaction has ended: its connection is back
		c.stmts.get(context.WithoutCancel(ctx), q)
	}
	return err
}

func (c *Conn) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	defer c.w.acquire(ctx)()
	tx, err := c.DB.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return mapErr(tx.Commit())
}

// stmtQuerier runs a prepared statement; the query text is its own.
type stmtQuerier struct{ st *sql.Stmt }

func (s stmtQuerier) ExecContext(ctx context.Context, _ string, args ...any) (sql.Result, error) {
	return s.st.ExecContext(ctx, args...)
}

func (s stmtQuerier) QueryContext(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
	return s.st.QueryContext(ctx, args...)
}

func (s stmtQuerier) QueryRowContext(ctx context.Context, _ string, args ...any) *sql.Row {
	return s.st.QueryRowContext(ctx, args...)
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close()                 { r.Rows.Close() }
func (r sqlRows) Err() error             { return mapErr(r.Rows.Err()) }
func (r sqlRows) Scan(dest ...any) error { return mapErr(r.Rows.Scan(dest...)) }

type sqlRow struct{ row *sql.Row }

func (r sqlRow) Scan(dest ...any) error { return mapErr(r.row.Scan(dest...)) }

func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNoRows
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", store.ErrUnique, se.Error())
		}
	}
	return err
}

// rewrite turns $N placeholders into SQLite's ?N outside quoted text.
func rewrite(query string) string {
	var b strings.Builder
	b.Grow(len(query))
	var quote byte
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '$' && i+1 < len(query) && query[i+1] >= '0' && query[i+1] <= '9':
			ch = '?'
		}
		b.WriteByte(ch)
	}
	return b.String()
}
