package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// attackTag finds "// attack: <name>" on the comment of a test function.
var attackTag = regexp.MustCompile(`(?m)^// attack: ([a-z0-9-]+)\n(?://.*\n)*func (Test\w+)\(`)

// docs/security.md lists every attack test of the suite, by name and tag,
// so the page and the suite cannot drift apart.
func TestSecurityPageListsEveryAttack(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range attackTag.FindAllStringSubmatch(string(src), -1) {
			found++
			if !strings.Contains(string(page), "`"+m[2]+"`") || !strings.Contains(string(page), "(`"+m[1]+"`") {
				t.Errorf("%s: %s (attack: %s) is not listed in docs/security.md", path, m[2], m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 20 {
		t.Fatalf("found only %d attack tests; is the tag pattern still right?", found)
	}
}
