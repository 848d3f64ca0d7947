package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// SCIMGroups lists the groups of an organization that meet f (nil: all),
// by creation, count of them from offset on, and how many meet f.
func (s *Identity) SCIMGroups(ctx context.Context, orgID string, f *SCIMFilter, offset, count int) ([]platform.Group, int, error) {
	args := []any{orgID}
	cond := `g.org_id = $1`
	if f != nil {
		cond += ` AND ` + f.render(&args, scimGroupCols)
	}
	return scimPage(ctx, s.db, scanGroup, `SELECT `+groupColumnsG+` FROM user_groups g`, `FROM user_groups g`, cond,
		`g.created_at, g.id`, args, offset, count)
}

// SCIMGroupMembers returns up to limit members of a group, by (email, id).
func (s *Identity) SCIMGroupMembers(ctx context.Context, groupID string, limit int) ([]GroupMember, error) {
	return queryAll(ctx, s.db, scanGroupMember, `SELECT m.group_id, u.id, u.email, u.name, m.added_at FROM group_members m
		JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 ORDER BY u.email, u.id LIMIT $2`, groupID, limit)
}

// KeepGroupMembers removes every member of a group but those of ids (a
// directory's replacement of the list; the ones to add are added after).
func (s *Identity) KeepGroupMembers(ctx context.Context, groupID string, ids []string) error {
	args := []any{groupID}
	cond := ``
	if len(ids) > 0 {
		cond = ` AND user_id NOT IN (` + placeholders(&args, ids) + `)`
	}
	_, err := s.db.Exec(ctx, `DELETE FROM group_members WHERE group_id = $1`+cond, args...)
	return err
}

// RemoveGroupMembers removes the members ids of a group, those that are.
func (s *Identity) RemoveGroupMembers(ctx context.Context, groupID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{groupID}
	_, err := s.db.Exec(ctx, `DELETE FROM group_members WHERE group_id = $1 AND user_id IN (`+placeholders(&args, ids)+`)`, args...)
	return err
}

// TouchGroup sets a group's updated_at.
func (s *Identity) TouchGroup(ctx context.Context, id string, at time.Time) error {
	return s.execOne(ctx, "group", `UPDATE user_groups SET updated_at = $2 WHERE id = $1`, id, at.UTC())
}
