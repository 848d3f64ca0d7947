package graph

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// budget counts what one operation produces as it runs: every object a
// field resolves to and every element of a list. Past max the operation is
// aborted: no field resolves any more, and the answer is one
// OBJECT_LIMIT_EXCEEDED error without data. Once the request's context
// ends, no field resolves either, and the answer (if anyone still reads
// it) is one SERVICE_UNAVAILABLE error.
type budget struct {
	max      int64
	done     <-chan struct{}
	produced atomic.Int64
	over     atomic.Bool
	ended    atomic.Bool
}

type budgetKey struct{}

func withBudget(ctx context.Context, max int) context.Context {
	return context.WithValue(ctx, budgetKey{}, &budget{max: int64(max), done: ctx.Done()})
}

func budgetFrom(ctx context.Context) *budget {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	return b
}

// aroundFields is the field middleware of the budget: it refuses to call a
// resolver once the request's context has ended or the operation is over
// its budget, and counts what each resolver produced.
func aroundFields(ctx context.Context, next graphql.Resolver) (any, error) {
	b := budgetFrom(ctx)
	if b == nil {
		return next(ctx)
	}
	select {
	case <-b.done:
		b.ended.Store(true)
		return nil, stopped(CodeUnavailable, "the request ended before its answer was complete")
	default:
	}
	if b.over.Load() {
		return nil, b.overError()
	}
	res, err := next(ctx)
	if err != nil || res == nil {
		return res, err
	}
	if n := produced(graphql.GetFieldContext(ctx), res); n > 0 && b.produced.Add(n) > b.max {
		b.over.Store(true)
		return nil, b.overError()
	}
	return res, nil
}

func (b *budget) overError() error {
	return stopped(CodeObjectLimit, fmt.Sprintf("the operation produced more than %d objects", b.max))
}

// stopped is the error of a field the budget does not resolve: a new one
// each time (gqlgen adds the field's path to it), and one the presenter
// passes as it is, without logging it.
func stopped(code, msg string) error {
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": code}}
}

// produced is the number of objects res, the result of fc's field, is: the
// length of a list, 1 for an object, 0 for a leaf or null.
func produced(fc *graphql.FieldContext, res any) int64 {
	if fc == nil {
		return 0
	}
	list := fc.Field.Definition != nil && fc.Field.Definition.Type.Elem != nil
	if !list && len(fc.Field.Selections) == 0 {
		return 0
	}
	v := reflect.ValueOf(res)
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		return int64(v.Len())
	case reflect.Pointer, reflect.Interface, reflect.Map:
		if v.IsNil() {
			return 0
		}
	}
	if list {
		return 0
	}
	return 1
}

// aroundResponses answers a query the budget stopped with one error and
// no data: OBJECT_LIMIT_EXCEEDED past the budget, SERVICE_UNAVAILABLE when
// the request's context ended while fields were left to resolve. A
// mutation keeps its answer, what it did with an error for each field left
// unresolved, so that a write is never reported as not done.
func aroundResponses(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	b := budgetFrom(ctx)
	if resp == nil || b == nil {
		return resp
	}
	if op := graphql.GetOperationContext(ctx); op.Operation != nil && op.Operation.Operation == ast.Mutation {
		return resp
	}
	var err *gqlerror.Error
	switch {
	case b.over.Load():
		err = refused(CodeObjectLimit, fmt.Sprintf("the operation produced more than %d objects; ask for fewer (first) or less nested", b.max))
		err.Extensions["objects"] = map[string]any{"produced": b.produced.Load(), "max": b.max}
	case b.ended.Load():
		err = refused(CodeUnavailable, "the request ended before its answer was complete")
	default:
		return resp
	}
	return &graphql.Response{Errors: gqlerror.List{presentError(ctx, err)}, Extensions: resp.Extensions}
}
