package sqlite

import (
	"context"
	"sync"
	"testing"
)

// Concurrent readers keep their connections: a connection given back is
// kept open for the next reader, not closed for being idle beyond a
// smaller cap, so no request pays for opening one again (parsing the
// schema, preparing its statements anew). Up to maxConns of them.
func TestConnectionsStayOpen(t *testing.T) {
	ctx := context.Background()
	c := mustOpen(t)
	if _, err := c.Exec(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, "a", 1); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		// readers that hold their rows until all have started: maxConns
		// connections in use at once, then all given back
		var started, done sync.WaitGroup
		started.Add(maxConns)
		for range maxConns {
			done.Add(1)
			go func() {
				defer done.Done()
				rows, err := c.Query(ctx, `SELECT v FROM kv WHERE k = $1`, "a")
				started.Done()
				if err != nil {
					t.Error(err)
					return
				}
				defer rows.Close()
				started.Wait()
				for rows.Next() {
				}
			}()
		}
		done.Wait()
	}
	s := c.DB.Stats()
	if s.MaxIdleClosed != 0 || s.OpenConnections > maxConns {
		t.Errorf("connections closed for being idle: %d, open: %d (at most %d)", s.MaxIdleClosed, s.OpenConnections, maxConns)
	}
}
