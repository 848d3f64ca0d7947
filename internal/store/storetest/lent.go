package storetest

import (
	"context"
	"errors"
	"sync"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/store/postgres"
)

// lentConn is a pool database's kept connection pool as one test's store
// sees it: Close ends the loan, not the pool. Like a pool's Close it waits
// for the statements under way (rows not yet closed included) and refuses
// any after, so that nothing a test left running writes into the next
// test's database.
type lentConn struct {
	conn *postgres.Conn

	mu     sync.Mutex
	idle   sync.Cond // busy fell to 0
	busy   int       // statements under way
	closed bool
}

var _ store.Conn = (*lentConn)(nil)

// errLoanEnded answers a statement sent after the test that had the store ended.
var errLoanEnded = errors.New("storetest: the test's store is closed")

func lend(conn *postgres.Conn) *lentConn {
	c := &lentConn{conn: conn}
	c.idle.L = &c.mu
	return c
}

// enter counts a statement in, or refuses it once the loan ended.
func (c *lentConn) enter() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errLoanEnded
	}
	c.busy++
	return nil
}

func (c *lentConn) leave() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy--; c.busy == 0 {
		c.idle.Broadcast()
	}
}

// Close ends the loan once the statements under way are done.
func (c *lentConn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for c.busy > 0 {
		c.idle.Wait()
	}
}

func (c *lentConn) Dialect() string { return c.conn.Dialect() }

func (c *lentConn) Ping(ctx context.Context) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.leave()
	return c.conn.Ping(ctx)
}

func (c *lentConn) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if err := c.enter(); err != nil {
		return 0, err
	}
	defer c.leave()
	return c.conn.Exec(ctx, sql, args...)
}

func (c *lentConn) Query(ctx context.Context, sql string, args ...any) (store.Rows, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	rows, err := c.conn.Query(ctx, sql, args...)
	if err != nil {
		c.leave()
		return nil, err
	}
	return &lentRows{Rows: rows, leave: c.leave}, nil
}

func (c *lentConn) QueryRow(ctx context.Context, sql string, args ...any) store.Row {
	if err := c.enter(); err != nil {
		return errRow{err}
	}
	return &lentRow{row: c.conn.QueryRow(ctx, sql, args...), leave: c.leave}
}

func (c *lentConn) InTx(ctx context.Context, fn func(tx store.DB) error) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.leave()
	return c.conn.InTx(ctx, fn)
}

// CopyFrom keeps the bulk loads of a store on a lent pool on COPY.
func (c *lentConn) CopyFrom(ctx context.Context, table string, columns []string, rows [][]any) (int64, error) {
	if err := c.enter(); err != nil {
		return 0, err
	}
	defer c.leave()
	return c.conn.CopyFrom(ctx, table, columns, rows)
}

// lentRows count as under way until they are closed.
type lentRows struct {
	store.Rows
	leave func()
	done  bool
}

func (r *lentRows) Close() {
	r.Rows.Close()
	if !r.done {
		r.done = true
		r.leave()
	}
}

// lentRow counts as under way until it is scanned.
type lentRow struct {
	row   store.Row
	leave func()
	done  bool
}

func (r *lentRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	if !r.done {
		r.done = true
		r.leave()
	}
	return err
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
