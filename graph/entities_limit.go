package graph

import (
	"context"
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

// pricedEntities is the executable schema with _entities priced per
// representation (D-admission): gqlgen's federation gives the field one
// object's cost whatever the number of representations, so 14,000 of them
// passed the complexity limit.
type pricedEntities struct{ graphql.ExecutableSchema }

func (p pricedEntities) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if typeName == "Query" && field == "_entities" {
		return 1 + representations(args)*max(child, 1), true
	}
	return p.ExecutableSchema.Complexity(ctx, typeName, field, child, args)
}

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
type entitiesLimit struct{}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = entitiesLimit{}

func (entitiesLimit) ExtensionName() string                   { return "EntitiesLimit" }
func (entitiesLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (entitiesLimit) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	o := op.Doc.Operations.ForName(op.OperationName)
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
