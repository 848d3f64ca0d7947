// Package admin serves the console's administration API under /api/v1
// (SPEC 4.6): customers, tenants, instances, users, grants, billing and the
// internal-infrastructure resources. Every route is declared once in a
// route table with the action of the capability matrix it needs; the table's
// wrapper authenticates, finds the customer and instance the request acts
// on, asks the authorization core, and writes the audit log, so a handler
// only does its own work. The services behind the handlers check again.
package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/store"
)

// MaxBody is the body limit of every admin route (D-limits).
const MaxBody = 1 << 20

// Admin is the console's administration API.
type Admin struct {
	store  *store.Store
	access *access.Service
	now    func() time.Time
	svc    *Service
	routes []Route
}

// New builds the API, its service and its route table.
func New(st *store.Store, acc *access.Service, opts ...Option) *Admin {
	svc := NewService(st, acc, opts...)
	a := &Admin{store: st, access: acc, now: svc.now, svc: svc}
	a.routes = a.table()
	return a
}

// Service returns the service behind the routes, for other transports (GraphQL).
func (a *Admin) Service() *Service { return a.svc }

// Route is one route of the API and the decision in front of it.
type Route struct {
	Method  string
	Pattern string // chi pattern under /api/v1, e.g. "/tenants/{id}"
	Action  authz.Action
	// Write asks for full access; otherwise read access is enough.
	Write bool
	// Target finds the customer and instance the request acts on, normally
	// from its {id}. Nil for routes that name none (lists, which the service
	// filters by scope, and creates whose body names the customer: those
	// check again once the body is read, see Admin.Check).
	Target func(ctx context.Context, r *http.Request) (authz.Resource, error)
	Handle Handler
}

// Handler does a route's work for an authorized caller and returns the
// status and body to answer (body nil: no content).
type Handler func(r *http.Request, c *access.Caller, res authz.Resource) (status int, body any, err error)

// Routes lists the route table (the matrix test walks it).
func (a *Admin) Routes() []Route { return a.routes }

// table declares every route. Each domain file contributes its own.
func (a *Admin) table() []Route {
	var t []Route
	for _, part := range []func() []Route{
		a.meRoutes,
		a.customerRoutes, a.tenantRoutes, a.instanceRoutes, a.userRoutes, a.internalUserRoutes,
		a.grantRoutes, a.focusRoutes, a.auditRoutes, a.subscriptionRoutes,
		a.customerConfigRoutes, a.billingRoutes, a.catalogRoutes, a.releaseRoutes, a.workerRoutes,
		a.userAttributeRoutes, a.discrepancyRoutes,
	} {
		t = append(t, part()...)
	}
	return t
}

// Mount registers the route table on r (the /api/v1 router), each route
// behind auth, which puts the access.Caller in the context.
func (a *Admin) Mount(r chi.Router, auth func(http.Handler) http.Handler) {
	r.Group(func(r chi.Router) {
		r.Use(httpapi.LimitBody(MaxBody), auth)
		for _, rt := range a.routes {
			r.Method(rt.Method, rt.Pattern, a.wrap(rt))
		}
	})
}
