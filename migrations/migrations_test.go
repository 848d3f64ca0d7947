package migrations

import (
	"io/fs"
	"strings"
	"testing"
)

// Each migration has a number of its own: the store records a migration by
// its number, so a second file of the same number would never run.
func TestNumbersAreUnique(t *testing.T) {
	names, err := fs.Glob(FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, name := range names {
		number, _, _ := strings.Cut(name, "_")
		if other, ok := seen[number]; ok {
			t.Errorf("%s and %s have the same number", other, name)
		}
		seen[number] = name
	}
}
