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

// Store is the platform's data access: the composition of its areas, each a
// type with the methods and row models of its own files (areas.go names
// them), all sharing one querier. A consumer that needs one area may take
// that area's type; InTx hands out the whole composition bound to one
// transaction.
type Store struct {
	querier
	Identity
	OIDC
	Tenancy
	Billing
	Data
	Events
	System
}

// querier is what every area shares: the pool, the handle statements run
// on (the pool, or one transaction of it) and the composition it serves.
type querier struct {
	conn Conn
	db   DB
	all  *Store
}

// New returns a Store over conn. Call Migrate before use.
func New(conn Conn) *Store { return compose(conn, conn) }

// compose builds the areas over one querier running statements on db.
func compose(conn Conn, db DB) *Store {
	s := &Store{querier: querier{conn: conn, db: db}}
	q := &s.querier
	q.all = s
	s.Identity, s.OIDC, s.Tenancy, s.Billing = Identity{q}, OIDC{q}, Tenancy{q}, Billing{q}
	s.Data, s.Events, s.System = Data{q}, Events{q}, System{q}
	return s
}

// Conn returns the underlying connection pool.
func (s *Store) Conn() Conn { return s.conn }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.conn.Ping(ctx) }

// Close releases the pool.
func (s *Store) Close() { s.conn.Close() }

// Dialect names the database behind the store.
func (q *querier) Dialect() string { return q.conn.Dialect() }

// InTx runs fn with a Store bound to one transaction; within one already,
// fn runs in it.
func (q *querier) InTx(ctx context.Context, fn func(tx *Store) error) error {
	if q.db != DB(q.conn) { // already in a transaction
		return fn(q.all)
	}
	return q.conn.InTx(ctx, func(tx DB) error { return fn(compose(q.conn, tx)) })
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
