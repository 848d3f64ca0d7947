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
// route is declared once in the route table with the action of the
// capability matrix it needs; the table's wrapper authenticates, finds the
// customer and instance the request acts on, asks the authorization core,
// and writes the audit log, so a handler only parses, calls and answers.
type API struct {
	svc    *admin.Service
	access *access.Service
	routes []Route
}

// New builds the API and its route table over svc; acc decides and audits.
func New(svc *admin.Service, acc *access.Service) *API {
	a := &API{svc: svc, access: acc}
	a.routes = a.table()
	return a
}

// Route is one route of the API and the decision in front of it.
type Route struct {
	Method  string
	Pattern string // chi pattern under /api/v1, e.g. "/tenants/{id}"
	Action  authz.Action
	// Or, on a reading route, is the action a role that does not hold
	// Action at all reads with instead (D-instance-reads: instances through
	// create_tenant); zero for none.
	Or authz.Action
	// Write asks for full access; otherwise read access is enough.
	Write bool
	// Target finds the customer and instance that the route's {id} belongs
	// to (an admin.Service …Resource method). Nil for routes that name none:
	// lists, which the service filters by scope, and creates whose body
	// names the customer, which the service decides once it reads the body.
	Target func(ctx context.Context, id string) (authz.Resource, error)
	Handle Handler
}

// Handler does a route's work for an authorized caller and returns the
// status and body to answer (body nil: no content).
type Handler func(r *http.Request, c *access.Caller, res authz.Resource) (status int, body any, err error)

// Routes lists the route table (the matrix test walks it).
func (a *API) Routes() []Route { return a.routes }

// table declares every route. Each noun's file contributes its own.
func (a *API) table() []Route {
	var t []Route
	for _, part := range []func() []Route{
		a.meRoutes,
		a.customerRoutes, a.tenantRoutes, a.instanceRoutes, a.userRoutes, a.internalUserRoutes,
		a.grantRoutes, a.focusRoutes, a.auditRoutes, a.subscriptionRoutes,
		a.identityProviderRoutes, a.webhookRoutes, a.serviceAccountRoutes,
		a.billingRoutes, a.catalogRoutes, a.releaseRoutes, a.workerRoutes,
		a.userAttributeRoutes, a.discrepancyRoutes,
	} {
		t = append(t, part()...)
	}
	return t
}

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
