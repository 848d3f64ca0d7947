package authz

import (
	"errors"
	"fmt"
)

// Access is how much of an action a role holds.
type Access uint8

// Access levels. Full is read and write.
const (
	AccessNone Access = iota
	AccessRead
	AccessFull
)

var accessNames = [...]string{AccessNone: "none", AccessRead: "read", AccessFull: "full"}

var accessEnum = enum[Access]{first: AccessNone, n: len(accessNames), name: func(x Access) string { return accessNames[x] },
	kind: "Access", unknown: errors.New("unknown access")}

// String returns none, read or full.
func (x Access) String() string { return accessEnum.str(x) }

// ParseAccess reads none, read or full.
func ParseAccess(s string) (Access, error) { return accessEnum.parse(s) }

// Entry is one row of the role_permissions table: role holds action at access.
type Entry struct {
	Role   Role
	Action Action
	Access Access
}

// ParseEntry reads one role_permissions row as stored (access full or read).
func ParseEntry(role, action, access string) (Entry, error) {
	r, err := ParseRole(role)
	if err != nil {
		return Entry{}, err
	}
	a, err := ParseAction(action)
	if err != nil {
		return Entry{}, err
	}
	x, err := ParseAccess(access)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Role: r, Action: a, Access: x}, nil
}

// Catalog is the compiled permission catalog: what each role holds of each
// action, before scope. A look-up is two array indexes. A Catalog is
// immutable and safe for concurrent use.
type Catalog struct {
	access [numRoles][numActions]Access
}

// NewCatalog compiles entries (normally the rows of role_permissions). It
// refuses unknown roles and actions, access other than read or full, duplicate
// (role, action) pairs, and any entry that breaks an invariant of the spec, so
// those hold even when the table is edited:
//   - only platform_admin holds create_customer, transfer_tenant, transfer_home_org (R5.7-never);
//   - only platform_admin and owner hold transfer_ownership (R4.6-owner-transfer);
//   - no portal role holds an internal-infrastructure action (R5.7-no-infra);
//   - no scoped internal role (account_manager, qa_admin) holds one either (R4.6-infra, R5.7-am);
//   - no portal role creates, deletes or transfers a tenant (R5.7-no-tenant);
//   - no internal role uploads cx data (D-data-access).
//
// Every problem is reported, joined into one error.
func NewCatalog(entries []Entry) (*Catalog, error) {
	c := &Catalog{}
	var errs []error
	for _, e := range entries {
		if err := checkEntry(e); err != nil {
			errs = append(errs, err)
			continue
		}
		if c.access[e.Role][e.Action] != AccessNone {
			errs = append(errs, fmt.Errorf("authz: duplicate entry %s %s", e.Role, e.Action))
			continue
		}
		c.access[e.Role][e.Action] = e.Access
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// ErrInvariant is wrapped by NewCatalog's error for an entry the spec forbids.
var ErrInvariant = errors.New("entry breaks an authorization invariant")

func checkEntry(e Entry) error {
	switch {
	case !e.Role.valid():
		return fmt.Errorf("authz: %w %d", ErrUnknownRole, uint8(e.Role))
	case !e.Action.valid():
		return fmt.Errorf("authz: %w %d", ErrUnknownAction, uint8(e.Action))
	case e.Access != AccessRead && e.Access != AccessFull:
		return fmt.Errorf("authz: entry %s %s: access must be read or full, not %s", e.Role, e.Action, e.Access)
	}
	if reason := forbidden(e.Role, e.Action); reason != "" {
		return fmt.Errorf("authz: %w: %s %s: %s", ErrInvariant, e.Role, e.Action, reason)
	}
	return nil
}

// forbidden returns why role may never hold action whatever the catalog says,
// or "" when the catalog decides. Decide and NewCatalog share it.
func forbidden(r Role, a Action) string {
	info := &actions[a]
	switch {
	case info.adminOnly && r != PlatformAdmin:
		return ReasonAdminOnly
	case a == TransferOwnership && r != PlatformAdmin && r != Owner:
		return ReasonOwnerTransfer
	case info.infra && (r.Portal() || r.Scoped()):
		return ReasonInfra
	case info.tenantLifecycle && r.Portal():
		return ReasonPortalTenant
	case info.customerOnly && !r.Portal():
		return ReasonCustomerOnly
	case info.supportOnly && r.Portal():
		return ReasonSupportOnly
	}
	return ""
}

// Access returns what role holds of action before scope; AccessNone for an
// unknown role or action.
func (c *Catalog) Access(r Role, a Action) Access {
	if c == nil || !r.valid() || !a.valid() {
		return AccessNone
	}
	return c.access[r][a]
}

// AccessOf returns what p holds of action before scope: the most any of its
// roles (its own and its groups', D-group-roles) holds, an action closed
// to a role counting as none for it.
func (c *Catalog) AccessOf(p *Principal, a Action) Access {
	if c == nil || !a.valid() {
		return AccessNone
	}
	best := AccessNone
	p.roles(func(r Role) { best = max(best, c.Access(r, a)) })
	return best
}

// AllowedOf returns the actions p holds at read or full access (AccessOf),
// in matrix order.
func (c *Catalog) AllowedOf(p *Principal) []Action {
	var out []Action
	for a := CreateCustomer; int(a) < numActions; a++ {
		if c.AccessOf(p, a) != AccessNone {
			out = append(out, a)
		}
	}
	return out
}

// Allowed returns the actions role holds at read or full access, in matrix order.
func (c *Catalog) Allowed(r Role) []Action {
	var out []Action
	for a := CreateCustomer; int(a) < numActions; a++ {
		if c.Access(r, a) != AccessNone {
			out = append(out, a)
		}
	}
	return out
}

// Entries returns the catalog as role_permissions rows, by role then action.
func (c *Catalog) Entries() []Entry {
	var out []Entry
	for r := PlatformAdmin; int(r) < numRoles; r++ {
		for a := CreateCustomer; int(a) < numActions; a++ {
			if x := c.Access(r, a); x != AccessNone {
				out = append(out, Entry{Role: r, Action: a, Access: x})
			}
		}
	}
	return out
}

// MarshalText encodes the access level as none, read or full.
func (x Access) MarshalText() ([]byte, error) { return accessEnum.marshal(x) }

// UnmarshalText decodes none, read or full.
func (x *Access) UnmarshalText(b []byte) error {
	return decode(x, b, ParseAccess)
}

// Covers reports whether p holds at least what role r holds of every
// action, leaving out the actions the fixed rules close to p's own role
// (a portal role's data upload for an internal caller): a caller may bind r
// to a group only then (D-group-roles), so no group lends a role more than
// its creator holds.
func (c *Catalog) Covers(p *Principal, r Role) bool {
	if c == nil || !r.valid() {
		return false
	}
	for a := CreateCustomer; int(a) < numActions; a++ {
		if forbidden(p.Role, a) == "" && c.Access(r, a) > c.AccessOf(p, a) {
			return false
		}
	}
	return true
}
