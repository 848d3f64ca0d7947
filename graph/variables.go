package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// strictVariables refuses variables whose JSON type does not match their
// declared type, as the GraphQL spec's input coercion does: gqlparser
// accepts a number for a String (42 becomes "42") and a string for an Int
// or a Boolean, which would let a wrong client write data it never meant.
type strictVariables struct {
	schema *ast.Schema
}

// rawVariables carries an operation's variables as the client sent them,
// from MutateOperationParameters (before gqlparser coerces them) to
// MutateOperationContext (once the document is parsed); the handler puts
// one in each request's context.
type rawVariables struct{ vars map[string]any }

type rawVariablesKey struct{}

func withRawVariables(ctx context.Context) context.Context {
	return context.WithValue(ctx, rawVariablesKey{}, &rawVariables{})
}

var _ interface {
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = (*strictVariables)(nil)

func (s *strictVariables) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if h, ok := ctx.Value(rawVariablesKey{}).(*rawVariables); ok {
		h.vars = p.Variables
	}
	return nil
}

func (*strictVariables) ExtensionName() string { return "StrictVariables" }

func (s *strictVariables) Validate(es graphql.ExecutableSchema) error {
	s.schema = es.Schema()
	return nil
}

func (s *strictVariables) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	h, ok := ctx.Value(rawVariablesKey{}).(*rawVariables)
	if !ok || len(h.vars) == 0 {
		return nil
	}
	raw := h.vars
	o := op.Doc.Operations.ForName(op.OperationName)
	if o == nil {
		return nil
	}
	for _, def := range o.VariableDefinitions {
		v, ok := raw[def.Variable]
		if !ok {
			continue
		}
		if msg := s.check(def.Type, v, 0); msg != "" {
			return &gqlerror.Error{Message: fmt.Sprintf("variable $%s: %s", def.Variable, msg),
				Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}}
		}
	}
	return nil
}

// check returns what is wrong with v as a value of t, or "".
func (s *strictVariables) check(t *ast.Type, v any, depth int) string {
	if depth > 32 {
		return "nested too deep"
	}
	if v == nil {
		return "" // nullability is gqlparser's to check
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return s.check(t.Elem, v, depth+1) // a single value coerces to a list of one
		}
		for i, e := range list {
			if msg := s.check(t.Elem, e, depth+1); msg != "" {
				return fmt.Sprintf("[%d]: %s", i, msg)
			}
		}
		return ""
	}
	def := s.schema.Types[t.NamedType]
	if def == nil {
		return ""
	}
	switch def.Kind {
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s must be an object", def.Name)
		}
		for _, f := range def.Fields {
			if msg := s.check(f.Type, obj[f.Name], depth+1); msg != "" {
				return f.Name + ": " + msg
			}
		}
	case ast.Enum:
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("%s must be one of its values", def.Name)
		}
	case ast.Scalar:
		return checkScalar(def.Name, v)
	}
	return ""
}

func checkScalar(name string, v any) string {
	var ok bool
	switch name {
	case "String", "Time":
		_, ok = v.(string)
	case "Boolean":
		_, ok = v.(bool)
	case "Int":
		switch n := v.(type) {
		case json.Number:
			_, err := n.Int64()
			ok = err == nil
		case float64:
			ok = n == float64(int64(n))
		case int, int64:
			ok = true
		}
	case "Float":
		switch v.(type) {
		case json.Number, float64, int, int64:
			ok = true
		}
	case "ID":
		switch n := v.(type) {
		case string:
			ok = true
		case json.Number:
			ok = !strings.ContainsAny(n.String(), ".eE")
		}
	default:
		return "" // JSON and other custom scalars decode themselves
	}
	if !ok {
		return fmt.Sprintf("%s cannot represent %s", name, describe(v))
	}
	return ""
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return "a number"
}
