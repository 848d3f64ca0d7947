package graph

import (
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// MaxRepresentations bounds the entities one _entities call resolves: a
// federation router asks for a page's worth, never for thousands.
const MaxRepresentations = 1000

// CodeEntitiesLimit refuses an _entities call with more representations.
const CodeEntitiesLimit = "ENTITIES_LIMIT_EXCEEDED"

// representations is the number of representations of an _entities call:
// the call's size in the cost model (D-admission, D-graphql-cost).
func representations(args map[string]any) int {
	switch reps := args["representations"].(type) {
	case []any:
		return len(reps)
	case []map[string]any:
		return len(reps)
	}
	return 0
}

// entitiesLimit refuses, before execution, an _entities call with more
// than MaxRepresentations representations.
func entitiesLimit(o *ast.OperationDefinition, op *graphql.OperationContext) *gqlerror.Error {
	if o == nil || o.Operation != ast.Query {
		return nil
	}
	for _, sel := range o.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || f.Name != "_entities" {
			continue
		}
		if n := representations(f.ArgumentMap(op.Variables)); n > MaxRepresentations {
			return refused(CodeEntitiesLimit, fmt.Sprintf("_entities asks for %d representations; at most %d per call", n, MaxRepresentations))
		}
	}
	return nil
}
