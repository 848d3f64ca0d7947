package graph

import (
	"fmt"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph/generated"
	"github.com/platform/platform/internal/admin"
)

// FieldOperations is fieldOps by "Type.field".
func FieldOperations() map[string]admin.Operation {
	out := make(map[string]admin.Operation, len(fieldOps))
	for k, op := range fieldOps {
		out[k.object+"."+k.field] = op
	}
	return out
}

// CountPages counts the operations the tenants page answers in place, from
// now until the test ends.
func CountPages(t interface{ Cleanup(func()) }) *atomic.Int64 {
	n := &atomic.Int64{}
	count := func() { n.Add(1) }
	pageServed.Store(&count)
	t.Cleanup(func() { pageServed.Store(nil) })
	return n
}

// OperationCost is the cost of the operation in query with vars under the
// model the endpoint enforces, after parsing and validating it against the
// schema.
func OperationCost(query string, vars map[string]any) (int, error) {
	doc, errs := gqlparser.LoadQuery(gqlSchema(), query)
	if len(errs) > 0 {
		return 0, errs
	}
	if len(doc.Operations) != 1 {
		return 0, fmt.Errorf("%d operations", len(doc.Operations))
	}
	return costOf().Cost(doc.Operations[0], vars), nil
}

// ListPrice is what the enforced model makes of typ.field for the field's
// arguments args: its weight, and for a list its size and the fields the
// size applies to (none: the field's own elements).
func ListPrice(typ, field string, args map[string]any) (weight int, list bool, size int, sized []string) {
	p := costOf().price(typ, field)
	if p.list == nil {
		return p.weight, false, 0, nil
	}
	return p.weight, true, p.list.size(args), p.list.sized
}

func gqlSchema() *ast.Schema { return generated.NewExecutableSchema(generated.Config{}).Schema() }

func costOf() *costModel {
	m, err := newCostModel(gqlSchema())
	if err != nil {
		panic(err)
	}
	return m
}
