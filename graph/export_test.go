package graph

import "sync/atomic"

// CountPages counts the operations the tenants page answers in place, from
// now until the test ends.
func CountPages(t interface{ Cleanup(func()) }) *atomic.Int64 {
	n := &atomic.Int64{}
	count := func() { n.Add(1) }
	pageServed.Store(&count)
	t.Cleanup(func() { pageServed.Store(nil) })
	return n
}
