package cx

import "testing"

// MaxValueLength is the longest value any field allows, so a spreadsheet
// reader may refuse a longer cell outright.
func TestMaxValueLength(t *testing.T) {
	longest := 0
	for _, f := range Fields {
		if n := maxLength(f); n > longest {
			longest = n
		}
	}
	if longest != MaxValueLength {
		t.Fatalf("the longest field allows %d characters; MaxValueLength is %d", longest, MaxValueLength)
	}
}
