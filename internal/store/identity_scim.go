package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// SCIMToken is a bearer token of a customer's directory, or of the
// administrator organization's when CustomerID is "" (D-scim,
// D-scim-internal): only its hash is kept. LastUsedAt and RevokedAt are zero
// until then.
type SCIMToken struct {
	ID         string
	CustomerID string
	Name       string
	TokenHash  string
	CreatedBy  string
	CreatedAt  time.Time
	LastUsedAt time.Time
	RevokedAt  time.Time
}

const scimTokenColumns = `id, customer_id, name, token_hash, created_by, created_at, last_used_at, revoked_at`

func scanSCIMToken(r Row) (SCIMToken, error) {
	var t SCIMToken
	var customer sql.NullString
	var used, revoked sql.NullTime
	err := r.Scan(&t.ID, &customer, &t.Name, &t.TokenHash, &t.CreatedBy, &t.CreatedAt, &used, &revoked)
	t.CustomerID, t.LastUsedAt, t.RevokedAt = customer.String, used.Time, revoked.Time
	return t, err
}

var scimTokens = table[SCIMToken]{"scim_tokens", "SCIM token", scimTokenColumns, scanSCIMToken}

// MaxSCIMTokens is how many tokens, revoked ones included, one customer (or
// the administrator organization) may hold; a list of them is one page.
const MaxSCIMTokens = 50

// scimTokenOwner is the condition on a token's customer: customerID's, or
// the administrator organization's for "".
const scimTokenOwner = `COALESCE(customer_id, '') = $1`

// CreateSCIMToken stores a token (of the administrator organization when
// t.CustomerID is ""). ELIMIT when its owner holds MaxSCIMTokens.
func (s *Identity) CreateSCIMToken(ctx context.Context, t *SCIMToken) error {
	if err := s.underLimit(ctx, "scim_tokens", scimTokenOwner, t.CustomerID, MaxSCIMTokens,
		"at most %d SCIM tokens are held at once; delete revoked ones first"); err != nil {
		return err
	}
	var customer any
	if t.CustomerID != "" {
		customer = t.CustomerID
	}
	return scimTokens.insert(ctx, s.db, t.ID, customer, t.Name, t.TokenHash, t.CreatedBy, t.CreatedAt.UTC(), nil, nil)
}

// SCIMToken returns one token. ENOTFOUND.
func (s *Identity) SCIMToken(ctx context.Context, id string) (*SCIMToken, error) {
	return scimTokens.get(ctx, s.db, id)
}

// SCIMTokens lists a customer's tokens (the administrator organization's
// for ""), newest first (at most MaxSCIMTokens).
func (s *Identity) SCIMTokens(ctx context.Context, customerID string) ([]SCIMToken, error) {
	return scimTokens.list(ctx, s.db, scimTokenOwner, `created_at DESC, id`, customerID)
}

// RevokeSCIMToken revokes a token at now; revoking it again keeps the first
// time. ENOTFOUND.
func (s *Identity) RevokeSCIMToken(ctx context.Context, id string, now time.Time) error {
	return s.execOne(ctx, "SCIM token", `UPDATE scim_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`, id, now.UTC())
}

// DeleteSCIMToken removes a revoked token. ENOTFOUND for a missing or live one.
func (s *Identity) DeleteSCIMToken(ctx context.Context, id string) error {
	return s.execOne(ctx, "SCIM token", `DELETE FROM scim_tokens WHERE id = $1 AND revoked_at IS NOT NULL`, id)
}

// UseSCIMToken returns the live token whose hash is hash and records its
// use at now (at most once a minute is written). ENOTFOUND when there is
// none or it is revoked. The hash is looked up by an index: the token
// itself, 256 random bits, is never compared.
func (s *Identity) UseSCIMToken(ctx context.Context, hash string, now time.Time) (*SCIMToken, error) {
	t, err := queryOne(ctx, s.db, "SCIM token", scanSCIMToken,
		scimTokens.selectFrom()+` WHERE token_hash = $1 AND revoked_at IS NULL`, hash)
	if err != nil {
		return nil, err
	}
	if now.Sub(t.LastUsedAt) >= time.Minute {
		if _, err := s.db.Exec(ctx, `UPDATE scim_tokens SET last_used_at = $2 WHERE id = $1`, t.ID, now.UTC()); err != nil {
			return nil, err
		}
		t.LastUsedAt = now.UTC()
	}
	return t, nil
}

// SCIMUser is a user of an organization as its directory sees it: with
// the directory's externalId ("" when none); CustomerID is "" for a user of
// the administrator organization, and Role its console role ("" for none).
type SCIMUser struct {
	CustomerUser // its Locale is SCIM's preferredLanguage
	ExternalID   string
}

// scimUserFrom reads the users of an organization, a customer's or the
// administrator organization's, but service accounts' (listed as service
// accounts).
const scimUserFrom = ` FROM users u LEFT JOIN customers c ON c.org_id = u.org_id
	LEFT JOIN console_users cu ON cu.user_id = u.id LEFT JOIN scim_external_ids x ON x.user_id = u.id `

func scanSCIMUser(r Row) (SCIMUser, error) {
	var u SCIMUser
	st := accountStateScan{st: &u.AccountState}
	err := r.Scan(append([]any{&u.ID, &u.CustomerID, &u.OrgID, &u.Email, &u.Name, &u.Role, &u.CreatedAt}, append(st.dest(), &u.ExternalID, &u.Locale)...)...)
	st.done()
	return u, err
}

const scimUserColumns = `u.id, COALESCE(c.id, ''), u.org_id, u.email, u.name, COALESCE(cu.role, CASE WHEN c.id IS NULL THEN '' ELSE 'member' END), u.created_at, ` +
	accountStateColumns + `, COALESCE(x.external_id, ''), u.locale`

// SCIMFilter is a SCIM filter compiled to what the store renders: a
// logical node (Op "and" or "or" with Left and Right) or a comparison (Op
// "eq", "ne", "co", "sw" or "pr") of Attr with Value (Active for
// "active"). A user's attributes are "id", "userName", "emails.value",
// "displayName", "externalId" and "active"; a group's "id",
// "displayName", "externalId" and "members.value" (eq and pr only). Values
// are compared case-insensitively but ids and externalIds.
type SCIMFilter struct {
	Op          string
	Attr        string
	Value       string
	Active      bool
	Left, Right *SCIMFilter
}

// scimUserColumns and scimGroupColumns are the columns of the filters'
// attributes; a caseExact one is marked by a leading "=".
var (
	scimUserCols = map[string]string{"id": "=u.id", "userName": "u.email", "emails.value": "u.email", "displayName": "u.name",
		"externalId": "=x.external_id", "active": "u.suspended_at"}
	scimGroupCols = map[string]string{"id": "=g.id", "displayName": "g.name", "externalId": "=g.external_id",
		"members.value": "group_members"}
)

// render appends the filter as a parameterised condition over cols.
func (f *SCIMFilter) render(args *[]any, cols map[string]string) string {
	switch f.Op {
	case "and", "or":
		return `(` + f.Left.render(args, cols) + ` ` + strings.ToUpper(f.Op) + ` ` + f.Right.render(args, cols) + `)`
	}
	col, ok := cols[f.Attr]
	switch {
	case !ok:
		return `FALSE`
	case f.Attr == "active" && f.Op == "pr":
		return `TRUE`
	case f.Attr == "active" && (f.Op == "eq") == f.Active:
		return `u.suspended_at IS NULL`
	case f.Attr == "active":
		return `u.suspended_at IS NOT NULL`
	case f.Attr == "members.value" && f.Op == "pr":
		return `EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id)`
	case f.Attr == "members.value":
		return `EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = ` + arg(args, f.Value) + `)`
	}
	exact := strings.HasPrefix(col, "=")
	col = `COALESCE(` + strings.TrimPrefix(col, "=") + `, '')`
	switch f.Op {
	case "pr":
		return col + ` <> ''`
	case "eq", "ne":
		cmp := map[string]string{"eq": " = ", "ne": " <> "}[f.Op]
		if exact {
			return col + cmp + arg(args, f.Value)
		}
		return `LOWER(` + col + `)` + cmp + arg(args, strings.ToLower(f.Value))
	}
	pattern := likeEscape(strings.ToLower(f.Value)) + "%"
	if f.Op == "co" {
		pattern = "%" + pattern
	}
	return `LOWER(` + col + `) LIKE ` + arg(args, pattern) + ` ESCAPE '\'`
}

// scimPage answers the rows of selectFrom meeting cond (args), count of
// them from offset on by order, and how many meet cond.
func scimPage[T any](ctx context.Context, db DB, scan func(Row) (T, error), selectFrom, countFrom, cond, order string, args []any,
	offset, count int) ([]T, int, error) {
	var total int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) `+countFrom+` WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if count <= 0 || offset >= total {
		return nil, total, nil
	}
	q := selectFrom + ` WHERE ` + cond + ` ORDER BY ` + order + ` LIMIT ` + arg(&args, count) + ` OFFSET ` + arg(&args, offset)
	rows, err := queryAll(ctx, db, scan, q, args...)
	return rows, total, err
}

// SCIMUsers lists the users of an organization that meet f (nil: all), by
// creation, count of them from offset on (both bounded by the caller), and
// how many meet f in all.
func (s *Identity) SCIMUsers(ctx context.Context, orgID string, f *SCIMFilter, offset, count int) ([]SCIMUser, int, error) {
	args := []any{orgID}
	cond := `u.org_id = $1 AND NOT u.service`
	if f != nil {
		cond += ` AND ` + f.render(&args, scimUserCols)
	}
	return scimPage(ctx, s.db, scanSCIMUser, `SELECT `+scimUserColumns+scimUserFrom, scimUserFrom, cond, `u.created_at, u.id`, args,
		offset, count)
}

// SCIMUser returns a user of the organization with its externalId.
// ENOTFOUND when the organization has no such user.
func (s *Identity) SCIMUser(ctx context.Context, orgID, id string) (*SCIMUser, error) {
	return queryOne(ctx, s.db, "user", scanSCIMUser,
		`SELECT `+scimUserColumns+scimUserFrom+`WHERE u.org_id = $1 AND u.id = $2 AND NOT u.service`, orgID, id)
}

// SetSCIMExternalID sets (or, with "", clears) the externalId of a user of
// the organization. ECONFLICT when another user of it has it.
func (s *Identity) SetSCIMExternalID(ctx context.Context, orgID, userID, externalID string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM scim_external_ids WHERE user_id = $1`, userID); err != nil {
		return err
	}
	if externalID == "" {
		return nil
	}
	_, err := s.db.Exec(ctx, `INSERT INTO scim_external_ids (user_id, org_id, external_id) VALUES ($1, $2, $3)`,
		userID, orgID, externalID)
	return wrap(err, "user with this externalId")
}
