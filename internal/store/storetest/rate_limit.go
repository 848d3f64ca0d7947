package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
)

// testRateLimit covers the sliding window of Allow: a burst that crosses a
// window's boundary is counted whole (a fixed window let the limit through
// again on the boundary's far side, twice the limit in a moment), hits a
// whole window old no longer count, and the pruning of old windows keeps
// the previous one of the longest window.
//
// attack: rate-limit-window-boundary
func testRateLimit(t *testing.T, st *store.Store) {
	const limit = 4
	minute := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	allow := func(key string, at time.Time) bool {
		t.Helper()
		ok, reset, err := st.Allow(ctx, key, limit, time.Minute, at)
		if err != nil {
			t.Fatal(err)
		}
		if want := at.Truncate(time.Minute).Add(time.Minute); !reset.Equal(want) {
			t.Errorf("reset %v, want the window's end %v", reset, want)
		}
		return ok
	}
	for i := range limit {
		if !allow("a", minute.Add(59*time.Second)) {
			t.Fatalf("hit %d of %d refused", i+1, limit)
		}
	}
	if allow("a", minute.Add(59*time.Second)) {
		t.Error("a hit over the limit allowed")
	}
	// one second later, across the boundary: the five hits a second ago
	// still count
	if allow("a", minute.Add(60*time.Second)) {
		t.Error("a burst across the window's boundary started afresh")
	}
	if !allow("b", minute.Add(60*time.Second)) {
		t.Error("another key shares the count")
	}
	// two windows on, the burst no longer counts
	later := minute.Add(2*time.Minute + 59*time.Second)
	if !allow("a", later) {
		t.Error("hits two windows old still count")
	}

	// attack: rate-limit-prune-window
	// The longest window's hits still count in the next window after the
	// pruning that runs then: five resends in the last minute of an hour,
	// and the first minute of the next hour still refuses.
	hour := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	for range limit {
		if ok, _, err := st.Allow(ctx, "h", limit, store.MaxRateWindow, hour.Add(59*time.Minute)); err != nil || !ok {
			t.Fatalf("an hour's hit refused: %v %v", ok, err)
		}
	}
	next := hour.Add(time.Hour + time.Minute)
	if err := st.DeleteOldRateCounters(ctx, next); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := st.Allow(ctx, "h", limit, store.MaxRateWindow, next); err != nil || ok {
		t.Errorf("after pruning, the last hour's hits no longer counted: %v %v", ok, err)
	}
	// past both windows the pruning removes them, and the count starts afresh
	if err := st.DeleteOldRateCounters(ctx, hour.Add(3*time.Hour+time.Minute)); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := st.Conn().QueryRow(ctx, `SELECT COUNT(*) FROM rate_counters WHERE key = 'h'`).Scan(&left); err != nil || left != 0 {
		t.Errorf("windows no count reads kept: %d, %v", left, err)
	}
	if _, _, err := st.Allow(ctx, "h", limit, 2*store.MaxRateWindow, next); err == nil {
		t.Error("a window longer than the pruning keeps was counted")
	}
}
