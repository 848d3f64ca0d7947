package idp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// errHashBusy answers a sign-in whose password could not be verified in
// time because the verifications in flight hold every slot (D-hash-queue).
var errHashBusy = errors.New("password verification queue is full")

// hashQueue bounds the argon2id verifications in flight (D-hash-queue).
// Each one holds its memory block (19 MiB with the default parameters) and
// a core for ~25 ms; more in flight than cores buys no throughput, only
// memory and garbage-collection work that every other request pays for.
// Callers wait in arrival order (a FIFO semaphore) for at most the
// request's deadline or wait, whichever is sooner; beyond maxWaiting
// waiters a flood is refused at once instead of queueing without bound.
type hashQueue struct {
	sem        *semaphore.Weighted
	slots      int
	wait       time.Duration
	maxWaiting int64
	waiting    atomic.Int64
}

// Defaults of the queue: slots = GOMAXPROCS; a waiter gives up after
// defaultHashWait; at most defaultHashWaitersPerSlot waiters per slot.
const (
	defaultHashWait           = 5 * time.Second
	defaultHashWaitersPerSlot = 64
)

func newHashQueue(slots int, wait time.Duration) *hashQueue {
	if slots <= 0 {
		slots = runtime.GOMAXPROCS(0)
	}
	if wait <= 0 {
		wait = defaultHashWait
	}
	return &hashQueue{sem: semaphore.NewWeighted(int64(slots)), slots: slots, wait: wait,
		maxWaiting: int64(slots) * defaultHashWaitersPerSlot}
}

// do runs f holding a slot, or answers errHashBusy without running it
// when no slot frees up within the wait, the request ends first, or the
// queue is full.
func (q *hashQueue) do(ctx context.Context, f func()) error {
	if q.sem.TryAcquire(1) {
		defer q.sem.Release(1)
		f()
		return nil
	}
	if q.waiting.Add(1) > q.maxWaiting {
		q.waiting.Add(-1)
		return errHashBusy
	}
	ctx, cancel := context.WithTimeout(ctx, q.wait)
	err := q.sem.Acquire(ctx, 1)
	cancel()
	q.waiting.Add(-1)
	if err != nil {
		return errHashBusy
	}
	defer q.sem.Release(1)
	f()
	return nil
}

// hashBusy answers a sign-in the hash queue refused: 503 with Retry-After,
// the same for every address, so it tells nothing about accounts.
func (p *factors) hashBusy(w http.ResponseWriter, r *http.Request) {
	slog.WarnContext(r.Context(), "password verification queue full", "slots", p.hashQueue.slots)
	w.Header().Set("Retry-After", "2")
	p.renderError(w, r, http.StatusServiceUnavailable, "Busy", "Many people are signing in right now. Please try again in a moment.")
}
