package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/authz"
)

// Grantee types of a grant (R2.6-grant-key): a user, or a group whose
// members hold the grant (D-group-grants).
const (
	GranteeUser  = "user"
	GranteeGroup = "group"
)

// Grant is a customer grant or an instance grant (R2.6-grant-key,
// R2.6-instance-grant): TargetID is the customer or the instance.
type Grant struct {
	GranteeType string
	GranteeID   string
	TargetID    string
	GrantedBy   string
	GrantedAt   time.Time
}

// grantTables names the two grant tables and their target column.
var grantTables = map[bool][2]string{false: {"customer_grants", "customer_id"}, true: {"instance_grants", "instance_id"}}

// PutGrant stores a customer grant, or an instance grant when instance is
// true. Granting twice keeps the first record. ENOTFOUND when the customer or
// instance does not exist.
func (s *Tenancy) PutGrant(ctx context.Context, instance bool, g *Grant) error {
	t := grantTables[instance]
	if g.GranteeType == "" {
		g.GranteeType = GranteeUser
	}
	var exists bool
	target := map[bool]string{false: "customer", true: "instance"}[instance]
	if err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+target+`s WHERE id = $1)`, g.TargetID).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return wrap(ErrNoRows, target)
	}
	_, err := s.db.Exec(ctx, `INSERT INTO `+t[0]+` (grantee_type, grantee_id, `+t[1]+`, granted_by, granted_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
		g.GranteeType, g.GranteeID, g.TargetID, nullString(g.GrantedBy), g.GrantedAt.UTC())
	return wrap(err, "grant")
}

// DeleteGrant removes a user's grant. ENOTFOUND when there was none.
func (s *Tenancy) DeleteGrant(ctx context.Context, instance bool, granteeID, targetID string) error {
	t := grantTables[instance]
	return s.execOne(ctx, "grant", `DELETE FROM `+t[0]+` WHERE grantee_type = 'user' AND grantee_id = $1 AND `+t[1]+` = $2`,
		granteeID, targetID)
}

// Grants lists grants, by target then grantee, filtered by target and
// grantee when those are not empty. ENOTFOUND when both are given and no
// grant matches.
func (s *Tenancy) Grants(ctx context.Context, instance bool, targetID, granteeID string) ([]Grant, error) {
	t := grantTables[instance]
	out, err := queryAll(ctx, s.db, scanGrant, `SELECT grantee_type, grantee_id, `+t[1]+`, granted_by, granted_at FROM `+t[0]+`
		WHERE ($1 = '' OR `+t[1]+` = $1) AND ($2 = '' OR grantee_id = $2) ORDER BY `+t[1]+`, grantee_type, grantee_id`,
		targetID, granteeID)
	if err != nil {
		return nil, err
	}
	if targetID != "" && granteeID != "" && len(out) == 0 {
		return nil, wrap(ErrNoRows, "grant")
	}
	return out, nil
}

// scanGrant scans (grantee_type, grantee_id, target, granted_by, granted_at).
func scanGrant(r Row) (Grant, error) {
	var g Grant
	var by sql.NullString
	err := r.Scan(&g.GranteeType, &g.GranteeID, &g.TargetID, &by, &g.GrantedAt)
	g.GrantedBy = by.String
	return g, err
}

// GrantsByCustomerIDs returns the customer grants of the customers of ids,
// by customer then grantee (a dataloader batch).
func (s *Tenancy) GrantsByCustomerIDs(ctx context.Context, ids []string) ([]Grant, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	cond := scopeCondition(&args, authz.Filter{CustomerIDs: ids}, "customer_id", "") // the customers asked for
	return queryAll(ctx, s.db, scanGrant, `SELECT grantee_type, grantee_id, customer_id, granted_by, granted_at FROM customer_grants
		WHERE `+cond+` ORDER BY customer_id, grantee_type, grantee_id`, args...)
}

// DeleteGroupGrant removes a group's grant. ENOTFOUND when there was none.
func (s *Tenancy) DeleteGroupGrant(ctx context.Context, instance bool, groupID, targetID string) error {
	t := grantTables[instance]
	return s.execOne(ctx, "grant", `DELETE FROM `+t[0]+` WHERE grantee_type = 'group' AND grantee_id = $1 AND `+t[1]+` = $2`,
		groupID, targetID)
}

// GroupGrants lists a group's grants, by target.
func (s *Tenancy) GroupGrants(ctx context.Context, instance bool, groupID string) ([]Grant, error) {
	t := grantTables[instance]
	return queryAll(ctx, s.db, scanGrant, `SELECT grantee_type, grantee_id, `+t[1]+`, granted_by, granted_at FROM `+t[0]+`
		WHERE grantee_type = 'group' AND grantee_id = $1 ORDER BY `+t[1], groupID)
}
