package data

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Who may do what with tenant data (D-data-access; docs/decisions.md) is
// the catalog's, like every other action: authz.ReadTenantData (every role,
// within its scope: a portal user the tenants of its own customer, an
// internal role the tenants of the customers, and for qa_admin the
// instances, of its scope) and authz.UploadCxData (the customer's owner,
// admin and member, into its own customer's schedules). Lists are filtered
// in SQL by the caller's scope and never refuse for scope; an upload is
// decided by access.Check on the schedule's customer.

// readable returns the tenants c may read, or EFORBIDDEN (audited) when
// its role does not read tenant data at all.
func (s *Service) readable(ctx context.Context, c *access.Caller, tenantID string) (store.TenantFilter, error) {
	if err := s.access.CheckRole(ctx, c, authz.ReadTenantData, false); err != nil {
		return store.TenantFilter{}, err
	}
	return store.TenantFilter{TenantID: tenantID, Scope: c.Scope.Filter()}, nil
}

// errUploadRole is the answer to a role that does not upload cx data.
var errUploadRole = platform.Errorf(platform.EFORBIDDEN, "your role may not upload cx data; owner, admin and member may")

// mayUpload reports whether c may upload into a schedule of customerID,
// without auditing (what the caller's tenant list shows).
func (s *Service) mayUpload(c *access.Caller, customerID string) bool {
	return s.access.Access(c, authz.UploadCxData, authz.Resource{CustomerID: customerID}) == authz.AccessFull
}
