package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph/generated"
	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/httpapi"
)

// Limits of the GraphQL endpoint (DESIGN 6, D-limits). Every operation is
// checked against them before it executes.
const (
	// MaxBody is the largest request body.
	MaxBody = 1 << 20
	// MaxComplexity bounds an operation's cost: every field costs 1, and a
	// list field costs its page size times its elements' cost.
	MaxComplexity = 20_000
	// MaxDepth bounds the nesting of fields with selections. The schema has
	// cycles (Customer.tenants → Tenant.customer → …); the limit stops a
	// query from walking them. Introspection's ofType chain does not count
	// (MaxOfType bounds it), so GraphiQL's standard query passes.
	MaxDepth = 10
	// MaxAliases bounds the aliased fields of an operation.
	MaxAliases = 30
	// MaxTokens bounds the tokens the parser reads.
	MaxTokens = 10_000
	// edgeCost is the number of children a parent → children edge is priced at.
	edgeCost = 10
)

// Config configures the endpoint.
type Config struct {
	Resolver
	// Playground serves GraphiQL on GET requests from browsers (its files
	// under Endpoint/assets/, which the router must route here too) and
	// turns introspection on (D-playground). The federation SDL (_service)
	// is served either way.
	Playground bool
	// Endpoint is the path the playground sends queries to (default /graphql).
	Endpoint string
	// Auth authenticates the API's requests (access.Require); the
	// playground page itself is served without it.
	Auth func(http.Handler) http.Handler
	// MaxDepth overrides the package's MaxDepth (tests).
	MaxDepth int
	// LoaderWait is how long a dataloader collects keys before it runs its
	// batch (default 1ms). Lists prefetch what their elements will ask for,
	// so their batches do not depend on it.
	LoaderWait time.Duration
	// NoFastPage sends every operation through gqlgen's executor, the
	// tenants page too (D-graphql-page; tests compare the two).
	NoFastPage bool
}

// NewHandler returns the /graphql handler. Operations go through
// cfg.Auth, which puts the access.Caller in the context; the request id
// comes from httpapi.WithRequestID in front of every role.
func NewHandler(cfg Config) http.Handler {
	if cfg.Endpoint == "" {
		cfg.Endpoint = "/graphql"
	}
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = MaxDepth
	}
	if cfg.LoaderWait == 0 {
		cfg.LoaderWait = time.Millisecond
	}
	srv := handler.New(pricedEntities{generated.NewExecutableSchema(schemaConfig(cfg.Resolver))})
	// POST with a JSON body, and GET for queries (the GET transport refuses
	// mutations). No form or multipart transport: a cross-site form cannot
	// post a query (CSRF), and the JSON content type needs a CORS preflight.
	srv.AddTransport(transport.GET{})
	srv.AddTransport(pagePOST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(MaxTokens)
	srv.Use(introspection{on: cfg.Playground})
	srv.Use(&strictVariables{})
	srv.Use(shapeLimit{MaxDepth: cfg.MaxDepth, MaxAliases: MaxAliases})
	srv.Use(entitiesLimit{})
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		if !cfg.NoFastPage {
			if page := cfg.Resolver.servePage(ctx); page != nil {
				return page
			}
		}
		return next(withLoaders(withDecisions(ctx), &cfg.Resolver, cfg.LoaderWait))
	})

	var play *playground
	if cfg.Playground {
		if cfg.Admin != nil {
			play = newPlayground(cfg.Endpoint, "console", consoleExample)
		} else {
			play = newPlayground(cfg.Endpoint, "cookie", tenantExample)
		}
	}
	api := httpapi.LimitBody(MaxBody)(srv)
	if cfg.Auth != nil {
		api = cfg.Auth(api)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if play != nil && play.serves(w, r) {
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodPost {
			w.Header().Set("Allow", "GET, POST")
			writeTransportError(w, http.StatusMethodNotAllowed, "BAD_REQUEST", "use POST with a JSON body, or GET for queries")
			return
		}
		if r.Method == http.MethodPost && !isJSON(r.Header.Get("Content-Type")) {
			writeTransportError(w, http.StatusUnsupportedMediaType, "BAD_REQUEST", "the body must be JSON (Content-Type: application/json)")
			return
		}
		if r.Method == http.MethodPost {
			// Read the body here, within MaxBody, whatever its framing: a chunked
			// body has no Content-Length for LimitBody to refuse up front.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeTransportError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the body is larger than %d bytes", MaxBody))
				return
			} else if err != nil {
				writeTransportError(w, http.StatusBadRequest, "BAD_REQUEST", "the body could not be read")
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		api.ServeHTTP(w, r.WithContext(withRawVariables(r.Context())))
	})
}

func isJSON(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// writeTransportError answers a request no transport takes with a GraphQL
// error response.
func writeTransportError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"errors":[{"message":"` + msg + `","extensions":{"code":"` + code + `"}}],"data":null}`))
}

// schemaConfig wires resolvers, directives and complexity.
func schemaConfig(r Resolver) generated.Config {
	res := r
	d := &directives{access: r.Access}
	c := generated.Config{Resolvers: &res}
	c.Directives.Authz = d.authz
	c.Directives.Redact = d.redact
	setComplexity(&c.Complexity)
	return c
}

// page returns the cost of a page of size first (or def) whose elements cost child.
func page(first *int, def, child int) int {
	n := def
	if first != nil && *first > 0 {
		n = *first
	}
	return 1 + n*child
}

func setComplexity(c *generated.ComplexityRoot) {
	c.Query.Customers = func(child int, first *int, _, _ *string) int { return page(first, 50, child) }
	c.Query.Tenants = func(child int, _, _ *string, first *int, _ *string) int { return page(first, 50, child) }
	c.Query.Instances = func(child int, _ *string, first *int, _, _ *string) int { return page(first, 50, child) }
	c.Query.Users = func(child int, _ *string, first *int, _ *string) int { return page(first, 50, child) }
	c.Query.AuditLog = func(child int, _ *string, first *int, _ *string) int { return page(first, 100, child) }
	c.Query.Usage = func(child int, _, _, _, _ *string, first *int, _ *string) int { return page(first, 100, child) }
	c.Customer.Usage = func(child int, _, _ *string, first *int, _ *string) int { return page(first, 100, child) }
	// The parent → children edges return at most store.ChildLimit each;
	// they are priced at a typical ten, so that a page of customers with
	// their tenants stays within MaxComplexity.
	edge := func(child int) int { return page(nil, edgeCost, child) }
	c.Customer.Tenants, c.Customer.Instances, c.Customer.Users, c.Instance.Tenants = edge, edge, edge, edge
	c.Query.MasterRecords = func(child int, _ string, _, pageSize *int, _ *model.MasterRecordFilter, _ *string) int {
		return page(pageSize, 50, child)
	}
	c.Query.MasterRecordConnection = func(child int, _ string, first *int, _ *string, _ *model.MasterRecordFilter, _ *string) int {
		return page(first, 50, child)
	}
}
