package store

import (
	"context"

	"github.com/platform/platform/internal/platform"
)

const groupColumns = `id, org_id, name, role, external_id, created_at, updated_at`

// groupColumnsG are groupColumns of the group aliased g.
const groupColumnsG = `g.id, g.org_id, g.name, g.role, g.external_id, g.created_at, g.updated_at`

func scanGroup(r Row) (platform.Group, error) {
	var g platform.Group
	err := r.Scan(&g.ID, &g.OrgID, &g.Name, &g.Role, &g.ExternalID, &g.CreatedAt, &g.UpdatedAt)
	return g, err
}

var groups = table[platform.Group]{"user_groups", "group", groupColumns, scanGroup}

// CreateGroup stores a group. ECONFLICT when the organization already has a
// group of that name or of that external id.
func (s *Identity) CreateGroup(ctx context.Context, g *platform.Group) error {
	return groups.insert(ctx, s.db, g.ID, g.OrgID, g.Name, g.Role, g.ExternalID, g.CreatedAt.UTC(), g.UpdatedAt.UTC())
}

// Group returns one group. ENOTFOUND.
func (s *Identity) Group(ctx context.Context, id string) (*platform.Group, error) {
	return groups.get(ctx, s.db, id)
}

// GroupByExternalID returns the group of an organization with that external
// id. ENOTFOUND.
func (s *Identity) GroupByExternalID(ctx context.Context, orgID, externalID string) (*platform.Group, error) {
	return queryOne(ctx, s.db, "group", scanGroup, groups.selectFrom()+` WHERE org_id = $1 AND external_id = $2 AND external_id <> ''`,
		orgID, externalID)
}

// ListGroups lists an organization's groups by (name, id).
func (s *Identity) ListGroups(ctx context.Context, orgID string, p PageQuery) ([]platform.Group, string, error) {
	return keysetPage(ctx, s.db, p, groups.selectFrom(), `org_id = $1`, []any{orgID}, "name", "id", scanGroup,
		func(g *platform.Group) (string, string) { return g.Name, g.ID })
}

// UpdateGroup runs fn on the stored group in a transaction and saves its
// name, role, external id and updated_at as fn leaves them (the organization
// stays). ENOTFOUND; ECONFLICT on a name or external id already taken.
func (s *Identity) UpdateGroup(ctx context.Context, id string, fn func(*platform.Group) error) (*platform.Group, error) {
	return groups.update(ctx, s.querier, id, fn, `name = $2, role = $3, external_id = $4, updated_at = $5`, func(g *platform.Group) []any {
		return []any{g.Name, g.Role, g.ExternalID, g.UpdatedAt.UTC()}
	})
}

// DeleteGroup removes a group with its members, managers and grants.
// ENOTFOUND.
func (s *Identity) DeleteGroup(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		for _, q := range []string{
			`DELETE FROM customer_grants WHERE grantee_type = 'group' AND grantee_id = $1`,
			`DELETE FROM instance_grants WHERE grantee_type = 'group' AND grantee_id = $1`,
		} {
			if _, err := tx.db.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return tx.execOne(ctx, "group", `DELETE FROM user_groups WHERE id = $1`, id)
	})
}

// UserGroups returns the groups a user is a member of, by (name, id): at
// most the groups of the user's organization.
func (s *Identity) UserGroups(ctx context.Context, userID string) ([]platform.Group, error) {
	return queryAll(ctx, s.db, scanGroup, `SELECT `+groupColumnsG+` FROM user_groups g
		JOIN group_members m ON m.group_id = g.id AND m.user_id = $1 ORDER BY g.name, g.id`, userID)
}

// ManagedGroups returns the groups a user manages, by (name, id).
func (s *Identity) ManagedGroups(ctx context.Context, userID string) ([]platform.Group, error) {
	return queryAll(ctx, s.db, scanGroup, `SELECT `+groupColumnsG+` FROM user_groups g
		JOIN group_managers m ON m.group_id = g.id AND m.user_id = $1 ORDER BY g.name, g.id`, userID)
}
