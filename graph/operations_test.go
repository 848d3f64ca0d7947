package graph_test

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/admin"
)

// TestFieldOperations: every field of the schema with @authz performs an
// operation internal/admin declares (graph/operations.go), and its
// @authz(action:, or:) says what the operation says: the same action, the
// same Or, and a mutation exactly when the operation writes. A field whose
// directive names another action than its operation, a field with @authz
// and no operation, or an operation for a field without @authz fails.
//
// spec: R5.7-matrix
func TestFieldOperations(t *testing.T) {
	t.Parallel()
	s := loadSchema(t)
	declared := map[string]admin.Operation{}
	for _, op := range admin.Operations() {
		declared[op.Name] = op
	}
	ops := graph.FieldOperations()
	guarded := map[string]bool{}
	for _, def := range s.Types {
		if def.Kind != ast.Object || def.BuiltIn {
			continue
		}
		for _, f := range def.Fields {
			d := f.Directives.ForName("authz")
			if d == nil {
				continue
			}
			key := def.Name + "." + f.Name
			guarded[key] = true
			op, ok := ops[key]
			if !ok {
				t.Errorf("%s has @authz but performs no declared operation (graph/operations.go)", key)
				continue
			}
			if decl, ok := declared[op.Name]; !ok || decl != op {
				t.Errorf("%s performs %+v, which internal/admin does not declare", key, op)
			}
			action, or := enumArg(d, "action"), enumArg(d, "or")
			wantOr := ""
			if op.Or != 0 {
				wantOr = op.Or.String()
			}
			if action != op.Action.String() || or != wantOr {
				t.Errorf("%s: @authz(action: %s, or: %s), its operation %s is %s or %s", key, action, or, op.Name, op.Action,
					wantOr)
			}
			if (def.Name == "Mutation") != op.Write {
				t.Errorf("%s performs %s, which writes=%v", key, op.Name, op.Write)
			}
		}
	}
	for key := range ops {
		if !guarded[key] {
			t.Errorf("graph/operations.go maps %s, which is not a field with @authz", key)
		}
	}
	if len(guarded) < 100 {
		t.Fatalf("%d fields with @authz; the schema did not load", len(guarded))
	}
}

// enumArg is the directive's argument name as an action's name
// (MANAGE_TENANT → manage_tenant); "" when it is not given.
func enumArg(d *ast.Directive, name string) string {
	a := d.Arguments.ForName(name)
	if a == nil || a.Value == nil {
		return ""
	}
	return strings.ToLower(a.Value.Raw)
}
