package store

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// Grantee types of a grant (R2.6-grant-key); only GranteeUser is written today.
const (
	GranteeUser  = "user"
	GranteeGroup = "group"
)

// Grant is a customer grant or an instance grant (R2.6-grant-key,
// R2.6-instance-grant): TargetID is the customer or the instance.
type Grant struct {
	GranteeType string    `json:"granteeType"`
	GranteeID   string    `json:"granteeId"`
	TargetID    string    `json:"-"`
	GrantedBy   string    `json:"grantedBy,omitempty"`
	GrantedAt   time.Time `json:"grantedAt"`
}

// grantTables names the two grant tables and their target column.
var grantTables = map[bool][2]string{false: {"customer_grants", "customer_id"}, true: {"instance_grants", "instance_id"}}

// PutGrant stores a customer grant, or an instance grant when instance is
// true. Granting twice keeps the first record. ENOTFOUND when the customer or
// instance does not exist.
func (s *Store) PutGrant(ctx context.Context, instance bool, g *Grant) error {
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
func (s *Store) DeleteGrant(ctx context.Context, instance bool, granteeID, targetID string) error {
	t := grantTables[instance]
	return s.execOne(ctx, "grant", `DELETE FROM `+t[0]+` WHERE grantee_type = 'user' AND grantee_id = $1 AND `+t[1]+` = $2`,
		granteeID, targetID)
}

// Grants lists grants, by target then grantee, filtered by target and
// grantee when those are not empty. ENOTFOUND when both are given and no
// grant matches.
func (s *Store) Grants(ctx context.Context, instance bool, targetID, granteeID string) ([]Grant, error) {
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

// Principal loads, in one statement, what authorization knows of the caller
// of an API request, user userID signed in through grant grantID: the
// console role and home customer, the customer and instance grants (sorted)
// and the live focus mode (R2.6-resolver). The same statement checks that
// the credentials still hold (D-credentials-follow): the user exists and is
// not suspended, and the grant is the user's and not revoked, by primary
// key, so a suspension, a deletion or a revocation takes effect at the next
// request on every replica.
//
// role is "" for a user without a console role; the principal's CustomerID
// is then the customer whose organization the user lives in, if any.
// EUNAUTHORIZED when the credentials no longer hold.
func (s *Store) Principal(ctx context.Context, userID, grantID string, now time.Time) (p *authz.Principal, role string, err error) {
	rows, err := s.db.Query(ctx, `
		SELECT 0, COALESCE(cu.role, ''), CASE WHEN cu.user_id IS NULL THEN COALESCE(c.id, '') ELSE COALESCE(cu.customer_id, '') END
			FROM users u
			JOIN token_grants g ON g.id = $2 AND g.user_id = u.id AND g.revoked_at IS NULL
			LEFT JOIN console_users cu ON cu.user_id = u.id
			LEFT JOIN customers c ON c.org_id = u.org_id
			WHERE u.id = $1 AND u.suspended_at IS NULL
		UNION ALL SELECT 1, customer_id, '' FROM customer_grants WHERE grantee_type = 'user' AND grantee_id = $1
		UNION ALL SELECT 2, instance_id, '' FROM instance_grants WHERE grantee_type = 'user' AND grantee_id = $1
		UNION ALL SELECT 3, customer_id, '' FROM focus_modes WHERE user_id = $1 AND expires_at > $3`,
		userID, grantID, now.UTC()) // unordered: sorting a few grants here is cheaper than in SQL (docs/benchmarks.md)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	p = &authz.Principal{UserID: userID}
	found := false
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
		}
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	if !found {
		return nil, "", ErrCredentialsEnded
	}
	slices.Sort(p.CustomerGrants)
	slices.Sort(p.InstanceGrants)
	return p, role, nil
}

// ErrCredentialsEnded is Principal's answer for credentials that no longer
// hold: the user is suspended or gone, or the grant is revoked or unknown.
var ErrCredentialsEnded = platform.Errorf(platform.EUNAUTHORIZED, "the credentials are no longer valid")

// SetFocus turns focus mode on for a user until expires.
func (s *Store) SetFocus(ctx context.Context, userID, customerID string, now, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO focus_modes (user_id, customer_id, started_at, expires_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET customer_id = EXCLUDED.customer_id, started_at = EXCLUDED.started_at,
		expires_at = EXCLUDED.expires_at`, userID, customerID, now.UTC(), expires.UTC())
	return wrap(err, "focus mode")
}

// ClearFocus turns focus mode off.
func (s *Store) ClearFocus(ctx context.Context, userID string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM focus_modes WHERE user_id = $1`, userID)
	return err
}

// Subscribe records a notification subscription; it grants nothing (R6-subscription).
func (s *Store) Subscribe(ctx context.Context, userID, eventType string, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO notification_subscriptions (user_id, event_type, created_at) VALUES ($1, $2, $3)
		ON CONFLICT DO NOTHING`, userID, eventType, now.UTC())
	return err
}

// Unsubscribe removes a notification subscription. ENOTFOUND when missing.
func (s *Store) Unsubscribe(ctx context.Context, userID, eventType string) error {
	return s.execOne(ctx, "subscription", `DELETE FROM notification_subscriptions WHERE user_id = $1 AND event_type = $2`, userID, eventType)
}

// AuditEvent is one entry of the audit log.
type AuditEvent struct {
	ID         string    `json:"id"`
	At         time.Time `json:"at"`
	ActorID    string    `json:"actorId"`
	CustomerID string    `json:"customerId,omitempty"`
	Action     string    `json:"action"`
	Resource   string    `json:"resource"`
	Decision   string    `json:"decision"` // allowed or denied
	Reason     string    `json:"reason"`
	Status     int       `json:"status"`
	RequestID  string    `json:"requestId"`
}

// AppendAudit stores an audit event.
func (s *Store) AppendAudit(ctx context.Context, e *AuditEvent) error {
	_, err := s.db.Exec(ctx, `INSERT INTO audit_log (id, at, actor_id, customer_id, action, resource, decision, reason, status, request_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, e.ID, e.At.UTC(), e.ActorID, nullString(e.CustomerID),
		e.Action, e.Resource, e.Decision, e.Reason, e.Status, e.RequestID)
	return wrap(err, "audit event")
}

// AuditQuery selects audit events, newest first: of ActorID when set,
// within Scope (events of no customer only when it lets everything
// through), one page of at most Limit (default 100, at most 1000) after
// Cursor (the previous page's next cursor).
type AuditQuery struct {
	Scope   authz.Filter
	ActorID string
	Limit   int
	Cursor  string
}

// AuditEvents lists one page of audit events, newest first, and the cursor
// of the next page ("" on the last). EINVALID for a malformed cursor.
func (s *Store) AuditEvents(ctx context.Context, q AuditQuery) ([]AuditEvent, string, error) {
	if err := checkNewestCursor(q.Cursor); err != nil || q.Scope.Empty() {
		return nil, "", err
	}
	args := []any{q.ActorID}
	cond := `($1 = '' OR actor_id = $1) AND ` + scopeCondition(&args, q.Scope, "customer_id", "")
	return newestPage(ctx, s, q.Cursor, q.Limit, `SELECT id, at, actor_id, COALESCE(customer_id, ''), action, resource, decision,
		reason, status, request_id FROM audit_log`, cond, args, "at",
		func(r Row) (AuditEvent, error) {
			var e AuditEvent
			err := r.Scan(&e.ID, &e.At, &e.ActorID, &e.CustomerID, &e.Action, &e.Resource, &e.Decision, &e.Reason, &e.Status, &e.RequestID)
			return e, err
		}, func(e *AuditEvent) (time.Time, string) { return e.At, e.ID })
}

// RolePermissions reads the permission catalog table (R5.7-catalog).
func (s *Store) RolePermissions(ctx context.Context) ([]authz.Entry, error) {
	return queryAll(ctx, s.db, func(r Row) (authz.Entry, error) {
		var role, action, access string
		if err := r.Scan(&role, &action, &access); err != nil {
			return authz.Entry{}, err
		}
		return authz.ParseEntry(role, action, access)
	}, `SELECT role, action, access FROM role_permissions ORDER BY role, action`)
}
