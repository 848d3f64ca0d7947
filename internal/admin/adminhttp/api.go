package adminhttp

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
)

// MaxBody is the body limit of every admin route (D-limits).
const MaxBody = httpapi.MaxBody

// API is the console's administration API over the admin service. Every
// route is declared once in the route table with the operation it performs
// (admin.Operation: the action of the capability matrix, read or write);
// the table's wrapper authenticates, finds the customer and instance the
// request acts on and asks the authorization core, so a handler only
// parses, calls and answers. The service decides again on the same
// operation and records a successful write in the audit log.
type API struct {
	svc    *admin.Service
	access *access.Service
	routes []Route
}

// New builds the API and its route table over svc; acc decides.
func New(svc *admin.Service, acc *access.Service) *API {
	a := &API{svc: svc, access: acc}
	a.routes = a.table()
	return a
}

// Route is one route of the API: method, pattern, the operation it performs
// and the handler that performs it.
type Route struct {
	Method  string
	Pattern string // chi pattern under /api/v1, e.g. "/tenants/{id}"
	// Op is the operation the route performs, declared in internal/admin:
	// the request is decided on its action (or, on a read, its Or for a
	// role without the action) with full access for a write.
	Op admin.Operation
	// Locate finds the customer and instance that the route's {id} belongs
	// to (an admin.Service …Resource method). Nil for routes that name none:
	// lists, which the service filters by scope, and creates whose body
	// names the customer, which the service decides once it reads the body.
	Locate func(ctx context.Context, id string) (authz.Resource, error)
	Handle Handler
}

// Handler does a route's work for an authorized caller and returns the
// status and body to answer (body nil: no content).
type Handler func(r *http.Request, c *access.Caller, res authz.Resource) (status int, body any, err error)

// Routes lists the route table (the matrix test walks it).
func (a *API) Routes() []Route { return a.routes }

// Mount registers the route table on r (the /api/v1 router), each route
// behind auth, which puts the access.Caller in the context.
func (a *API) Mount(r chi.Router, auth func(http.Handler) http.Handler) {
	r.Group(func(r chi.Router) {
		r.Use(httpapi.LimitBody(MaxBody), auth)
		for _, rt := range a.routes {
			r.Method(rt.Method, rt.Pattern, a.wrap(rt))
		}
	})
}
