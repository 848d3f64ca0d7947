package authz

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scopeRenderer is the one function outside this package that spells a
// customer-scope condition: the store's rendering of a Filter in SQL.
const scopeRenderer = "internal/store/scope.go"

// scopeConditions are the ways code spells a customer-scope condition of its
// own, in Go or in SQL: a list of customers or instances in SQL, a test of
// membership in a scope or in a user's grants, a decision on the scope mode.
var scopeConditions = []struct {
	name string
	re   *regexp.Regexp
}{
	{"SQL customer or instance list", regexp.MustCompile(`(?i)\b(customer_id|instance_id)\s+(not\s+)?in\s*\(`)},
	{"SQL list of scope ids", regexp.MustCompile(`placeholders\([^)]*\b(CustomerIDs|InstanceIDs|CustomerGrants|InstanceGrants)\b`)},
	{"SQL customer or instance array", regexp.MustCompile(`(?i)\b(customer_id|instance_id)\s*(=|<>)\s*(any|all)\b`)},
	{"scope membership", regexp.MustCompile(`\.Has(Customer|Instance)\(`)},
	{"decision on the scope mode", regexp.MustCompile(`\.Mode\s*[!=]=|authz\.(Unscoped|Strict|Soft|Own)\b`)},
	{"search of scope or grant ids", regexp.MustCompile(`(?i)(contains|index)\w*\([^)]*\b(CustomerIDs|InstanceIDs|CustomerGrants|InstanceGrants)\b`)},
	{"walk of scope or grant ids", regexp.MustCompile(`\brange\s+[\w.]*\b(CustomerIDs|InstanceIDs|CustomerGrants|InstanceGrants)\b`)},
}

// spellsScope returns the names of the scope conditions src spells.
func spellsScope(src string) []string {
	var out []string
	for _, c := range scopeConditions {
		if c.re.MatchString(src) {
			out = append(out, c.name)
		}
	}
	return out
}

// One access path (D-access-path): the scope and its checks live in
// this package (Scope.Allows, Scope.Filter, Decide), and the store renders a
// Filter to SQL in exactly one function. No other package spells a
// customer-scope condition: not in SQL, not in Go. The scan covers every
// hand-written Go file of the module, tests aside.
func TestOneScopeRenderer(t *testing.T) {
	// The scan catches what the copies this replaced looked like.
	for _, bad := range []string{
		"cond := customerCol + ` IN (` + placeholders(args, f.CustomerIDs) + `)`",
		"cond += ` AND t.customer_id IN (` + placeholders(args, f.CustomerIDs) + `)`",
		"where = `customer_id IN (` + placeholders(&args, q.CustomerIDs) + `)`",
		"cond += ` AND (t.instance_id IS NULL OR t.instance_id IN (` + placeholders(args, f.InstanceIDs) + `))`",
		"if c.Scope.Mode == authz.Strict {",
		"case c.Role.Internal() && c.Scope.Mode == authz.Unscoped:",
		"if !contains(f.CustomerIDs, customerID) {",
		"if c.Role.Scoped() && !contains(c.CustomerGrants, in.CustomerID) {",
		"if slices.Contains(c.Scope.CustomerIDs, id) {",
		"for _, id := range c.Scope.CustomerIDs {",
		"ok := sc.HasCustomer(r.CustomerID)",
		"WHERE customer_id = ANY($1)",
	} {
		if len(spellsScope(bad)) == 0 {
			t.Errorf("the scan misses %q", bad)
		}
	}
	for _, fine := range []string{
		"rows, next, err := s.store.ListCustomers(ctx, c.Scope.Filter(), q)",
		"if c.Scope.Allows(rows[i].CustomerID, rows[i].InstanceID) {",
		"`SELECT id FROM customers WHERE id IN (` + placeholders(&args, ids) + `)`",
		"Scope: ScopeView{Source: c.Scope.Source, Mode: c.Scope.Mode, CustomerIDs: nonNil(c.Scope.CustomerIDs)}",
	} {
		if got := spellsScope(fine); len(got) > 0 {
			t.Errorf("the scan flags %q (%v)", fine, got)
		}
	}

	root := filepath.Join("..", "..")
	scanned := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel != "." {
			switch {
			case rel == "internal/authz", rel == "graph/generated", rel == "graph/consolegraph", rel == "graph/datagraph", strings.HasPrefix(d.Name(), "."), d.Name() == "testdata",
				d.Name() == "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == scopeRenderer {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		scanned++
		for i, line := range strings.Split(string(b), "\n") {
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "//") {
				continue
			}
			if got := spellsScope(line); len(got) > 0 {
				t.Errorf("%s:%d spells a customer-scope condition (%s); use authz (Scope.Allows, Scope.Filter, Decide) "+
					"and the store's one renderer:\n\t%s", rel, i+1, strings.Join(got, ", "), strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned %d files; the walk is not covering the module", scanned)
	}
	if _, err := os.Stat(filepath.Join(root, scopeRenderer)); err != nil {
		t.Fatalf("the renderer moved: %v", err)
	}
}
