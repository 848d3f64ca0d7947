package data

import (
	"context"
	"slices"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/store"
)

// Who may do what with tenant data (D-data-access; docs/decisions.md):
//   - read (listings, the caller's tenants): a portal user the tenants of its
//     own customer, whatever its portal role, since every portal user of the
//     owning customer counts as a tenant member until tenant membership
//     exists; an internal user the tenants of the customers in its scope
//     (unscoped roles: every customer; account_manager, qa_admin and focus
//     mode: Scope.CustomerIDs; qa_admin moreover only tenants on its granted
//     instances or on none). Lists are filtered in SQL and never refuse.
//   - upload cx data: a portal user with role owner, admin or member, on a
//     schedule of its own customer's tenant. Viewer and billing read only;
//     internal roles read only.

// Audit names of the data API's actions.
const (
	actionUpload = "cx_upload"
)

// readFilter selects the tenants c may read.
func readFilter(c *access.Caller) store.TenantFilter {
	switch {
	case c == nil:
		return store.TenantFilter{}
	case c.Role.Portal():
		if c.CustomerID == "" {
			return store.TenantFilter{}
		}
		return store.TenantFilter{CustomerIDs: []string{c.CustomerID}}
	case c.Role.Internal() && c.Scope.Mode == authz.Unscoped:
		return store.TenantFilter{AllCustomers: true}
	case c.Role.Internal():
		// qa_admin: customer AND instance scope (R5.7-and)
		return store.TenantFilter{CustomerIDs: slices.Clone(c.Scope.CustomerIDs),
			InstanceScoped: c.Role.InstanceScoped(), InstanceIDs: slices.Clone(c.Scope.InstanceIDs)}
	}
	return store.TenantFilter{}
}

// uploadRole reports whether c's role may upload cx data at all.
func uploadRole(c *access.Caller) bool {
	switch c.Role {
	case authz.Owner, authz.Admin, authz.Member:
		return c.CustomerID != ""
	}
	return false
}

// mayUpload reports whether c may upload into a schedule of a tenant of customerID.
func mayUpload(c *access.Caller, customerID string) bool {
	return uploadRole(c) && customerID == c.CustomerID
}

// auditDenied writes a refused request to the audit log.
func (s *Service) auditDenied(ctx context.Context, c *access.Caller, action, resource, customerID string, status int, reason string) {
	if s.access != nil && c != nil {
		s.access.Audit(ctx, c, action, resource, customerID, authz.Decision{Status: status, Reason: reason})
	}
}
