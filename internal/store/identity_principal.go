package store

import (
	"context"
	"slices"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// Principal loads, in one statement, what authorization knows of the caller
// of an API request, user userID signed in through grant grantID: the
// console role and home customer, the roles of the user's groups
// (D-group-roles), the customer and instance grants, the user's own and its
// groups' (sorted, D-group-grants), and the live focus mode (R2.6-resolver). The same statement checks that
// the credentials still hold (D-credentials-follow): the user exists and is
// not suspended, and the grant is the user's and not revoked, by primary
// key, so a suspension, a deletion or a revocation takes effect at the next
// request on every replica.
//
// role is "" for a user without a console role; the principal's CustomerID
// is then the customer whose organization the user lives in, if any.
// EUNAUTHORIZED when the credentials no longer hold.
func (s *Identity) Principal(ctx context.Context, userID, grantID string, now time.Time) (p *authz.Principal, role string, err error) {
	rows, err := s.db.Query(ctx, `
		SELECT 0, COALESCE(cu.role, ''), CASE WHEN cu.user_id IS NULL THEN COALESCE(c.id, '') ELSE COALESCE(cu.customer_id, '') END
			FROM users u
			JOIN token_grants g ON g.id = $2 AND g.user_id = u.id AND g.revoked_at IS NULL
			LEFT JOIN console_users cu ON cu.user_id = u.id
			LEFT JOIN customers c ON c.org_id = u.org_id
			WHERE u.id = $1 AND u.suspended_at IS NULL
		UNION ALL SELECT 1, customer_id, '' FROM customer_grants WHERE grantee_type = 'user' AND grantee_id = $1
		UNION ALL SELECT 2, instance_id, '' FROM instance_grants WHERE grantee_type = 'user' AND grantee_id = $1
		UNION ALL SELECT 3, customer_id, '' FROM focus_modes WHERE user_id = $1 AND expires_at > $3
		UNION ALL SELECT 4, g.role, '' FROM group_members m JOIN user_groups g ON g.id = m.group_id AND g.role <> ''
			WHERE m.user_id = $1
		UNION ALL SELECT 1, x.customer_id, '' FROM group_members m JOIN customer_grants x ON x.grantee_type = 'group' AND x.grantee_id = m.group_id
			WHERE m.user_id = $1
		UNION ALL SELECT 2, x.instance_id, '' FROM group_members m JOIN instance_grants x ON x.grantee_type = 'group' AND x.grantee_id = m.group_id
			WHERE m.user_id = $1`,
		userID, grantID, now.UTC()) // unordered: sorting a few grants here is cheaper than in SQL (docs/benchmarks.md)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	p = &authz.Principal{UserID: userID}
	found := false
	var groupRoles []string
	for rows.Next() {
		var kind int
		var v, extra string
		if err := rows.Scan(&kind, &v, &extra); err != nil {
			return nil, "", err
		}
		switch kind {
		case 0:
			role, p.CustomerID, found = v, extra, true
		case 1:
			p.CustomerGrants = append(p.CustomerGrants, v)
		case 2:
			p.InstanceGrants = append(p.InstanceGrants, v)
		case 3:
			p.FocusCustomerID = v
		case 4:
			groupRoles = append(groupRoles, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	if !found {
		return nil, "", ErrCredentialsEnded
	}
	slices.Sort(p.CustomerGrants)
	p.CustomerGrants = slices.Compact(p.CustomerGrants) // granted directly and through a group
	slices.Sort(p.InstanceGrants)
	p.InstanceGrants = slices.Compact(p.InstanceGrants)
	p.GroupRoles = groupRolesOf(role, groupRoles)
	return p, role, nil
}

// groupRolesOf returns the roles of a user's groups that may add to its
// own role own (D-group-roles): known roles, never owner, and none beside an
// owner, whose role is owner whatever its groups. Sorted, without duplicates
// or the own role. The caller keeps those of the own role's kind
// (access.Load).
func groupRolesOf(own string, names []string) []authz.Role {
	ownRole, _ := authz.ParseRole(own)
	if ownRole == authz.Owner {
		return nil
	}
	var out []authz.Role
	for _, n := range names {
		if r, err := authz.ParseRole(n); err == nil && r != authz.Owner && r != ownRole {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ErrCredentialsEnded is Principal's answer for credentials that no longer
// hold: the user is suspended or gone, or the grant is revoked or unknown.
var ErrCredentialsEnded = platform.Errorf(platform.EUNAUTHORIZED, "the credentials are no longer valid")
