package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// operationCheck is a gqlgen extension that looks at the operation about
// to run, once it is parsed and validated, and may refuse it: check gets
// the operation the request names (nil when the document has none of that
// name) and its context. The endpoint's limits are checks of this kind.
type operationCheck struct {
	name  string
	check func(o *ast.OperationDefinition, op *graphql.OperationContext) *gqlerror.Error
}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = operationCheck{}

func (c operationCheck) ExtensionName() string                 { return c.name }
func (operationCheck) Validate(graphql.ExecutableSchema) error { return nil }

func (c operationCheck) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	return c.check(op.Doc.Operations.ForName(op.OperationName), op)
}

// shapeLimit refuses, before execution, operations nested deeper than
// MaxDepth or using more than MaxAliases aliases (an alias bomb asks for
// one expensive field many times under different names). Fragments count
// where they are spread. Depth is measured on fields: under introspection
// (__schema, __type) a type reference's ofType chain, which graphql-js's
// standard introspection query nests 7 levels deep to unwrap [[T!]!]!,
// does not count, and is itself bounded by MaxOfType; every other field,
// introspection's included, counts.
type shapeLimit struct {
	MaxDepth   int
	MaxAliases int
}

func (l shapeLimit) check(o *ast.OperationDefinition, op *graphql.OperationContext) *gqlerror.Error {
	if o == nil {
		return nil
	}
	w := walker{fragments: op.Doc.Fragments, maxDepth: l.MaxDepth, maxAliases: l.MaxAliases}
	w.walk(o.SelectionSet, 1, 0, false, 0)
	switch {
	case w.depthExceeded:
		return refused(CodeDepthLimit, fmt.Sprintf("the operation is nested deeper than %d levels", l.MaxDepth))
	case w.aliases > l.MaxAliases:
		return refused(CodeAliasLimit, fmt.Sprintf("the operation uses more than %d aliases", l.MaxAliases))
	}
	return nil
}

func refused(code, msg string) *gqlerror.Error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

type walker struct {
	fragments     ast.FragmentDefinitionList
	maxDepth      int
	maxAliases    int
	aliases       int
	depthExceeded bool
	steps         int
}

// MaxOfType bounds a chain of ofType under introspection: a type
// reference unwraps at most a few list and non-null wrappers.
const MaxOfType = 12

// walk visits a selection set at depth; spreads deeper than 32 fragments
// (a cycle is invalid GraphQL, refused by validation already) stop it.
// intro is whether the set is under introspection, chain the length of
// the ofType chain it ends.
func (w *walker) walk(set ast.SelectionSet, depth, spreads int, intro bool, chain int) {
	if w.depthExceeded || w.aliases > w.maxAliases || spreads > 32 {
		return
	}
	w.steps++
	if w.steps > 100_000 {
		w.depthExceeded = true
		return
	}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				w.aliases++
			}
			if len(s.SelectionSet) == 0 {
				continue
			}
			in := intro || s.Name == "__schema" || s.Name == "__type"
			if in && s.Name == "ofType" {
				if chain+1 > MaxOfType {
					w.depthExceeded = true
					return
				}
				w.walk(s.SelectionSet, depth, spreads, in, chain+1)
				continue
			}
			if depth+1 > w.maxDepth {
				w.depthExceeded = true
				return
			}
			w.walk(s.SelectionSet, depth+1, spreads, in, 0)
		case *ast.InlineFragment:
			w.walk(s.SelectionSet, depth, spreads, intro, chain)
		case *ast.FragmentSpread:
			if f := w.fragments.ForName(s.Name); f != nil {
				w.walk(f.SelectionSet, depth, spreads+1, intro, chain)
			}
		}
	}
}

// introspection enables introspection for every operation when on
// (D-playground), and otherwise only for an operation that asks for
// nothing but the federation SDL (_service { sdl }), so a federation
// router can always compose the subgraph.
func introspection(on bool) func(*ast.OperationDefinition, *graphql.OperationContext) *gqlerror.Error {
	return func(o *ast.OperationDefinition, op *graphql.OperationContext) *gqlerror.Error {
		op.DisableIntrospection = !on && !onlyFederationSDL(o)
		return nil
	}
}

// onlyFederationSDL reports whether o is a query of _service (and
// __typename) alone.
func onlyFederationSDL(o *ast.OperationDefinition) bool {
	if o == nil || o.Operation != ast.Query {
		return false
	}
	for _, sel := range o.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || (f.Name != "_service" && f.Name != "__typename") {
			return false
		}
	}
	return true
}
