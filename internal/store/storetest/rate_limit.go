package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/store"
)

// testRateLimit covers the sliding window of Allow: a burst that crosses a
// window's boundary is counted whole (a fixed window let the limit through
// again on the boundary's far side, twice the limit in a moment), and hits
// a whole window old no longer count.
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
}
