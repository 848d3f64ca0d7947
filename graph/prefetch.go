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
