package authz

import "errors"

// Role is one of the fixed roles of R5.7-roles. Roles live in code; only the
// catalog of what each role may do is data (R5.7-catalog). The zero Role is
// invalid, so a zero Principal holds no permission.
type Role uint8

// Internal roles (users of the administrator organization).
const (
	PlatformAdmin  Role = iota + 1
	AccountManager      // customer-scoped by grants
	QAAdmin             // customer- and instance-scoped by grants
	InfraOps            // formerly ops_engineer
	FinanceAdmin
	ComplianceAdmin
	Reader
)

// Portal roles (users of a customer organization).
const (
	Owner Role = iota + Reader + 1
	Admin
	Billing
	Viewer
	Member
)

// numRoles sizes the catalog's arrays; index 0 is the invalid Role.
const numRoles = int(Member) + 1

// legacyInfraOps is the old name of infra_ops, accepted by ParseRole only.
const legacyInfraOps = "ops_engineer"

var roleNames = [numRoles]string{
	PlatformAdmin:   "platform_admin",
	AccountManager:  "account_manager",
	QAAdmin:         "qa_admin",
	InfraOps:        "infra_ops",
	FinanceAdmin:    "finance_admin",
	ComplianceAdmin: "compliance_admin",
	Reader:          "reader",
	Owner:           "owner",
	Admin:           "admin",
	Billing:         "billing",
	Viewer:          "viewer",
	Member:          "member",
}

var roleEnum = enum[Role]{first: PlatformAdmin, n: numRoles, name: func(r Role) string { return roleNames[r] },
	kind: "Role", unknown: ErrUnknownRole}

// ErrUnknownRole is wrapped by ParseRole's error for a name that is not a role.
var ErrUnknownRole = errors.New("unknown role")

// ParseRole returns the role named s. The legacy name ops_engineer is read as
// infra_ops; any other unknown name is an error wrapping ErrUnknownRole.
func ParseRole(s string) (Role, error) {
	if s == legacyInfraOps {
		return InfraOps, nil
	}
	return roleEnum.parse(s)
}

// Roles returns every role, internal roles first, in declaration order.
func Roles() []Role { return roleEnum.all() }

// String returns the role's name as stored and sent on the wire.
func (r Role) String() string { return roleEnum.str(r) }

// Internal reports whether r is a role of the administrator organization.
func (r Role) Internal() bool { return r >= PlatformAdmin && r <= Reader }

// Portal reports whether r is a role of a customer's user.
func (r Role) Portal() bool { return r >= Owner && r <= Member }

// Scoped reports whether r is an internal role restricted by grants
// (account_manager, qa_admin): its scope is strict (R5.7-strict).
func (r Role) Scoped() bool { return r == AccountManager || r == QAAdmin }

// InstanceScoped reports whether r is also restricted by instance grants,
// combined with the customer grants by AND (R5.7-and).
func (r Role) InstanceScoped() bool { return r == QAAdmin }

func (r Role) valid() bool { return r >= PlatformAdmin && int(r) < numRoles }

// MarshalText encodes the role as its name.
func (r Role) MarshalText() ([]byte, error) { return roleEnum.marshal(r) }

// UnmarshalText decodes a role name as ParseRole does.
func (r *Role) UnmarshalText(b []byte) error {
	return decode(r, b, ParseRole)
}
