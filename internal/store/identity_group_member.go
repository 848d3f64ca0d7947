package store

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/platform"
)

// GroupMember is a member or a manager of a group: a user of the group's
// organization.
type GroupMember struct {
	GroupID string
	UserID  string
	Email   string
	Name    string
	AddedAt time.Time
}

// groupPeople names the two tables of a group's people: its members
// (managers false) and its managers.
var groupPeople = map[bool]string{false: "group_members", true: "group_managers"}

func scanGroupMember(r Row) (GroupMember, error) {
	var m GroupMember
	err := r.Scan(&m.GroupID, &m.UserID, &m.Email, &m.Name, &m.AddedAt)
	return m, err
}

// AddGroupMember makes a user a member of a group, or its manager when
// manager is true; added is false when it already was. ENOTFOUND when the
// group does not exist or the user is not a user of the group's
// organization (a group never holds another organization's user).
func (s *Identity) AddGroupMember(ctx context.Context, manager bool, groupID, userID string, at time.Time) (added bool, err error) {
	t := groupPeople[manager]
	n, err := s.db.Exec(ctx, `INSERT INTO `+t+` (group_id, user_id, added_at)
		SELECT g.id, u.id, $3 FROM user_groups g JOIN users u ON u.org_id = g.org_id AND u.id = $2 WHERE g.id = $1
		ON CONFLICT DO NOTHING`, groupID, userID, at.UTC())
	if err != nil || n == 1 {
		return n == 1, err
	}
	var found bool
	err = s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+t+` WHERE group_id = $1 AND user_id = $2)`, groupID, userID).Scan(&found)
	if err == nil && !found {
		err = wrap(ErrNoRows, "group or user")
	}
	return false, err
}

// RemoveGroupMember removes a member of a group, or a manager when manager
// is true. ENOTFOUND when the user was not one.
func (s *Identity) RemoveGroupMember(ctx context.Context, manager bool, groupID, userID string) error {
	return s.execOne(ctx, "group member", `DELETE FROM `+groupPeople[manager]+` WHERE group_id = $1 AND user_id = $2`, groupID, userID)
}

// GroupMembers lists a group's members, or its managers when manager is
// true, by (email, user id).
func (s *Identity) GroupMembers(ctx context.Context, manager bool, groupID string, p PageQuery) ([]GroupMember, string, error) {
	return keysetPage(ctx, s.db, p, `SELECT m.group_id, u.id, u.email, u.name, m.added_at FROM `+groupPeople[manager]+` m
		JOIN users u ON u.id = m.user_id`, `m.group_id = $1`, []any{groupID}, "u.email", "u.id", scanGroupMember,
		func(m *GroupMember) (string, string) { return m.Email, m.UserID })
}

// SetUserGroups makes a user a member of exactly the groups of ids among
// the groups of its organization, in one transaction (just-in-time groups,
// a directory's list): ids of other organizations' groups or of no group are
// ignored. It answers the ids of the groups joined and of those left.
func (s *Identity) SetUserGroups(ctx context.Context, userID string, ids []string, at time.Time) (joined, left []string, err error) {
	err = s.InTx(ctx, func(tx *Store) error {
		cur, err := queryAll(ctx, tx.db, scanString, `SELECT group_id FROM group_members WHERE user_id = $1`, userID)
		if err != nil {
			return err
		}
		joined, left, err = tx.moveMemberships(ctx, userID, cur, ids, at)
		return err
	})
	return joined, left, err
}

// moveMemberships makes a user's memberships of the groups of cur (those
// it holds now, of the groups the caller decides on) exactly the groups of
// want that are groups of the user's organization: it leaves the others and
// joins the missing ones. It answers the ids of the groups joined and of
// those left. Called in a transaction.
func (s *Identity) moveMemberships(ctx context.Context, userID string, cur, want []string, at time.Time) (joined, left []string, err error) {
	args := []any{userID}
	in := "FALSE"
	if len(want) > 0 {
		in = `g.id IN (` + placeholders(&args, want) + `)`
	}
	next, err := queryAll(ctx, s.db, scanString, `SELECT g.id FROM user_groups g JOIN users u ON u.org_id = g.org_id AND u.id = $1
		WHERE `+in, args...)
	if err != nil {
		return nil, nil, err
	}
	joined, left = missing(next, cur), missing(cur, next)
	for _, g := range left {
		if _, err := s.db.Exec(ctx, `DELETE FROM group_members WHERE group_id = $1 AND user_id = $2`, g, userID); err != nil {
			return nil, nil, err
		}
	}
	for _, g := range joined {
		if _, err := s.db.Exec(ctx, `INSERT INTO group_members (group_id, user_id, added_at) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, g, userID, at.UTC()); err != nil {
			return nil, nil, err
		}
	}
	return joined, left, nil
}

// missing returns the strings of a that b lacks, sorted.
func missing(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// ManagesGroup reports whether a user is a manager of a group.
func (s *Identity) ManagesGroup(ctx context.Context, userID, groupID string) (bool, error) {
	var ok bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM group_managers WHERE group_id = $1 AND user_id = $2)`, groupID, userID).Scan(&ok)
	return ok, err
}

// GroupsNamed returns the groups of an organization whose id or name is one
// of refs (a provider's group mapping names groups either way).
func (s *Identity) GroupsNamed(ctx context.Context, orgID string, refs []string) ([]platform.Group, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	args := []any{orgID}
	in := placeholders(&args, refs)
	return queryAll(ctx, s.db, scanGroup, groups.selectFrom()+` WHERE org_id = $1 AND (id IN (`+in+`) OR name IN (`+in+`)) ORDER BY name, id`,
		args...)
}

// SyncUserGroups makes a user's memberships of the groups of managed
// exactly those of want (a subset of managed), in one transaction; its
// other groups stay. Groups of another organization than the user's are
// left alone. It answers the ids of the groups joined and of those left.
func (s *Identity) SyncUserGroups(ctx context.Context, userID string, managed, want []string, at time.Time) (joined, left []string, err error) {
	if len(managed) == 0 {
		return nil, nil, nil
	}
	err = s.InTx(ctx, func(tx *Store) error {
		args := []any{userID}
		in := placeholders(&args, managed)
		cur, err := queryAll(ctx, tx.db, scanString, `SELECT group_id FROM group_members WHERE user_id = $1 AND group_id IN (`+in+`)`, args...)
		if err != nil {
			return err
		}
		joined, left, err = tx.moveMemberships(ctx, userID, cur, intersect(want, managed), at)
		return err
	})
	return joined, left, err
}

// intersect returns the strings of a that b has.
func intersect(a, b []string) []string {
	var out []string
	for _, v := range a {
		if slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}
