package graph

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The cost model (D-graphql-cost) is the one the schema publishes with the
// GraphQL cost directives, read from the schema when the endpoint starts:
// a field costs its @cost weight (1 without one) plus, when it has a
// selection, the cost of its selection times its size. A list's size is
// its @listSize: the value of its slicing argument (a page's first),
// assumedSize when that is not given; with sizedFields the size is that of
// those fields of the object it returns (a page's items). _entities is
// sized by its representations. Nothing else prices a field, so the model
// a federation router reads from _service { sdl } and the one enforced here
// are the same.

// fieldPrice is what the directives say of one field.
type fieldPrice struct {
	weight int
	list   *listSize
}

// listSize is a field's @listSize.
type listSize struct {
	assumed int // -1: none
	slicing []string
	sized   []string
}

// costModel holds the price of every field that carries @cost or @listSize.
type costModel struct {
	fields map[string]map[string]fieldPrice
}

// newCostModel reads the directives of s. A directive the model does not
// apply (@cost on a type or argument, a sized field the type lacks, a
// slicing argument the field lacks or of another type than Int, a list
// without a size when its arguments are left out) is an error: the model
// would not be the published one.
func newCostModel(s *ast.Schema) (*costModel, error) {
	m := &costModel{fields: map[string]map[string]fieldPrice{}}
	for _, def := range s.Types {
		if def.Directives.ForName("cost") != nil {
			return nil, fmt.Errorf("graph: @cost on type %s; the model prices fields only", def.Name)
		}
		for _, f := range def.Fields {
			for _, a := range f.Arguments {
				if a.Directives.ForName("cost") != nil {
					return nil, fmt.Errorf("graph: @cost on argument %s.%s(%s); the model prices fields only", def.Name, f.Name, a.Name)
				}
			}
			p, ok, err := priceOf(s, def, f)
			if err != nil {
				return nil, err
			}
			if ok {
				if m.fields[def.Name] == nil {
					m.fields[def.Name] = map[string]fieldPrice{}
				}
				m.fields[def.Name][f.Name] = p
			}
		}
	}
	return m, nil
}

func priceOf(s *ast.Schema, def *ast.Definition, f *ast.FieldDefinition) (fieldPrice, bool, error) {
	p := fieldPrice{weight: 1}
	name := def.Name + "." + f.Name
	c, l := f.Directives.ForName("cost"), f.Directives.ForName("listSize")
	if c == nil && l == nil {
		return p, false, nil
	}
	if c != nil {
		w, err := strconv.Atoi(c.Arguments.ForName("weight").Value.Raw)
		if err != nil || w < 1 {
			return p, false, fmt.Errorf("graph: %s: @cost(weight:) must be a whole number of at least 1", name)
		}
		p.weight = w
	}
	if l == nil {
		return p, true, nil
	}
	ls := &listSize{assumed: -1}
	for _, a := range l.Arguments {
		switch a.Name {
		case "assumedSize":
			n, err := strconv.Atoi(a.Value.Raw)
			if err != nil || n < 0 {
				return p, false, fmt.Errorf("graph: %s: @listSize(assumedSize:) must be a whole number", name)
			}
			ls.assumed = n
		case "slicingArguments":
			for _, v := range a.Value.Children {
				arg := f.Arguments.ForName(v.Value.Raw)
				if arg == nil || arg.Type.Name() != "Int" || arg.Type.Elem != nil {
					return p, false, fmt.Errorf("graph: %s: slicing argument %q is not an Int argument of the field", name, v.Value.Raw)
				}
				ls.slicing = append(ls.slicing, v.Value.Raw)
			}
		case "sizedFields":
			ret := s.Types[f.Type.Name()]
			for _, v := range a.Value.Children {
				sf := ret.Fields.ForName(v.Value.Raw)
				if sf == nil || sf.Type.Elem == nil {
					return p, false, fmt.Errorf("graph: %s: sized field %q is not a list field of %s", name, v.Value.Raw, ret.Name)
				}
				ls.sized = append(ls.sized, v.Value.Raw)
			}
		}
	}
	if ls.assumed < 0 {
		return p, false, fmt.Errorf("graph: %s: @listSize needs assumedSize, the size of the list when no slicing argument is given", name)
	}
	if len(ls.sized) == 0 && f.Type.Elem == nil {
		return p, false, fmt.Errorf("graph: %s: @listSize on a field that is no list, without sizedFields", name)
	}
	p.list = ls
	return p, true, nil
}

// price returns the price of typ.field: its directives', or weight 1.
func (m *costModel) price(typ, field string) fieldPrice {
	if p, ok := m.fields[typ][field]; ok {
		return p
	}
	return fieldPrice{weight: 1}
}

// size is the list's size for the field's arguments: the largest slicing
// argument given, else the assumed size.
func (l *listSize) size(args map[string]any) int {
	n, given := 0, false
	for _, a := range l.slicing {
		if v, ok := intValue(args[a]); ok {
			n, given = max(n, v), true
		}
	}
	if !given {
		return l.assumed
	}
	return max(n, 0)
}

// intValue reads an Int argument as the parser or the variables give it.
func intValue(v any) (int, bool) {
	switch n := v.(type) {
	case nil:
		return 0, false
	case int:
		return n, true
	case int64:
		return int(max(min(n, math.MaxInt32), math.MinInt32)), true
	case json.Number:
		i, err := n.Int64()
		return int(max(min(i, math.MaxInt32), math.MinInt32)), err == nil
	}
	i, err := graphql.UnmarshalInt(v)
	return i, err == nil
}

// costCap bounds the sums and products of a walk; past it the exact cost
// does not matter.
const costCap = math.MaxInt32

func capped(n int) int { return min(n, costCap) }

// Cost returns the cost of op with vars under the model.
func (m *costModel) Cost(op *ast.OperationDefinition, vars map[string]any) int {
	w := costWalk{m: m, vars: vars}
	return w.set(op.SelectionSet, nil)
}

type costWalk struct {
	m    *costModel
	vars map[string]any
}

// set returns the cost of a selection set; sized gives the sizes its
// parent's @listSize(sizedFields:) set on fields of the set.
func (w *costWalk) set(sel ast.SelectionSet, sized map[string]int) int {
	total := 0
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			total = capped(total + w.field(s, sized))
		case *ast.InlineFragment:
			total = capped(total + w.set(s.SelectionSet, sized))
		case *ast.FragmentSpread:
			if s.Definition != nil {
				total = capped(total + w.set(s.Definition.SelectionSet, sized))
			}
		}
	}
	return total
}

func (w *costWalk) field(f *ast.Field, sized map[string]int) int {
	if f.Name == "__typename" {
		return 0 // answered from the type at hand; clients such as urql add it to every selection
	}
	if f.ObjectDefinition == nil {
		return 1
	}
	p := w.m.price(f.ObjectDefinition.Name, f.Name)
	factor, ok := sized[f.Name]
	if !ok {
		factor = 1
	}
	var childSizes map[string]int
	switch {
	case p.list != nil:
		n := p.list.size(f.ArgumentMap(w.vars))
		if len(p.list.sized) == 0 {
			factor = n
		} else {
			childSizes = make(map[string]int, len(p.list.sized))
			for _, name := range p.list.sized {
				childSizes[name] = n
			}
		}
	case f.ObjectDefinition.Name == "Query" && f.Name == "_entities":
		factor = representations(f.ArgumentMap(w.vars))
	}
	if len(f.SelectionSet) == 0 {
		return p.weight
	}
	child := w.set(f.SelectionSet, childSizes)
	if factor > 0 && child > costCap/factor {
		return costCap
	}
	return capped(p.weight + factor*child)
}

// costLimit refuses, before execution, an operation whose cost under the
// model exceeds max: COMPLEXITY_LIMIT_EXCEEDED, with the cost and the
// limit in extensions.cost.
type costLimit struct {
	model *costModel
	max   int
}

func (l costLimit) check(o *ast.OperationDefinition, op *graphql.OperationContext) *gqlerror.Error {
	if o == nil {
		return nil
	}
	if n := l.model.Cost(o, op.Variables); n > l.max {
		err := refused(CodeComplexityLimit, fmt.Sprintf("operation has complexity %d, which exceeds the limit of %d", n, l.max))
		err.Extensions["cost"] = map[string]any{"estimated": n, "max": l.max}
		return err
	}
	return nil
}
