package admin

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// scimGroups is what a directory does to its organization's groups through
// SCIM (D-scim; the administrator organization's internal groups,
// D-scim-internal): their names, external ids and members. It
// never binds a role: a group's role is bound in the console by whoever may
// grant it, and membership then gives it (D-groups). A member is a user of
// the organization, or the change is refused whole.
type scimGroups struct{ *directories }

// MaxSCIMGroupMembers is how many members a group's resource lists.
const MaxSCIMGroupMembers = 1000

// SCIMGroupRef names a group or a member: its id and name (a member's
// e-mail address).
type SCIMGroupRef struct {
	ID   string
	Name string
}

// SCIMGroupView is a group as its directory sees it.
type SCIMGroupView struct {
	ID, Name, ExternalID string
	CreatedAt, UpdatedAt time.Time
	Members              []SCIMGroupRef // nil when not asked for
}

// SCIMGroupChange changes a group; nil fields stay. Steps change its
// members in order: "add" and "remove" the ids, "set" makes them the
// members.
type SCIMGroupChange struct {
	Name       *string
	ExternalID *string
	Steps      []SCIMMemberStep
}

// SCIMMemberStep is one change of a group's members.
type SCIMMemberStep struct {
	Op  string // add, remove, set
	IDs []string
}

// groupOf decides op on the caller's directory and loads a group of its
// organization; ENOTFOUND for any other id.
func (s *scimGroups) groupOf(ctx context.Context, c *access.Caller, id string, op scimOp) (directory, *platform.Group, error) {
	d, err := s.of(ctx, c, op)
	if err != nil {
		return d, nil, err
	}
	g, err := s.store.Group(ctx, id)
	if err == nil && g.OrgID != d.orgID {
		err = platform.Errorf(platform.ENOTFOUND, "group not found")
	}
	return d, g, err
}

func (s *scimGroups) groupView(ctx context.Context, g *platform.Group, members bool) (*SCIMGroupView, error) {
	v := &SCIMGroupView{ID: g.ID, Name: g.Name, ExternalID: g.ExternalID, CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	if !members {
		return v, nil
	}
	rows, err := s.store.SCIMGroupMembers(ctx, g.ID, MaxSCIMGroupMembers)
	if err != nil {
		return nil, err
	}
	v.Members = make([]SCIMGroupRef, 0, len(rows))
	for _, m := range rows {
		v.Members = append(v.Members, SCIMGroupRef{ID: m.UserID, Name: m.Email})
	}
	return v, nil
}

// SCIMGroups lists the groups of the caller's organization meeting f,
// count of them from offset on, with their members when members is true,
// and how many meet f.
func (s *scimGroups) SCIMGroups(ctx context.Context, c *access.Caller, f *SCIMFilter, offset, count int, members bool) ([]*SCIMGroupView, int, error) {
	d, err := s.of(ctx, c, scimList)
	if err != nil {
		return nil, 0, err
	}
	rows, total, err := s.store.SCIMGroups(ctx, d.orgID, f, offset, count)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*SCIMGroupView, 0, len(rows))
	for i := range rows {
		v, err := s.groupView(ctx, &rows[i], members)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, total, nil
}

// SCIMGroup returns a group of the caller's organization.
func (s *scimGroups) SCIMGroup(ctx context.Context, c *access.Caller, id string, members bool) (*SCIMGroupView, error) {
	_, g, err := s.groupOf(ctx, c, id, scimGet)
	if err != nil {
		return nil, err
	}
	return s.groupView(ctx, g, members)
}

// SCIMUserGroups names the groups of a user of the caller's organization.
func (s *scimGroups) SCIMUserGroups(ctx context.Context, c *access.Caller, userID string) ([]SCIMGroupRef, error) {
	d, err := s.of(ctx, c, scimGet)
	if err != nil {
		return nil, err
	}
	if _, err := s.store.SCIMUser(ctx, d.orgID, userID); err != nil {
		return nil, err
	}
	return listing(func(g *platform.Group) SCIMGroupRef { return SCIMGroupRef{ID: g.ID, Name: g.Name} })(s.store.UserGroups(ctx, userID))
}

// SCIMCreateGroup creates a group of the caller's organization, binding no
// role, with its members. ECONFLICT for a name or externalId taken;
// EINVALID for a member who is not a user of the organization.
func (s *scimGroups) SCIMCreateGroup(ctx context.Context, c *access.Caller, name, externalID string, members []string) (*SCIMGroupView, error) {
	d, err := s.of(ctx, c, scimCreateGroup)
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	g := &platform.Group{ID: newID(), OrgID: d.orgID, CreatedAt: now, UpdatedAt: now}
	if g.Name, err = required("displayName", name, 200); err != nil {
		return nil, err
	}
	if g.ExternalID, err = text("externalId", externalID, 200); err != nil {
		return nil, err
	}
	if err := checkMembers(members); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, scimCreateGroup.pick(d), d.target("groups", g.ID), func(tx *store.Store) error {
		if err := tx.CreateGroup(ctx, g); err != nil {
			return err
		}
		return addMembers(ctx, tx, g.ID, members, now)
	})
	if err != nil {
		return nil, err
	}
	return s.groupView(ctx, g, true)
}

// SCIMChangeGroup changes a group of the caller's organization in one
// transaction: all of the change or none of it.
func (s *scimGroups) SCIMChangeGroup(ctx context.Context, c *access.Caller, id string, ch SCIMGroupChange, members bool) (*SCIMGroupView, error) {
	d, g, err := s.groupOf(ctx, c, id, scimUpdateGroup)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, st := range ch.Steps {
		if err := checkMembers(st.IDs); err != nil {
			return nil, err
		}
		n += len(st.IDs)
	}
	if n > MaxSCIMGroupMembers {
		return nil, platform.Errorf(platform.EINVALID, "one request changes at most %d members", MaxSCIMGroupMembers)
	}
	now := s.stamp()
	var out *platform.Group
	err = s.audited(ctx, c, scimUpdateGroup.pick(d), d.target("groups", id), func(tx *store.Store) error {
		if ch.Name != nil || ch.ExternalID != nil {
			out, err = tx.UpdateGroup(ctx, id, func(x *platform.Group) error {
				var err error
				if ch.Name != nil {
					if x.Name, err = required("displayName", *ch.Name, 200); err != nil {
						return err
					}
				}
				if ch.ExternalID != nil {
					if x.ExternalID, err = text("externalId", *ch.ExternalID, 200); err != nil {
						return err
					}
				}
				x.UpdatedAt = now
				return nil
			})
			if err != nil {
				return err
			}
		} else if err := tx.TouchGroup(ctx, id, now); err != nil {
			return err
		}
		for _, st := range ch.Steps {
			var err error
			switch st.Op {
			case "set":
				if err = tx.KeepGroupMembers(ctx, id, st.IDs); err == nil {
					err = addMembers(ctx, tx, id, st.IDs, now)
				}
			case "add":
				err = addMembers(ctx, tx, id, st.IDs, now)
			case "remove":
				err = tx.RemoveGroupMembers(ctx, id, st.IDs)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = g
		out.UpdatedAt = now
	}
	return s.groupView(ctx, out, members)
}

// SCIMDeleteGroup removes a group of the caller's organization with its
// members (D-groups: and its grants).
func (s *scimGroups) SCIMDeleteGroup(ctx context.Context, c *access.Caller, id string) error {
	d, _, err := s.groupOf(ctx, c, id, scimDeleteGroup)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, scimDeleteGroup.pick(d), d.target("groups", id), func(tx *store.Store) error {
		return tx.DeleteGroup(ctx, id)
	})
}

func checkMembers(ids []string) error {
	if len(ids) > MaxSCIMGroupMembers {
		return platform.Errorf(platform.EINVALID, "one request changes at most %d members", MaxSCIMGroupMembers)
	}
	for _, id := range ids {
		if id == "" || len(id) > 100 {
			return platform.Errorf(platform.EINVALID, "a member's value must be a user's id")
		}
	}
	return nil
}

// addMembers adds the users ids to the group through tx: EINVALID, and
// nothing added, when one is not a user of the group's organization.
func addMembers(ctx context.Context, tx *store.Store, groupID string, ids []string, at time.Time) error {
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if _, err := tx.AddGroupMember(ctx, false, groupID, id, at); err != nil {
			if platform.ErrorCode(err) == platform.ENOTFOUND {
				return platform.Errorf(platform.EINVALID, "member %s is not a user of this organization", id)
			}
			return err
		}
	}
	return nil
}
