package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph/generated"
	"github.com/platform/platform/internal/httpapi"
)

// Limits of the GraphQL endpoint (D-graphql-cost, D-limits). Every operation is
// checked against them before it executes.
const (
	// MaxBody is the largest request body.
	MaxBody = httpapi.MaxBody
	// MaxComplexity bounds an operation's cost under the schema's cost
	// model (D-graphql-cost, graph/cost.go): a field costs its @cost weight
	// (1 by default) plus its selection's cost times its @listSize.
	MaxComplexity = 20_000
	// MaxObjects bounds the objects an operation produces as it runs
	// (graph/objects.go). An operation whose lists are no longer than
	// their @listSize produces fewer objects than it costs, so only lists
	// longer than the schema assumes reach it.
	MaxObjects = MaxComplexity
	// MaxDepth bounds the nesting of fields with selections. The schema has
	// cycles (Customer.tenants → Tenant.customer → …); the limit stops a
	// query from walking them. Introspection's ofType chain does not count
	// (MaxOfType bounds it), so GraphiQL's standard query passes.
	MaxDepth = 10
	// MaxAliases bounds the aliased fields of an operation.
	MaxAliases = 30
	// MaxTokens bounds the tokens the parser reads.
	MaxTokens = 10_000
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
	// MaxObjects overrides the package's MaxObjects (tests).
	MaxObjects int
	// Observe, when set (tests), is called before each field is resolved,
	// inside the limits: with the field's context, after the budget has
	// let it through.
	Observe func(context.Context)
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
	if cfg.MaxObjects == 0 {
		cfg.MaxObjects = MaxObjects
	}
	if cfg.LoaderWait == 0 {
		cfg.LoaderWait = time.Millisecond
	}
	es := generated.NewExecutableSchema(schemaConfig(cfg.Resolver))
	srv := handler.New(es)
	// POST with a JSON body, and GET for queries (the GET transport refuses
	// mutations). No form or multipart transport: a cross-site form cannot
	// post a query (CSRF), and the JSON content type needs a CORS preflight.
	srv.AddTransport(transport.GET{})
	srv.AddTransport(pagePOST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(MaxTokens)
	srv.Use(operationCheck{"IntrospectionSwitch", introspection(cfg.Playground)})
	srv.Use(&strictVariables{})
	srv.Use(operationCheck{"ShapeLimit", shapeLimit{MaxDepth: cfg.MaxDepth, MaxAliases: MaxAliases}.check})
	srv.Use(operationCheck{"EntitiesLimit", entitiesLimit})
	srv.Use(operationCheck{"CostLimit", costLimit{model: schemaCost(es), max: MaxComplexity}.check})
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		if !cfg.NoFastPage {
			if page := cfg.Resolver.servePage(ctx, cfg.MaxObjects); page != nil {
				return page
			}
		}
		return next(withBudget(withLoaders(withDecisions(ctx), &cfg.Resolver, cfg.LoaderWait), cfg.MaxObjects))
	})
	srv.AroundResponses(aroundResponses)
	srv.AroundFields(aroundFields)
	if observe := cfg.Observe; observe != nil {
		srv.AroundFields(func(ctx context.Context, next graphql.Resolver) (any, error) {
			observe(ctx)
			return next(ctx)
		})
	}

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
		if r.Method == http.MethodPost && !httpapi.IsJSON(r) {
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

// writeTransportError answers a request no transport takes with a GraphQL
// error response.
func writeTransportError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"errors":[{"message":"` + msg + `","extensions":{"code":"` + code + `"}}],"data":null}`))
}

// schemaConfig wires resolvers and directives; the schema's cost
// directives price operations (costLimit), not gqlgen's complexity
// functions.
func schemaConfig(r Resolver) generated.Config {
	res := r
	d := &directives{access: r.Access}
	if r.Admin != nil {
		d.manages = r.Admin.ManagesGroup
	}
	c := generated.Config{Resolvers: &res}
	c.Directives.Authz = d.authz
	c.Directives.Redact = d.redact
	return c
}

// schemaCost is the cost model of es's schema; a schema whose directives
// the model cannot apply is a programming error.
func schemaCost(es graphql.ExecutableSchema) *costModel {
	m, err := newCostModel(es.Schema())
	if err != nil {
		panic(err)
	}
	return m
}
