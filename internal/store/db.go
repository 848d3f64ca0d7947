package store

import (
	"context"
	"errors"
)

// Sentinel errors the adapters translate driver errors into.
var (
	ErrNoRows = errors.New("store: no rows")
	ErrUnique = errors.New("store: unique constraint violated")
)

// Dialects.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// Row is one result row.
type Row interface {
	Scan(dest ...any) error
}

// Rows is a result set; Close must be called.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// DB runs SQL written with PostgreSQL's $1 placeholders.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
}

// Conn is a connection pool to one database.
type Conn interface {
	DB
	// InTx runs fn in one transaction, committed when fn returns nil.
	InTx(ctx context.Context, fn func(tx DB) error) error
	Ping(ctx context.Context) error
	Dialect() string
	Close()
}

// Store is the platform's data access. Methods are grouped by noun in this package's files.
type Store struct {
	conn Conn
	db   DB
}

// New returns a Store over conn. Call Migrate before use.
func New(conn Conn) *Store { return &Store{conn: conn, db: conn} }

// Conn returns the underlying connection pool.
func (s *Store) Conn() Conn { return s.conn }

// Dialect names the database behind the store.
func (s *Store) Dialect() string { return s.conn.Dialect() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.conn.Ping(ctx) }

// Close releases the pool.
func (s *Store) Close() { s.conn.Close() }

// InTx runs fn with a Store bound to one transaction.
func (s *Store) InTx(ctx context.Context, fn func(tx *Store) error) error {
	if s.db != DB(s.conn) { // already in a transaction
		return fn(s)
	}
	return s.conn.InTx(ctx, func(tx DB) error { return fn(&Store{conn: s.conn, db: tx}) })
}

// Locks that serialize start-up work across replicas (Locked).
const (
	LockMigrate     int64 = 727001
	LockSigningKeys int64 = 727002
	LockSeed        int64 = 727003
)

// Locked runs fn in one transaction that holds the named lock until it ends,
// so replicas starting at once do one-time work (migrations, the first
// signing key, demo data) one after another and each sees what the one
// before it did. On PostgreSQL the lock is a transaction-level advisory
// lock; a SQLite transaction already holds the database's write lock.
func (s *Store) Locked(ctx context.Context, lock int64, fn func(tx *Store) error) error {
	return s.InTx(ctx, func(tx *Store) error {
		if tx.Dialect() == Postgres {
			if _, err := tx.db.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lock); err != nil {
				return err
			}
		}
		return fn(tx)
	})
}
