package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/store"
)

// BenchmarkConcurrentTokenWrites runs the write transaction of an issued
// token (its grant, its access token and its audit event with the next
// sequence number, as the provider writes them) from c concurrent writers
// on one SQLite file, with the writer slot (D-sqlite-writer) and without
// it (every writer straight to BEGIN IMMEDIATE and SQLite's busy
// handler), and reports the transactions' median and 99th percentile
// latency:
//
//	go test ./internal/store/sqlite -run '^$' -bench ConcurrentTokenWrites -benchtime 2000x -count 3
func BenchmarkConcurrentTokenWrites(b *testing.B) {
	for _, c := range []int{8, 32} {
		for _, slot := range []bool{true, false} {
			b.Run(fmt.Sprintf("c=%d/slot=%v", c, slot), func(b *testing.B) {
				ctx := context.Background()
				conn, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
				if err != nil {
					b.Fatal(err)
				}
				defer conn.Close()
				if !slot { // a slot no writer ever waits for
					conn.w = writer{slot: make(chan struct{}, 1<<20), waiting: new(atomic.Int64)}
				}
				for _, ddl := range []string{
					`CREATE TABLE grants (id TEXT PRIMARY KEY, client_id TEXT, created_at TEXT)`,
					`CREATE TABLE tokens (id TEXT PRIMARY KEY, grant_id TEXT, client_id TEXT, scopes TEXT, expires_at TEXT)`,
					`CREATE TABLE audit (id TEXT PRIMARY KEY, seq INTEGER, kind TEXT, details TEXT)`,
				} {
					if _, err := conn.Exec(ctx, ddl); err != nil {
						b.Fatal(err)
					}
				}
				lat := make([]time.Duration, b.N)
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				for range c {
					wg.Go(func() {
						for {
							i := next.Add(1) - 1
							if i >= int64(b.N) {
								return
							}
							t0 := time.Now()
							g := uuid.NewString()
							err := conn.InTx(ctx, func(tx store.DB) error {
								if _, err := tx.Exec(ctx, `INSERT INTO grants VALUES ($1, 'c', 'now')`, g); err != nil {
									return err
								}
								if _, err := tx.Exec(ctx, `INSERT INTO tokens VALUES ($1, $2, 'c', 'openid', 'later')`, uuid.NewString(), g); err != nil {
									return err
								}
								_, err := tx.Exec(ctx, `INSERT INTO audit VALUES ($1, COALESCE((SELECT MAX(seq) FROM audit), 0) + 1, 'token.issued', '{}')`,
									uuid.NewString())
								return err
							})
							if err != nil {
								b.Error(err)
								return
							}
							lat[i] = time.Since(t0)
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				slices.Sort(lat)
				b.ReportMetric(float64(lat[b.N/2])/1e6, "p50-ms")
				b.ReportMetric(float64(lat[b.N*99/100])/1e6, "p99-ms")
			})
		}
	}
}
