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
	under := func(name string) bool { return selects(ctx, append(append([]string{}, path...), name)...) }
	var fs []func()
	if under("tenants") && r.holds(c, authz.ManageTenant) {
		fs = append(fs, func() { prefetch(ctx, l.tenantsOfCustomer, svc.TenantsByCustomerIDs, ids) })
	}
	if under("instances") && r.holds(c, authz.ManageInstances) {
		nested := under("instances") && selects(ctx, append(append([]string{}, path...), "instances", "tenants")...) &&
			r.holds(c, authz.ManageTenant)
		fs = append(fs, func() {
			insts := prefetch(ctx, l.instancesOfCustomer, svc.InstancesByCustomerIDs, ids)
			if nested {
				var instIDs []string
				for _, is := range insts {
					for _, in := range is {
						instIDs = append(instIDs, in.ID)
					}
				}
				prefetch(ctx, l.tenantsOfInstance, svc.TenantsByInstanceIDs, instIDs)
			}
		})
	}
	if under("users") && r.holds(c, authz.ManageCustomerUser) {
		fs = append(fs, func() { prefetch(ctx, l.usersOfCustomer, svc.UsersByCustomerIDs, ids) })
	}
	if under("grants") && r.holds(c, authz.ManageInternalUsers) {
		fs = append(fs, func() { prefetch(ctx, l.grants, svc.GrantsByCustomerIDs, ids) })
	}
	prefetchAll(fs...)
}
