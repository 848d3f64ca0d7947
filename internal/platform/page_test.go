package platform

import "testing"

// TestPageLimit: the one reading of a page size. A service takes 0 as the
// default; a request that names a number names 1 to Max in decimal digits;
// every refusal is EINVALID with the one message naming the parameter.
func TestPageLimit(t *testing.T) {
	l := PageLimit{Default: 50, Max: 1000}
	const refusal = "limit must be a whole number from 1 to 1000"
	refused := func(what string, err error) {
		t.Helper()
		if ErrorCode(err) != EINVALID || ErrorMessage(err) != refusal {
			t.Errorf("%s: %v, want EINVALID %q", what, err, refusal)
		}
	}
	for n, ok := range map[int]bool{0: true, 1: true, 1000: true, -1: false, 1001: false} {
		if err := l.Check("limit", n); ok && err != nil || !ok && err == nil {
			t.Errorf("Check(%d) = %v", n, err)
		} else if !ok {
			refused("Check", err)
		}
	}
	for raw, want := range map[string]int{"": 0, "1": 1, "1000": 1000, "0050": 50} {
		if n, err := l.Parse("limit", raw); n != want || err != nil {
			t.Errorf("Parse(%q) = %d, %v; want %d", raw, n, err, want)
		}
	}
	for _, raw := range []string{"0", "1001", "-1", "+5", " 5", "5 ", "5x", "1e3", "0x10", "99999999999999999999"} {
		n, err := l.Parse("limit", raw)
		if n != 0 {
			t.Errorf("Parse(%q) = %d", raw, n)
		}
		refused("Parse "+raw, err)
	}
	if n, err := l.Arg("limit", nil); n != 0 || err != nil {
		t.Errorf("Arg(nil) = %d, %v", n, err)
	}
	for _, v := range []int{0, -1, 1001} {
		_, err := l.Arg("limit", &v)
		refused("Arg", err)
	}
	for n, want := range map[int]int{-5: 50, 0: 50, 1: 1, 999: 999, 1000: 1000, 5000: 1000} {
		if got := l.Size(n); got != want {
			t.Errorf("Size(%d) = %d, want %d", n, got, want)
		}
	}
	if NamePages.Max != MaxPageSize || LogPages.Max != MaxLogPageSize || ChildPages.Default != MaxChildren ||
		NewestPages.Default != DefaultNewestSize || RecordPages.Default != DefaultPageSize || RecordPageNumbers.Max != MaxPageNumber {
		t.Error("a list's page sizes are not the named constants")
	}
}
