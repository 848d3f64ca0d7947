package graph

import "sync/atomic"

// CountPages counts the operations the tenants page answers in place, from
// now until the test ends.
func CountPages(t interface{ Cleanup(func()) }) *atomic.Int64 {
	n := &atomic.Int64{}
	pageServed = func() { n.Add(1) }
	t.Cleanup(func() { pageServed = nil })
	return n
}
