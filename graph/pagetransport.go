package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// pagePOST is gqlgen's POST transport, except that a tenants page answered
// in place (D-graphql-page) writes its bytes itself: the transport would
// encode them again with encoding/json, which checks and compacts every
// byte of the data (a fifth of the page's CPU), for an answer that is
// already what that encoding gives. Everything else, the reading of the
// request, its errors, the headers and every other answer, is the POST
// transport's.
type pagePOST struct{ transport.POST }

// pageOut is the answer's writer: it passes the transport's writes through
// until the page has written its answer, and drops the transport's own
// (empty) answer after it.
type pageOut struct {
	w       http.ResponseWriter
	written bool
}

type pageOutKey struct{}

func (t pagePOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	out := &pageOut{w: w}
	t.POST.Do(out, r.WithContext(context.WithValue(r.Context(), pageOutKey{}, out)), exec)
}

func (o *pageOut) Header() http.Header { return o.w.Header() }

func (o *pageOut) WriteHeader(code int) {
	if !o.written {
		o.w.WriteHeader(code)
	}
}

func (o *pageOut) Write(b []byte) (int, error) {
	if o.written {
		return len(b), nil
	}
	return o.w.Write(b)
}

// pageAnswer answers data: written as it is through the request's pageOut,
// or as a response the transport encodes (the GET transport).
func pageAnswer(ctx context.Context, data []byte) graphql.ResponseHandler {
	out, _ := ctx.Value(pageOutKey{}).(*pageOut)
	if out == nil {
		return graphql.OneShot(&graphql.Response{Data: data})
	}
	return func(context.Context) *graphql.Response {
		if out.written {
			return nil
		}
		_, _ = out.w.Write([]byte(`{"data":`))
		_, _ = out.w.Write(data)
		_, _ = out.w.Write([]byte(`}`))
		out.written = true
		return &graphql.Response{}
	}
}
