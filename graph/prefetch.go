package graph

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// prefetchCustomerEdges runs, concurrently and once each, the batches of
// the customer edges that the current list field selects under path
// (e.g. "items"), for the customers ids: a page of customers with their
// tenants, instances, users and grants costs one statement per edge.
func (r *Resolver) prefetchCustomerEdges(ctx context.Context, svc *admin.Service, c *access.Caller, ids []string, path ...string) {
	l := loadersFrom(ctx)
	if l == nil {
		return
	}
	at := func(names ...string) []string { return append(append([]string{}, path...), names...) }
	var fs []func()
	if r.holds(c, authz.ManageTenant) {
		for _, n := range firsts(ctx, at("tenants")...) {
			fs = append(fs, func() { l.tenantsOfCustomer.prefetch(ctx, n, ids) })
		}
	}
	if r.holds(c, authz.ManageInstances) {
		var nested []int
		if r.holds(c, authz.ManageTenant) {
			nested = firsts(ctx, at("instances", "tenants")...)
		}
		for _, n := range firsts(ctx, at("instances")...) {
			fs = append(fs, func() {
				var instIDs []string
				for _, is := range l.instancesOfCustomer.prefetch(ctx, n, ids) {
					for _, in := range is {
						instIDs = append(instIDs, in.ID)
					}
				}
				for _, m := range nested {
					l.tenantsOfInstance.prefetch(ctx, m, instIDs)
				}
			})
		}
	}
	if r.holds(c, authz.ManageCustomerUser) {
		for _, n := range firsts(ctx, at("users")...) {
			fs = append(fs, func() { l.usersOfCustomer.prefetch(ctx, n, ids) })
		}
	}
	if selects(ctx, at("grants")...) && r.holds(c, authz.ManageInternalUsers) {
		fs = append(fs, func() { prefetch(ctx, l.grants, svc.GrantsByCustomerIDs, ids) })
	}
	prefetchAll(fs...)
}

// prefetchCustomerPage runs the batches of the edges the current page of
// customers selects of its items (prefetchCustomerEdges).
func (r *Resolver) prefetchCustomerPage(ctx context.Context, svc *admin.Service, c *access.Caller, customers []*admin.Customer) {
	r.prefetchCustomerEdges(ctx, svc, c, ids(customers, func(cu *admin.Customer) string { return cu.ID }), "items")
}

// prefetchTenantPage loads what the current page of tenants selects of its
// elements: their customers, the customers' grants and their instances, in
// one batch each, run together, however many tenants the page holds.
func (r *Resolver) prefetchTenantPage(ctx context.Context, svc *admin.Service, c *access.Caller, tenants []*admin.Tenant) {
	l := loadersFrom(ctx)
	if l == nil {
		return
	}
	custIDs := ids(tenants, func(t *admin.Tenant) string { return t.CustomerID })
	var customers, grants, instances func()
	if selects(ctx, "items", "customer") {
		customers = func() { prefetch(ctx, l.customer, svc.CustomersByIDs, custIDs) }
		if selects(ctx, "items", "customer", "grants") && r.holds(c, authz.ManageInternalUsers) {
			grants = func() { prefetch(ctx, l.grants, svc.GrantsByCustomerIDs, custIDs) }
		}
	}
	if selects(ctx, "items", "instance") && r.holds(c, authz.ManageInstances) {
		instances = func() {
			prefetch(ctx, l.instance, svc.InstancesByIDs, ids(tenants, func(t *admin.Tenant) string { return str(t.InstanceID) }))
		}
	}
	prefetchAll(customers, grants, instances)
}

// prefetchInstancePage loads what the current page of instances selects
// of its elements: their customers, and their tenants for every first
// asked.
func (r *Resolver) prefetchInstancePage(ctx context.Context, svc *admin.Service, c *access.Caller, instances []*admin.Instance) {
	l := loadersFrom(ctx)
	if l == nil {
		return
	}
	var customers, tenants func()
	if selects(ctx, "items", "customer") {
		customers = func() {
			prefetch(ctx, l.customer, svc.CustomersByIDs, ids(instances, func(i *admin.Instance) string { return i.CustomerID }))
		}
	}
	if r.holds(c, authz.ManageTenant) {
		if ns := firsts(ctx, "items", "tenants"); len(ns) > 0 {
			tenants = func() {
				for _, n := range ns {
					l.tenantsOfInstance.prefetch(ctx, n, ids(instances, func(i *admin.Instance) string { return i.ID }))
				}
			}
		}
	}
	prefetchAll(customers, tenants)
}

// prefetchGrants loads what the current list of grants selects of its
// elements: their users, customers and instances, in one batch each, run
// together.
func (r *Resolver) prefetchGrants(ctx context.Context, gs []*admin.GrantView) {
	l := loadersFrom(ctx)
	if l == nil {
		return
	}
	svc := r.Admin
	var users, customers, instances func()
	if selects(ctx, "user") {
		users = func() {
			prefetch(ctx, l.internalUser, svc.InternalUsersByIDs, ids(gs, func(g *admin.GrantView) string { return g.GranteeID }))
		}
	}
	if selects(ctx, "customer") {
		customers = func() {
			prefetch(ctx, l.customer, svc.CustomersByIDs, ids(gs, func(g *admin.GrantView) string { return str(g.CustomerID) }))
		}
	}
	if selects(ctx, "instance") {
		instances = func() {
			prefetch(ctx, l.instance, svc.InstancesByIDs, ids(gs, func(g *admin.GrantView) string { return str(g.InstanceID) }))
		}
	}
	prefetchAll(users, customers, instances)
}
