package sqlite

import (
	"context"
	"strings"
	"sync/atomic"
	"time"
)

// writerWait is how long a write waits for the process's writer slot
// before it goes on without it, as it did before the slot: SQLite's own
// busy handler (busy_timeout) then decides. It equals busy_timeout, so a
// write never waits longer than it would have.
const writerWait = 10 * time.Second

// writer is the one write transaction of the process at a time
// (D-sqlite-writer). SQLite lets one writer in; the others that find the
// lock taken sleep in its busy handler, in steps growing to 100 ms, and
// retry — the tail of concurrent token requests was mostly that sleep.
// Writers that queue here instead wake the moment the last one commits,
// in arrival order, and hold no pooled connection while they wait.
type writer struct {
	slot    chan struct{}
	waiting *atomic.Int64 // writes queued for the slot (tests read it)
}

func newWriter() writer { return writer{slot: make(chan struct{}, 1), waiting: new(atomic.Int64)} }

// acquire takes the slot and returns its release; after writerWait, or
// when ctx ends first, it returns a release that does nothing and the
// write goes on to SQLite's busy handler.
func (w writer) acquire(ctx context.Context) (release func()) {
	select {
	case w.slot <- struct{}{}:
		return w.release
	default:
	}
	w.waiting.Add(1)
	defer w.waiting.Add(-1)
	t := time.NewTimer(writerWait)
	defer t.Stop()
	select {
	case w.slot <- struct{}{}:
		return w.release
	case <-ctx.Done():
	case <-t.C:
	}
	return func() {}
}

func (w writer) release() { <-w.slot }

// writes reports whether a statement outside a transaction may write and
// so takes the writer slot: everything but a plain read.
func writes(query string) bool {
	q := strings.TrimSpace(query)
	return !hasPrefixFold(q, "SELECT") && !hasPrefixFold(q, "PRAGMA") && !hasPrefixFold(q, "EXPLAIN")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
