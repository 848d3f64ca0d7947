// Package postgres adapts a pgx connection pool to store.Conn.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Conn is a pgxpool-backed store.Conn.
type Conn struct {
	Pool *pgxpool.Pool
	q    querier // the pool, or the transaction of InTx
	opts Options
}

// Options size the pool and bound its waits (D-deadlines). Zero values take
// the defaults.
type Options struct {
	// MaxConns is the most connections this process opens (default 10).
	MaxConns int32
	// AcquireTimeout bounds the wait for a free connection; a pool that
	// stays busy longer answers EUNAVAILABLE (default 2 s).
	AcquireTimeout time.Duration
	// StatementTimeout is PostgreSQL's statement_timeout for every
	// statement, lock waits included (default 30 s); requests are usually
	// bounded sooner by their own deadline.
	StatementTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = 10
	}
	if o.AcquireTimeout <= 0 {
		o.AcquireTimeout = 2 * time.Second
	}
	if o.StatementTimeout <= 0 {
		o.StatementTimeout = 30 * time.Second
	}
	return o
}

type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

var _ store.Conn = (*Conn)(nil)

// Open connects to url (postgres://…) and checks the connection.
func Open(ctx context.Context, url string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	cfg.MaxConns = opts.MaxConns
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(opts.StatementTimeout.Milliseconds(), 10)
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &Conn{Pool: pool, q: pool, opts: opts}, nil
}

func (c *Conn) Dialect() string { return store.Postgres }
func (c *Conn) Close()          { c.Pool.Close() }

// Ping checks that a connection can be had and answers: EUNAVAILABLE with
// "database pool busy" when none frees up in time, "database unreachable"
// when the database does not answer.
func (c *Conn) Ping(ctx context.Context) error {
	conn, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	return mapErr(conn.Ping(ctx))
}

// acquire takes a pooled connection, waiting at most AcquireTimeout.
func (c *Conn) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	actx, cancel := context.WithTimeout(ctx, c.opts.AcquireTimeout)
	defer cancel()
	conn, err := c.Pool.Acquire(actx)
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		if c.Pool.Stat().TotalConns() >= c.opts.MaxConns {
			return nil, platform.Unavailable("the database is busy; try again shortly", errPoolBusy)
		}
		return nil, platform.Unavailable("the database is not answering; try again shortly", err)
	}
	return conn, mapErr(err)
}

// errPoolBusy: every connection stayed in use for the whole acquire timeout.
var errPoolBusy = errors.New("postgres: database pool busy")

// IsPoolBusy reports whether err says the pool had no free connection.
func IsPoolBusy(err error) bool { return errors.Is(err, errPoolBusy) }

func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if c.q != querier(c.Pool) {
		tag, err := c.q.Exec(ctx, sql, args...)
		return tag.RowsAffected(), mapErr(err)
	}
	conn, err := c.acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tag, err := conn.Exec(ctx, sql, args...)
	return tag.RowsAffected(), mapErr(err)
}

func (c *Conn) Query(ctx context.Context, sql string, args ...any) (store.Rows, error) {
	if c.q != querier(c.Pool) {
		rows, err := c.q.Query(ctx, sql, args...)
		if err != nil {
			return nil, mapErr(err)
		}
		return pgRows{Rows: rows}, nil
	}
	conn, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		conn.Release()
		return nil, mapErr(err)
	}
	return pgRows{Rows: rows, release: conn.Release}, nil
}

func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) store.Row {
	if c.q != querier(c.Pool) {
		return pgRow{row: c.q.QueryRow(ctx, sql, args...)}
	}
	conn, err := c.acquire(ctx)
	if err != nil {
		return pgRow{err: err}
	}
	return pgRow{row: conn.QueryRow(ctx, sql, args...), release: conn.Release}
}

// InTx runs fn in a transaction on one pooled connection.
func (c *Conn) InTx(ctx context.Context, fn func(store.DB) error) error {
	conn, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	return mapErr(pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		return fn(&Conn{Pool: c.Pool, q: tx, opts: c.opts})
	}))
}

// CopyFrom bulk-loads rows with the COPY protocol; it joins a running transaction.
func (c *Conn) CopyFrom(ctx context.Context, table string, columns []string, rows [][]any) (int64, error) {
	type copier interface {
		CopyFrom(ctx context.Context, t pgx.Identifier, c []string, src pgx.CopyFromSource) (int64, error)
	}
	n, err := c.q.(copier).CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows))
	return n, mapErr(err)
}

// pgRows are rows of a pooled connection, given back when they are closed.
type pgRows struct {
	pgx.Rows
	release func()
}

func (r pgRows) Err() error { return mapErr(r.Rows.Err()) }
func (r pgRows) Scan(dest ...any) error {
	return mapErr(r.Rows.Scan(dest...))
}
func (r pgRows) Close() {
	r.Rows.Close()
	if r.release != nil {
		r.release()
	}
}

// pgRow is one row; its pooled connection is given back after Scan.
type pgRow struct {
	row     pgx.Row
	release func()
	err     error
}

func (r pgRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	err := r.row.Scan(dest...)
	if r.release != nil {
		r.release()
	}
	return mapErr(err)
}

// mapErr turns driver errors into the store's sentinels, and the ways a
// database fails to answer (unreachable, a statement or lock wait cut off
// by statement_timeout, a request's deadline, a shutdown) into EUNAVAILABLE.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNoRows
	}
	if platform.ErrorCode(err) == platform.EUNAVAILABLE {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505":
			return fmt.Errorf("%w: %s", store.ErrUnique, pgErr.ConstraintName)
		case pgErr.Code == "57014", pgErr.Code == "55P03", strings.HasPrefix(pgErr.Code, "57P"), strings.HasPrefix(pgErr.Code, "08"):
			// query_canceled (statement_timeout), lock_not_available, shutdown, connection exceptions
			return platform.Unavailable("the database did not answer in time; try again shortly", err)
		}
		return err
	}
	var connErr *pgconn.ConnectError
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &connErr) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) {
		return platform.Unavailable("the database did not answer in time; try again shortly", err)
	}
	return err
}
