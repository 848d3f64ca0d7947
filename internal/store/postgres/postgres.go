// Package postgres adapts a pgx connection pool to store.Conn.
package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/platform/platform/internal/store"
)

// Conn is a pgxpool-backed store.Conn.
type Conn struct {
	Pool *pgxpool.Pool
	q    querier
}

type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

var _ store.Conn = (*Conn)(nil)

// Open connects to url (postgres://…) and checks the connection.
func Open(ctx context.Context, url string) (*Conn, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &Conn{Pool: pool, q: pool}, nil
}

func (c *Conn) Dialect() string                { return store.Postgres }
func (c *Conn) Ping(ctx context.Context) error { return c.Pool.Ping(ctx) }
func (c *Conn) Close()                         { c.Pool.Close() }

func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := c.q.Exec(ctx, sql, args...)
	return tag.RowsAffected(), mapErr(err)
}

func (c *Conn) Query(ctx context.Context, sql string, args ...any) (store.Rows, error) {
	rows, err := c.q.Query(ctx, sql, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	return pgRows{rows}, nil
}

func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) store.Row {
	return pgRow{c.q.QueryRow(ctx, sql, args...)}
}

// InTx runs fn in a transaction on one pooled connection.
func (c *Conn) InTx(ctx context.Context, fn func(store.DB) error) error {
	return mapErr(pgx.BeginFunc(ctx, c.Pool, func(tx pgx.Tx) error {
		return fn(&Conn{Pool: c.Pool, q: tx})
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

type pgRows struct{ pgx.Rows }

func (r pgRows) Err() error { return mapErr(r.Rows.Err()) }
func (r pgRows) Scan(dest ...any) error {
	return mapErr(r.Rows.Scan(dest...))
}

type pgRow struct{ row pgx.Row }

func (r pgRow) Scan(dest ...any) error { return mapErr(r.row.Scan(dest...)) }

func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNoRows
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return fmt.Errorf("%w: %s", store.ErrUnique, pgErr.ConstraintName)
	}
	return err
}
