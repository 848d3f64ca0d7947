package admin

import (
	"context"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// groups manages customers' groups and the internal groups of the
// administrator organization (D-groups): their bound role, members,
// managers and, for internal groups, grants (group_grant.go).
type groups struct {
	*core
	adminOrgID string // home of internal groups (WithAdminOrg)
}

// Group is a group as the API shows it: customerId is null for an internal
// group, role is "" when the group binds none.
type Group struct {
	ID         string    `json:"id"`
	CustomerID *string   `json:"customerId"`
	Name       string    `json:"name"`
	Role       string    `json:"role"`
	ExternalID string    `json:"externalId"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

func newGroup(g *platform.Group, customerID string) *Group {
	return &Group{ID: g.ID, CustomerID: orNull(customerID), Name: g.Name, Role: g.Role, ExternalID: g.ExternalID,
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
}

// GroupInput creates a group: a name (1 to MaxGroupName characters), the
// role it binds ("" none) and the directory's id of it (optional).
type GroupInput struct {
	Name       string `json:"name"`
	Role       string `json:"role"`
	ExternalID string `json:"externalId"`
}

// GroupPatch changes a group; nil fields stay.
type GroupPatch struct {
	Name       *string `json:"name,omitempty"`
	Role       *string `json:"role,omitempty"`
	ExternalID *string `json:"externalId,omitempty"`
}

// GroupMember is a member or a manager of a group.
type GroupMember struct {
	UserID  string    `json:"userId"`
	Email   string    `json:"email"`
	Name    string    `json:"name"`
	AddedAt time.Time `json:"addedAt"`
}

func newGroupMember(m *store.GroupMember) *GroupMember {
	return &GroupMember{UserID: m.UserID, Email: m.Email, Name: m.Name, AddedAt: m.AddedAt}
}

// MaxGroupName bounds a group's name and external id, in characters.
const MaxGroupName = 200

// groupOps are the operations of one kind of group: a customer's, or internal.
type groupOps struct {
	list, create, get, update, del, members, memberAdd, memberRemove, managers, managerAdd, managerRemove Operation
}

var (
	customerGroupOps = groupOps{OpGroupList, OpGroupCreate, OpGroupGet, OpGroupUpdate, OpGroupDelete, OpGroupMembers,
		OpGroupMemberAdd, OpGroupMemberRemove, OpGroupManagers, OpGroupManagerAdd, OpGroupManagerRemove}
	internalGroupOps = groupOps{OpInternalGroupList, OpInternalGroupCreate, OpInternalGroupGet, OpInternalGroupUpdate,
		OpInternalGroupDelete, OpInternalGroupMembers, OpInternalGroupMemberAdd, OpInternalGroupMemberRemove,
		OpInternalGroupManagers, OpInternalGroupManagerAdd, OpInternalGroupManagerRemove}
)

func opsOf(internal bool) groupOps {
	if internal {
		return internalGroupOps
	}
	return customerGroupOps
}

// located is a group with the customer it belongs to ("" for an internal group).
type locatedGroup struct {
	*platform.Group
	customerID string
}

// locate loads group id of the kind asked: a group of another kind is
// missing (ENOTFOUND).
func (s *groups) locate(ctx context.Context, internal bool, id string) (*locatedGroup, error) {
	g, err := s.store.Group(ctx, id)
	if err != nil {
		return nil, err
	}
	if internal {
		if s.adminOrgID == "" || g.OrgID != s.adminOrgID {
			return nil, platform.Errorf(platform.ENOTFOUND, "group not found")
		}
		return &locatedGroup{Group: g}, nil
	}
	cust, err := s.store.CustomerByOrg(ctx, g.OrgID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, platform.Errorf(platform.ENOTFOUND, "group not found")
	} else if err != nil {
		return nil, err
	}
	return &locatedGroup{Group: g, customerID: cust.ID}, nil
}

func groupResource(g *locatedGroup) authz.Resource { return authz.Resource{CustomerID: g.customerID} }

// GroupResource is the customer of customer group id (the routes' Locate).
func (s *groups) GroupResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(groupResource)(s.locate(ctx, false, id))
}

// InternalGroupResource names no customer: internal group id exists
// (the routes' Locate).
func (s *groups) InternalGroupResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(groupResource)(s.locate(ctx, true, id))
}

// groupFor loads group id of its kind and checks op on it; a group's
// manager passes an operation that says so (D-group-managers) without the
// action, its write audited as anyone's.
func (s *groups) groupFor(ctx context.Context, c *access.Caller, internal bool, id string, op Operation) (*locatedGroup, error) {
	g, err := s.locate(ctx, internal, id)
	if err == nil && op.GroupManager {
		if ok, err := s.store.ManagesGroup(ctx, c.UserID, id); err != nil {
			return nil, err
		} else if ok {
			return g, nil
		}
	}
	return decided(ctx, s.core, c, op, groupResource)(g, err)
}

// ManagesGroup reports whether c manages group id, so that the transports
// let its member operations through to the service (which decides again).
func (s *groups) ManagesGroup(ctx context.Context, c *access.Caller, id string) bool {
	ok, err := s.store.ManagesGroup(ctx, c.UserID, id)
	return err == nil && ok
}

// boundRole checks the role a group of the kind asked may bind, by c: ""
// (none), or a role of the group's kind (portal for a customer's group,
// internal for an internal one; EINVALID otherwise), never owner (EINVALID:
// ownership moves only by transfer), and only a role whose every permission
// c holds itself (EFORBIDDEN, D-group-roles).
func (s *groups) boundRole(c *access.Caller, internal bool, name string) (string, error) {
	if name == "" {
		return "", nil
	}
	var r authz.Role
	var err error
	if internal {
		r, err = internalRole(name)
	} else {
		r, err = portalRole(name)
	}
	if err != nil {
		return "", err
	}
	if !s.access.Catalog().Covers(&c.Principal, r) {
		return "", platform.Errorf(platform.EFORBIDDEN, "not allowed: you may not grant the role %s", r)
	}
	return r.String(), nil
}

// groupText checks a group's name or external id: trimmed, at most
// MaxGroupName characters, and not empty when required.
func groupText(field, v string, required bool) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case required && v == "":
		return "", platform.Errorf(platform.EINVALID, "%s is required", field)
	case len([]rune(v)) > MaxGroupName:
		return "", platform.Errorf(platform.EINVALID, "%s must be at most %d characters", field, MaxGroupName)
	}
	return v, nil
}

// ListGroups lists a customer's groups by name.
func (s *groups) ListGroups(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*Group], error) {
	cust, err := s.customerFor(ctx, c, customerID, OpGroupList)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, cust.OrgID, cust.ID, p)
}

// ListInternalGroups lists the internal groups by name.
func (s *groups) ListInternalGroups(ctx context.Context, c *access.Caller, p PageInput) (*Page[*Group], error) {
	if err := s.infra(ctx, c, OpInternalGroupList); err != nil {
		return nil, err
	}
	return s.list(ctx, s.adminOrgID, "", p)
}

func (s *groups) list(ctx context.Context, orgID, customerID string, p PageInput) (*Page[*Group], error) {
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	rows, next, err := s.store.ListGroups(ctx, orgID, p)
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, func(g *platform.Group) *Group { return newGroup(g, customerID) }), next), nil
}

// CreateGroup creates a group of a customer. ECONFLICT when the customer
// has a group of that name or external id.
func (s *groups) CreateGroup(ctx context.Context, c *access.Caller, customerID string, in GroupInput) (*Group, error) {
	cust, err := s.customerFor(ctx, c, customerID, OpGroupCreate)
	if err != nil {
		return nil, err
	}
	return s.create(ctx, c, false, cust.OrgID, cust.ID, in)
}

// CreateInternalGroup creates an internal group, bound to an internal role.
func (s *groups) CreateInternalGroup(ctx context.Context, c *access.Caller, in GroupInput) (*Group, error) {
	if err := s.infra(ctx, c, OpInternalGroupCreate); err != nil {
		return nil, err
	}
	if s.adminOrgID == "" {
		return nil, platform.Errorf(platform.EINTERNAL, "no administrator organization is configured")
	}
	return s.create(ctx, c, true, s.adminOrgID, "", in)
}

func (s *groups) create(ctx context.Context, c *access.Caller, internal bool, orgID, customerID string, in GroupInput) (*Group, error) {
	name, err := groupText("name", in.Name, true)
	if err != nil {
		return nil, err
	}
	ext, err := groupText("externalId", in.ExternalID, false)
	if err != nil {
		return nil, err
	}
	role, err := s.boundRole(c, internal, in.Role)
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	g := &platform.Group{ID: newID(), OrgID: orgID, Name: name, Role: role, ExternalID: ext, CreatedAt: now, UpdatedAt: now}
	op := opsOf(internal).create
	err = s.audited(ctx, c, op, on(customerID, "groups", g.ID), func(tx *store.Store) error { return tx.CreateGroup(ctx, g) })
	if err != nil {
		return nil, err
	}
	return newGroup(g, customerID), nil
}

// Group returns a customer's group (internal false) or an internal group.
func (s *groups) Group(ctx context.Context, c *access.Caller, internal bool, id string) (*Group, error) {
	g, err := s.groupFor(ctx, c, internal, id, opsOf(internal).get)
	if err != nil {
		return nil, err
	}
	return newGroup(g.Group, g.customerID), nil
}

// UpdateGroup renames a group, changes the role it binds (boundRole's
// rules: the caller may also take away only a role it may grant) or its
// external id.
func (s *groups) UpdateGroup(ctx context.Context, c *access.Caller, internal bool, id string, in GroupPatch) (*Group, error) {
	op := opsOf(internal).update
	g, err := s.groupFor(ctx, c, internal, id, op)
	if err != nil {
		return nil, err
	}
	if in.Name != nil {
		if g.Name, err = groupText("name", *in.Name, true); err != nil {
			return nil, err
		}
	}
	if in.ExternalID != nil {
		if g.ExternalID, err = groupText("externalId", *in.ExternalID, false); err != nil {
			return nil, err
		}
	}
	if in.Role != nil && *in.Role != g.Role {
		if _, err := s.boundRole(c, internal, g.Role); err != nil { // taking a role away is granting's other half
			return nil, err
		}
		if g.Role, err = s.boundRole(c, internal, *in.Role); err != nil {
			return nil, err
		}
	}
	g.UpdatedAt = s.stamp()
	var out *platform.Group
	err = s.audited(ctx, c, op, on(g.customerID, "groups", id), func(tx *store.Store) error {
		out, err = tx.UpdateGroup(ctx, id, func(row *platform.Group) error {
			row.Name, row.Role, row.ExternalID, row.UpdatedAt = g.Name, g.Role, g.ExternalID, g.UpdatedAt
			return nil
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return newGroup(out, g.customerID), nil
}

// DeleteGroup removes a group with its members, managers and grants: its
// members lose its role and grants at their next request. Removing a group
// that binds a role is taking that role away (boundRole's rules).
func (s *groups) DeleteGroup(ctx context.Context, c *access.Caller, internal bool, id string) error {
	op := opsOf(internal).del
	g, err := s.groupFor(ctx, c, internal, id, op)
	if err != nil {
		return err
	}
	if _, err := s.boundRole(c, internal, g.Role); err != nil {
		return err
	}
	return s.audited(ctx, c, op, on(g.customerID, "groups", id), func(tx *store.Store) error { return tx.DeleteGroup(ctx, id) })
}

// GroupMembers lists a group's members, or its managers when managers is
// true, by e-mail.
func (s *groups) GroupMembers(ctx context.Context, c *access.Caller, internal, managers bool, id string, p PageInput) (*Page[*GroupMember], error) {
	op := opsOf(internal).members
	if managers {
		op = opsOf(internal).managers
	}
	if _, err := s.groupFor(ctx, c, internal, id, op); err != nil {
		return nil, err
	}
	if err := checkPage(platform.NamePages, p); err != nil {
		return nil, err
	}
	rows, next, err := s.store.GroupMembers(ctx, managers, id, p)
	if err != nil {
		return nil, err
	}
	return newPage(views(rows, newGroupMember), next), nil
}

// AddGroupMember makes a user a member of a group, or its manager when
// manager is true (adding twice changes nothing). ENOTFOUND when the user is
// not a user of the group's organization: a group never holds another
// customer's user.
func (s *groups) AddGroupMember(ctx context.Context, c *access.Caller, internal, manager bool, id, userID string) (*GroupMember, error) {
	op := opsOf(internal).memberAdd
	if manager {
		op = opsOf(internal).managerAdd
	}
	g, err := s.groupFor(ctx, c, internal, id, op)
	if err != nil {
		return nil, err
	}
	at := s.stamp()
	err = s.audited(ctx, c, op, on(g.customerID, "groups", id, map[bool]string{false: "members", true: "managers"}[manager], userID),
		func(tx *store.Store) error {
			_, err := tx.AddGroupMember(ctx, manager, id, userID, at)
			if platform.ErrorCode(err) == platform.ENOTFOUND {
				return platform.Errorf(platform.ENOTFOUND, "user not found in the group's organization")
			}
			return err
		})
	if err != nil {
		return nil, err
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	return &GroupMember{UserID: u.ID, Email: u.Email, Name: u.Name, AddedAt: at}, nil
}

// RemoveGroupMember removes a member of a group, or a manager when manager
// is true. ENOTFOUND when the user was not one. Removing a customer's owner
// from a group changes nothing of its ownership.
func (s *groups) RemoveGroupMember(ctx context.Context, c *access.Caller, internal, manager bool, id, userID string) error {
	op := opsOf(internal).memberRemove
	if manager {
		op = opsOf(internal).managerRemove
	}
	g, err := s.groupFor(ctx, c, internal, id, op)
	if err != nil {
		return err
	}
	what := map[bool]string{false: "members", true: "managers"}[manager]
	return s.audited(ctx, c, op, on(g.customerID, "groups", id, what, userID), func(tx *store.Store) error {
		return tx.RemoveGroupMember(ctx, manager, id, userID)
	})
}
