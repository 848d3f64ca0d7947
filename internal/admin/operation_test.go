package admin_test

import (
	"regexp"
	"testing"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// TestOperationDeclarations: every operation has a name of its own, noun
// and verb, a valid action, an Or only on a read (a write is never decided
// on another action), and a known target.
func TestOperationDeclarations(t *testing.T) {
	name := regexp.MustCompile(`^[a-z][a-z_]*\.[a-z][a-z_]*$`)
	ops := admin.Operations()
	if len(ops) < 100 {
		t.Fatalf("%d operations declared; the declarations did not run", len(ops))
	}
	seen := map[string]bool{}
	for _, op := range ops {
		if seen[op.Name] {
			t.Errorf("operation %s is declared twice", op.Name)
		}
		seen[op.Name] = true
		if !name.MatchString(op.Name) {
			t.Errorf("operation %q: the name is not noun.verb", op.Name)
		}
		if _, err := authz.ParseAction(op.Action.String()); err != nil {
			t.Errorf("operation %s: action %v: %v", op.Name, op.Action, err)
		}
		if op.Or != 0 {
			if op.Write {
				t.Errorf("operation %s writes and has an Or", op.Name)
			}
			if _, err := authz.ParseAction(op.Or.String()); err != nil || op.Or == op.Action {
				t.Errorf("operation %s: Or %v is not another action", op.Name, op.Or)
			}
		}
		if op.Target.String() == "unknown" {
			t.Errorf("operation %s: unknown target %d", op.Name, op.Target)
		}
	}
}
