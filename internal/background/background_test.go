package background

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// Every runs its work again after a failed run, and returns once the
// context ends.
func TestEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var runs atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		Every(ctx, "test loop", time.Millisecond, time.Millisecond, func(context.Context) error {
			if runs.Add(1) == 3 {
				cancel()
			}
			return errors.New("a failed run")
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if n := runs.Load(); n != 3 {
		t.Fatalf("work ran %d times, want 3", n)
	}
}
