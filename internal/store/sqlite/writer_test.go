package sqlite

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/testkit"
)

// Write transactions queued behind one that is open hold no pooled
// connection (D-sqlite-writer): with as many queued as the pool has
// connections, a read still gets one, and once the open transaction
// commits every queued one commits too. Before the writer slot each
// queued transaction held a connection inside BEGIN IMMEDIATE, the read
// waited for one, and the queued transactions failed with "database is
// locked" when the busy timeout ran out.
func TestQueuedWritersLeaveConnectionsToReaders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Exec(ctx, `CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	const queued = 8 // Open's pool size
	holding, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- c.InTx(ctx, func(tx store.DB) error {
			if _, err := tx.Exec(ctx, `INSERT INTO t (n) VALUES (0)`); err != nil {
				return err
			}
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	var wg sync.WaitGroup
	errs := make(chan error, queued)
	for i := 1; i <= queued; i++ {
		wg.Go(func() {
			errs <- c.InTx(ctx, func(tx store.DB) error {
				_, err := tx.Exec(ctx, `INSERT INTO t (n) VALUES ($1)`, i)
				return err
			})
		})
	}
	testkit.Eventually(t, "every write queued for the slot", func() bool { return c.w.waiting.Load() == queued })
	var n int
	if err := c.QueryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("read beside the queued writers = %d, %v; want 0 committed rows", n, err)
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("queued write: %v", err)
		}
	}
	if err := c.QueryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&n); err != nil || n != queued+1 {
		t.Fatalf("rows after the writes = %d, %v; want %d", n, err, queued+1)
	}
}

func TestWrites(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]bool{
		"SELECT 1": false, "  select x FROM t": false, "PRAGMA foreign_keys": false, "EXPLAIN QUERY PLAN SELECT 1": false,
		"INSERT INTO t VALUES (1)": true, "UPDATE t SET n = 1": true, "delete from t": true,
		"WITH x AS (SELECT 1) DELETE FROM t": true, "CREATE TABLE u (n INTEGER)": true,
	} {
		if got := writes(q); got != want {
			t.Errorf("writes(%q) = %v, want %v", q, got, want)
		}
	}
}
