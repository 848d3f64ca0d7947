// Package background runs the platform's periodic work (the roles'
// maintenance, the webhook dispatcher) on one loop: a ticker, jitter, stop on context.
package background

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Every calls work every interval until ctx ends. Each run waits a random
// part of jitter after its tick, so replicas started together spread their
// runs out (0: none). A run's error is logged under name and the loop goes
// on. Work that must run on one replica at a time takes its own lease (the
// webhook dispatcher claims each delivery).
func Every(ctx context.Context, name string, interval, jitter time.Duration, work func(context.Context) error) {
	EveryOrWake(ctx, name, interval, jitter, nil, work)
}

// EveryOrWake is Every that also runs work when wake receives: work queued
// here is done at once, work queued elsewhere (another replica) within an
// interval.
func EveryOrWake(ctx context.Context, name string, interval, jitter time.Duration, wake <-chan struct{}, work func(context.Context) error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
		if jitter > 0 {
			sleep(ctx, rand.N(jitter))
		}
		if ctx.Err() != nil {
			return
		}
		if err := work(ctx); err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, name, "err", err)
		}
	}
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
