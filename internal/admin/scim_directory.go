package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// directory is the organization a SCIM token provisions (D-scim,
// D-scim-internal): its customer's, whose users and groups it changes as an
// admin of the customer does; or, for a token of no customer, the
// administrator organization, whose internal users and internal groups it
// changes as whoever manages internal users does. It never binds a role: a
// provisioned internal user holds no role of its own, only what its groups
// bind (access.Load), so it reaches nothing until a group gives it a role.
type directory struct {
	orgID      string
	customerID string // "" for the administrator organization
}

func (d directory) internal() bool { return d.customerID == "" }

// target names what the directory changes in its audit events: a
// customer's users and groups, or internal ones, which no customer sees.
func (d directory) target(kind, id string) acted {
	if d.internal() {
		return on("", "internal-"+kind, id)
	}
	return on(d.customerID, kind, id)
}

// scimOp is what a SCIM request does, as a customer's directory and as the
// administrator organization's.
type scimOp struct{ customer, internal Operation }

// pick is the operation of the directory d.
func (o scimOp) pick(d directory) Operation {
	if d.internal() {
		return o.internal
	}
	return o.customer
}

var (
	scimList        = scimOp{OpUserList, OpInternalUserList}
	scimGet         = scimOp{OpUserGet, OpInternalUserGet}
	scimCreateUser  = scimOp{OpUserInvite, OpInternalUserCreate}
	scimRenameUser  = scimOp{OpUserUpdate, OpInternalUserUpdate}
	scimSuspendUser = scimOp{OpUserSuspend, OpInternalUserSuspend}
	scimReactivate  = scimOp{OpUserReactivate, OpInternalUserReactivate}
	scimDeleteUser  = scimOp{OpUserDelete, OpInternalUserDelete}
	scimCreateGroup = scimOp{OpSCIMGroupCreate, OpSCIMInternalGroupCreate}
	scimUpdateGroup = scimOp{OpSCIMGroupUpdate, OpSCIMInternalGroupUpdate}
	scimDeleteGroup = scimOp{OpSCIMGroupDelete, OpSCIMInternalGroupDelete}
)

// provisionedRole is the role of its own a user the directory d creates
// holds: member of a customer; none in the administrator organization,
// where every internal role but one held through a group would reach more
// than a newcomer should (reader reads every customer; a scoped role of its
// own would narrow an unscoped one its groups bind). Its groups bind the
// rest.
func provisionedRole(d directory) string {
	if d.internal() {
		return ""
	}
	return authz.Member.String()
}

// directories finds a SCIM caller's directory.
type directories struct {
	*core
	adminOrgID string // the administrator organization (WithAdminOrg)
}

// of decides op on the caller's directory and answers it: the caller's
// customer's organization, or the administrator organization for a
// caller of no customer (a token of that organization, SCIMCaller).
func (s *directories) of(ctx context.Context, c *access.Caller, op scimOp) (directory, error) {
	if c.CustomerID != "" {
		cust, err := s.customerFor(ctx, c, c.CustomerID, op.customer)
		if err != nil {
			return directory{}, err
		}
		return directory{orgID: cust.OrgID, customerID: cust.ID}, nil
	}
	if err := s.infra(ctx, c, op.internal); err != nil {
		return directory{}, err
	}
	if s.adminOrgID == "" {
		return directory{}, platform.Errorf(platform.EINTERNAL, "no administrator organization is configured")
	}
	return directory{orgID: s.adminOrgID}, nil
}
