package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/platform/platform"

// importRule is what a package may import, from the last column of the
// package table in docs/architecture.md.
type importRule struct {
	everything bool            // server: the composition root
	stdOnly    bool            // no module package and no outside library
	noIO       bool            // stdOnly, and none of the standard packages that do I/O
	module     map[string]bool // the module's packages it may import
	joseOnly   bool            // no I/O, no module package, and of outside libraries go-jose only
}

// ioPackages are standard packages that reach the operating system, the
// network or a database; a package of the "no I/O" kind imports none.
var ioPackages = []string{"os", "os/exec", "io/fs", "net", "net/http", "database/sql", "syscall", "unsafe", "log", "log/slog"}

// readRules reads the package table of docs/architecture.md: package →
// what it may import.
func readRules(t *testing.T) map[string]importRule {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code := regexp.MustCompile("`([^`]+)`")
	rules := map[string]importRule{}
	inTable := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			inTable = line == "## Packages"
			continue
		case !inTable || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("architecture.md: a row of the package table does not have three cells: %s", line)
		}
		names, _, _ := strings.Cut(cells[0], "(")
		may := strings.TrimSpace(cells[2])
		r := importRule{module: map[string]bool{}}
		switch may {
		case "everything":
			r.everything = true
		case "nothing", "standard library":
			r.stdOnly = true
		case "standard library only, no I/O":
			r.stdOnly, r.noIO = true, true
		case "standard library and go-jose only, no I/O":
			r.joseOnly, r.noIO = true, true
		case "no package of the module (golang.org/x/text)":
			// outside libraries only, none of the module's packages
		default:
			for _, m := range code.FindAllStringSubmatch(may, -1) {
				r.module[modulePath(m[1])] = true
			}
			if len(r.module) == 0 {
				t.Fatalf("architecture.md: %q names no package it may import", may)
			}
		}
		for _, m := range code.FindAllStringSubmatch(names, -1) {
			rules[module+"/"+strings.TrimSuffix(m[1], "/")] = r
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatal("architecture.md has no package table under ## Packages")
	}
	return rules
}

// modulePath resolves a package named in the table: graph/…, migrations
// and server at the module's root, the others under internal/.
func modulePath(name string) string {
	if name == "migrations" || name == "server" || name == "graph" || strings.HasPrefix(name, "graph/") {
		return module + "/" + name
	}
	return module + "/internal/" + name
}

// TestArchitecture holds every package of the module to the package table
// of docs/architecture.md: it imports only the module's packages its row
// names (the pure ones only the standard library, and none of its packages
// that do I/O), and every package has a row.
//
// spec: D-cx
func TestArchitecture(t *testing.T) {
	t.Parallel()
	rules := readRules(t)
	cmd := exec.Command("go", "list", "-json", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := map[string]bool{}
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == module { // tools.go: the code generators, built only with the tools tag
			continue
		}
		seen[p.ImportPath] = true
		r, ok := rules[p.ImportPath]
		if !ok {
			t.Errorf("package %s is not in the package table of docs/architecture.md", p.ImportPath)
			continue
		}
		if r.everything {
			continue
		}
		for _, imp := range p.Imports {
			inModule := imp == module || strings.HasPrefix(imp, module+"/")
			std := !strings.Contains(strings.Split(imp, "/")[0], ".")
			switch {
			case r.noIO && slices.Contains(ioPackages, imp):
				t.Errorf("%s imports %s; docs/architecture.md says it does no I/O", p.ImportPath, imp)
			case r.stdOnly && !std:
				t.Errorf("%s imports %s; docs/architecture.md allows it the standard library only", p.ImportPath, imp)
			case r.joseOnly && !std && !strings.HasPrefix(imp, "github.com/go-jose/go-jose/"):
				t.Errorf("%s imports %s; docs/architecture.md allows it the standard library and go-jose only", p.ImportPath, imp)
			case inModule && !r.stdOnly && !r.module[imp]:
				t.Errorf("%s imports %s, which docs/architecture.md does not allow it", p.ImportPath, imp)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("go list reported no packages; the check is not running")
	}
	for p := range rules {
		if !seen[p] {
			t.Errorf("docs/architecture.md lists %s, which is no package of the module", p)
		}
	}
}
