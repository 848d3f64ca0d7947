package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// ---- customers ----

// CustomerRow is a customer with its settings.
type CustomerRow struct {
	ID        string
	Name      string
	OrgID     string
	Settings  json.RawMessage
	CreatedAt time.Time
	UpdatedAt time.Time
}

const customerRowColumns = `id, name, org_id, settings, created_at, updated_at`

func scanCustomerRow(r Row) (CustomerRow, error) {
	var c CustomerRow
	var settings string
	var upd sql.NullTime
	err := r.Scan(&c.ID, &c.Name, &c.OrgID, &settings, &c.CreatedAt, &upd)
	c.Settings, c.UpdatedAt = rawJSON(settings), orTime(upd, c.CreatedAt)
	return c, err
}

// CustomerRow returns one customer with its settings. ENOTFOUND.
func (s *Store) CustomerRow(ctx context.Context, id string) (*CustomerRow, error) {
	return queryOne(ctx, s.db, "customer", scanCustomerRow, `SELECT `+customerRowColumns+` FROM customers WHERE id = $1`, id)
}

// ListCustomers lists the customers within f by (name, id), one page, and
// the cursor of the next page ("" on the last).
func (s *Store) ListCustomers(ctx context.Context, f authz.Filter, p PageQuery) ([]CustomerRow, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	var args []any
	cond := scopeCondition(&args, f, "id", "")
	return keysetPage(ctx, s, p, `SELECT `+customerRowColumns+` FROM customers`, cond, args, "name", "id", scanCustomerRow,
		func(c *CustomerRow) (string, string) { return c.Name, c.ID })
}

// CustomersByIDs returns the customers of ids that exist, in any order (a
// batch for dataloaders).
func (s *Store) CustomersByIDs(ctx context.Context, ids []string) ([]CustomerRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	return queryAll(ctx, s.db, scanCustomerRow, `SELECT `+customerRowColumns+` FROM customers WHERE id IN (`+placeholders(&args, ids)+`)`, args...)
}

// UpdateCustomer sets a customer's name and, when settings is not nil, its
// settings. ENOTFOUND.
func (s *Store) UpdateCustomer(ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error {
	var st any
	if settings != nil {
		st = string(settings)
	}
	return s.execOne(ctx, "customer", `UPDATE customers SET name = CASE WHEN $2 = '' THEN name ELSE $2 END,
		settings = COALESCE($3, settings), updated_at = $4 WHERE id = $1`, id, name, st, now.UTC())
}

// DeleteCustomer removes a customer and its organization at the identity
// provider, with everything that hangs off them: users, console roles,
// grants (R2.6-cascade), focus modes, instances and their connections,
// tenants and their data. ENOTFOUND.
func (s *Store) DeleteCustomer(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		var org string
		if err := tx.db.QueryRow(ctx, `SELECT org_id FROM customers WHERE id = $1`, id).Scan(&org); err != nil {
			return wrap(err, "customer")
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM customers WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.db.Exec(ctx, `DELETE FROM organizations WHERE id = $1`, org)
		return err
	})
}

// CustomerOwners lists the user ids holding the owner role of a customer.
func (s *Store) CustomerOwners(ctx context.Context, customerID string) ([]string, error) {
	return queryAll(ctx, s.db, scanString, `SELECT user_id FROM console_users WHERE customer_id = $1 AND role = 'owner' ORDER BY user_id`, customerID)
}

// scanString scans a row of one text column.
func scanString(r Row) (string, error) {
	var v string
	err := r.Scan(&v)
	return v, err
}

// TransferOwnership makes newOwnerID the only owner of a customer; the
// previous owners become admins. One transaction.
func (s *Store) TransferOwnership(ctx context.Context, customerID, newOwnerID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `UPDATE console_users SET role = 'admin' WHERE customer_id = $1 AND role = 'owner'
			AND user_id <> $2`, customerID, newOwnerID); err != nil {
			return err
		}
		return tx.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: newOwnerID, Role: "owner", CustomerID: customerID, CreatedAt: now})
	})
}

// ---- tenants ----

// TenantRow is a tenant as the console administers it. InstanceID is empty
// when the tenant runs on no instance.
type TenantRow struct {
	ID         string
	CustomerID string
	InstanceID string
	Name       string
	Settings   json.RawMessage
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

const tenantRowColumns = `id, customer_id, COALESCE(instance_id, ''), name, settings, created_at, updated_at`

func scanTenantRow(r Row) (TenantRow, error) {
	var t TenantRow
	var settings string
	var upd sql.NullTime
	err := r.Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name, &settings, &t.CreatedAt, &upd)
	t.Settings, t.UpdatedAt = rawJSON(settings), orTime(upd, t.CreatedAt)
	return t, err
}

// CreateTenantRow stores a tenant. ECONFLICT when the id is taken.
func (s *Store) CreateTenantRow(ctx context.Context, t *TenantRow) error {
	settings := t.Settings
	if len(settings) == 0 {
		settings = json.RawMessage("{}")
	}
	_, err := s.db.Exec(ctx, `INSERT INTO tenants (id, customer_id, instance_id, name, settings, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6)`, t.ID, t.CustomerID, nullString(t.InstanceID), t.Name, string(settings),
		t.CreatedAt.UTC())
	return wrap(err, "tenant")
}

// TenantRow returns one tenant. ENOTFOUND.
func (s *Store) TenantRow(ctx context.Context, id string) (*TenantRow, error) {
	return queryOne(ctx, s.db, "tenant", scanTenantRow, `SELECT `+tenantRowColumns+` FROM tenants WHERE id = $1`, id)
}

// TenantQuery selects tenants: within Scope, optionally of one customer
// and one instance, one page by (name, id).
type TenantQuery struct {
	Scope      authz.Filter
	CustomerID string
	InstanceID string
	Page       PageQuery
}

// ListTenants lists tenants by (name, id), the scope applied in SQL, and
// returns the cursor of the next page ("" on the last).
func (s *Store) ListTenants(ctx context.Context, q TenantQuery) ([]TenantRow, string, error) {
	if q.Scope.Empty() {
		return nil, "", nil
	}
	args := []any{q.CustomerID, q.InstanceID}
	cond := `($1 = '' OR customer_id = $1) AND ($2 = '' OR instance_id = $2) AND ` + scopeCondition(&args, q.Scope, "customer_id", "instance_id")
	return keysetPage(ctx, s, q.Page, `SELECT `+tenantRowColumns+` FROM tenants`, cond, args, "name", "id", scanTenantRow,
		func(t *TenantRow) (string, string) { return t.Name, t.ID })
}

// TenantsByIDs returns the tenants of ids that exist (a dataloader batch).
func (s *Store) TenantsByIDs(ctx context.Context, ids []string) ([]TenantRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	return queryAll(ctx, s.db, scanTenantRow, `SELECT `+tenantRowColumns+` FROM tenants WHERE id IN (`+placeholders(&args, ids)+`)`, args...)
}

// UpdateTenant sets a tenant's name (when not empty) and settings (when not
// nil). ENOTFOUND.
func (s *Store) UpdateTenant(ctx context.Context, id, name string, settings json.RawMessage, now time.Time) error {
	var st any
	if settings != nil {
		st = string(settings)
	}
	return s.execOne(ctx, "tenant", `UPDATE tenants SET name = CASE WHEN $2 = '' THEN name ELSE $2 END,
		settings = COALESCE($3, settings), updated_at = $4 WHERE id = $1`, id, name, st, now.UTC())
}

// MoveTenant gives a tenant another customer and instance (instanceID ""
// for none). ENOTFOUND.
func (s *Store) MoveTenant(ctx context.Context, id, customerID, instanceID string, now time.Time) error {
	return s.execOne(ctx, "tenant", `UPDATE tenants SET customer_id = $2, instance_id = $3, updated_at = $4 WHERE id = $1`,
		id, customerID, nullString(instanceID), now.UTC())
}

// DeleteTenant removes a tenant and its data. ENOTFOUND.
func (s *Store) DeleteTenant(ctx context.Context, id string) error {
	return s.execOne(ctx, "tenant", `DELETE FROM tenants WHERE id = $1`, id)
}

// TenantMember is a user's role in one tenant.
type TenantMember struct {
	TenantID string
	UserID   string
	Email    string
	Name     string
	Role     string
	AddedAt  time.Time
}

// PutTenantMember adds a member or changes its role. ENOTFOUND when the
// tenant or user does not exist.
func (s *Store) PutTenantMember(ctx context.Context, m *TenantMember) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenant_members (tenant_id, user_id, role, added_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (tenant_id, user_id) DO UPDATE SET role = EXCLUDED.role`, m.TenantID, m.UserID, m.Role, m.AddedAt.UTC())
	return wrap(err, "tenant member")
}

// DeleteTenantMember removes a member. ENOTFOUND when it was none.
func (s *Store) DeleteTenantMember(ctx context.Context, tenantID, userID string) error {
	return s.execOne(ctx, "tenant member", `DELETE FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, tenantID, userID)
}

// TenantMembers lists a tenant's members by e-mail.
func (s *Store) TenantMembers(ctx context.Context, tenantID string) ([]TenantMember, error) {
	return queryAll(ctx, s.db, func(r Row) (TenantMember, error) {
		var m TenantMember
		err := r.Scan(&m.TenantID, &m.UserID, &m.Email, &m.Name, &m.Role, &m.AddedAt)
		return m, err
	}, `SELECT m.tenant_id, m.user_id, u.email, u.name, m.role, m.added_at
		FROM tenant_members m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 ORDER BY u.email, u.id`, tenantID)
}

// TenantMigration is a migration run requested on a tenant.
type TenantMigration struct {
	ID            string
	TenantID      string
	TargetVersion string
	Status        string
	RequestedBy   string
	RequestedAt   time.Time
}

// CreateTenantMigration records a requested run.
func (s *Store) CreateTenantMigration(ctx context.Context, m *TenantMigration) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenant_migrations (id, tenant_id, target_version, status, requested_by, requested_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, m.ID, m.TenantID, m.TargetVersion, m.Status, m.RequestedBy, m.RequestedAt.UTC())
	return wrap(err, "tenant migration")
}

// TenantMigrations lists a tenant's runs, newest first.
func (s *Store) TenantMigrations(ctx context.Context, tenantID string) ([]TenantMigration, error) {
	return queryAll(ctx, s.db, func(r Row) (TenantMigration, error) {
		var m TenantMigration
		err := r.Scan(&m.ID, &m.TenantID, &m.TargetVersion, &m.Status, &m.RequestedBy, &m.RequestedAt)
		return m, err
	}, `SELECT id, tenant_id, target_version, status, requested_by, requested_at
		FROM tenant_migrations WHERE tenant_id = $1 ORDER BY requested_at DESC, id DESC`, tenantID)
}

// ---- instances ----

// InstanceRow is an instance with its connection (empty fields when it has none).
type InstanceRow struct {
	platform.Instance
	Connection platform.InstanceConnection
}

const instanceRowColumns = `i.id, i.customer_id, i.name, i.url, i.created_at, COALESCE(c.oidc_client_id, ''),
	COALESCE(c.oidc_redirect_uri, ''), COALESCE(c.idp_app_id, ''), c.updated_at`

func scanInstanceRow(r Row) (InstanceRow, error) {
	var i InstanceRow
	var upd sql.NullTime
	err := r.Scan(&i.ID, &i.CustomerID, &i.Name, &i.URL, &i.CreatedAt, &i.Connection.OIDCClientID,
		&i.Connection.OIDCRedirectURI, &i.Connection.IDPAppID, &upd)
	i.Connection.InstanceID, i.Connection.UpdatedAt = i.ID, orTime(upd, i.CreatedAt)
	return i, err
}

// instanceRowFrom is where an instance and its connection are read from.
const instanceRowFrom = ` FROM instances i LEFT JOIN instance_connections c ON c.instance_id = i.id`

// InstanceRow returns one instance with its connection. ENOTFOUND.
func (s *Store) InstanceRow(ctx context.Context, id string) (*InstanceRow, error) {
	return queryOne(ctx, s.db, "instance", scanInstanceRow, `SELECT `+instanceRowColumns+instanceRowFrom+` WHERE i.id = $1`, id)
}

// ListInstances lists instances within f (optionally of one customer) by (name, id).
func (s *Store) ListInstances(ctx context.Context, f authz.Filter, customerID string, p PageQuery) ([]InstanceRow, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	args := []any{customerID}
	cond := `($1 = '' OR i.customer_id = $1) AND ` + scopeCondition(&args, f, "i.customer_id", "i.id")
	return keysetPage(ctx, s, p, `SELECT `+instanceRowColumns+instanceRowFrom, cond, args, "i.name", "i.id", scanInstanceRow,
		func(i *InstanceRow) (string, string) { return i.Name, i.ID })
}

// InstancesByIDs returns the instances of ids that exist (a dataloader batch).
func (s *Store) InstancesByIDs(ctx context.Context, ids []string) ([]InstanceRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	return queryAll(ctx, s.db, scanInstanceRow, `SELECT `+instanceRowColumns+instanceRowFrom+` WHERE i.id IN (`+placeholders(&args, ids)+`)`, args...)
}

// UpdateInstance sets an instance's name and URL. ENOTFOUND.
func (s *Store) UpdateInstance(ctx context.Context, id, name, url string) error {
	return s.execOne(ctx, "instance", `UPDATE instances SET name = $2, url = $3 WHERE id = $1`, id, name, url)
}

// PutConnection stores an instance's connection, replacing the previous one.
func (s *Store) PutConnection(ctx context.Context, c *platform.InstanceConnection) error {
	_, err := s.db.Exec(ctx, `INSERT INTO instance_connections (instance_id, oidc_client_id, oidc_redirect_uri, idp_app_id, updated_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (instance_id) DO UPDATE SET oidc_client_id = EXCLUDED.oidc_client_id,
		oidc_redirect_uri = EXCLUDED.oidc_redirect_uri, idp_app_id = EXCLUDED.idp_app_id, updated_at = EXCLUDED.updated_at`,
		c.InstanceID, c.OIDCClientID, c.OIDCRedirectURI, c.IDPAppID, c.UpdatedAt.UTC())
	return wrap(err, "instance connection")
}

// DeleteInstance removes an instance and its connection and grants; its
// tenants stay, without an instance. ENOTFOUND.
func (s *Store) DeleteInstance(ctx context.Context, id string) error {
	return s.execOne(ctx, "instance", `DELETE FROM instances WHERE id = $1`, id)
}

// ---- customer users ----

// CustomerUser is a user of a customer's organization with its portal role
// (member when none is stored).
type CustomerUser struct {
	ID          string
	CustomerID  string
	OrgID       string
	Email       string
	Name        string
	Role        string
	SuspendedAt time.Time
	HasPassword bool
	CreatedAt   time.Time
}

const customerUserColumns = `u.id, c.id, u.org_id, u.email, u.name, COALESCE(cu.role, 'member'), u.suspended_at,
	u.password_hash <> '', u.created_at`

const customerUserFrom = ` FROM users u JOIN customers c ON c.org_id = u.org_id LEFT JOIN console_users cu ON cu.user_id = u.id `

func scanCustomerUser(r Row) (CustomerUser, error) {
	var u CustomerUser
	var susp sql.NullTime
	err := r.Scan(&u.ID, &u.CustomerID, &u.OrgID, &u.Email, &u.Name, &u.Role, &susp, &u.HasPassword, &u.CreatedAt)
	if susp.Valid {
		u.SuspendedAt = susp.Time
	}
	return u, err
}

// CustomerUser returns a user of a customer's organization. ENOTFOUND when
// the user does not exist or belongs to no customer (internal users).
func (s *Store) CustomerUser(ctx context.Context, id string) (*CustomerUser, error) {
	return queryOne(ctx, s.db, "user", scanCustomerUser, `SELECT `+customerUserColumns+customerUserFrom+`WHERE u.id = $1`, id)
}

// ListCustomerUsers lists customers' users within f, optionally of one
// customer, by (email, id).
func (s *Store) ListCustomerUsers(ctx context.Context, f authz.Filter, customerID string, p PageQuery) ([]CustomerUser, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	args := []any{customerID}
	cond := `($1 = '' OR c.id = $1) AND ` + scopeCondition(&args, f, "c.id", "")
	return keysetPage(ctx, s, p, `SELECT `+customerUserColumns+customerUserFrom, cond, args, "u.email", "u.id", scanCustomerUser,
		func(u *CustomerUser) (string, string) { return u.Email, u.ID })
}

// SetUserSuspended suspends a user (at not zero) or reactivates it (zero).
// Suspending also ends everything the user is signed in with
// (EndUserCredentials): a reactivated user signs in again. ENOTFOUND.
func (s *Store) SetUserSuspended(ctx context.Context, userID string, at time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET suspended_at = $2, updated_at = COALESCE($2, updated_at) WHERE id = $1`,
			userID, nullTime(at))
		if err != nil || at.IsZero() {
			return err
		}
		return tx.EndUserCredentials(ctx, userID, at)
	})
}

// UserSuspended reports whether a user is suspended. ENOTFOUND.
func (s *Store) UserSuspended(ctx context.Context, userID string) (bool, error) {
	var susp sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT suspended_at FROM users WHERE id = $1`, userID).Scan(&susp)
	return susp.Valid, wrap(err, "user")
}

// MoveUser moves a user to another organization and customer (home-org
// transfer), keeping its portal role. ECONFLICT when the organization
// already has a user with that address.
func (s *Store) MoveUser(ctx context.Context, userID, orgID, customerID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "user", `UPDATE users SET org_id = $2, updated_at = $3 WHERE id = $1`, userID, orgID, now.UTC())
		if err != nil {
			return err
		}
		if _, err := tx.db.Exec(ctx, `UPDATE console_users SET customer_id = $2, role = CASE WHEN role = 'owner' THEN 'admin' ELSE role END
			WHERE user_id = $1`, userID, customerID); err != nil {
			return err
		}
		_, err = tx.db.Exec(ctx, `DELETE FROM tenant_members WHERE user_id = $1`, userID)
		return err
	})
}

// ---- internal users ----

// InternalUser is a user of the administrator organization with an internal role.
type InternalUser struct {
	ID          string
	Email       string
	Name        string
	Role        string
	SuspendedAt time.Time
	CreatedAt   time.Time
}

const internalUserQuery = `SELECT u.id, u.email, u.name, cu.role, u.suspended_at, cu.created_at
	FROM console_users cu JOIN users u ON u.id = cu.user_id`

func scanInternalUser(r Row) (InternalUser, error) {
	var u InternalUser
	var susp sql.NullTime
	err := r.Scan(&u.ID, &u.Email, &u.Name, &u.Role, &susp, &u.CreatedAt)
	if susp.Valid {
		u.SuspendedAt = susp.Time
	}
	return u, err
}

// InternalUser returns one internal user. ENOTFOUND.
func (s *Store) InternalUser(ctx context.Context, id string) (*InternalUser, error) {
	return queryOne(ctx, s.db, "internal user", scanInternalUser, internalUserQuery+` WHERE cu.customer_id IS NULL AND u.id = $1`, id)
}

// ListInternalUsers lists internal users by (email, id).
func (s *Store) ListInternalUsers(ctx context.Context, p PageQuery) ([]InternalUser, string, error) {
	return keysetPage(ctx, s, p, internalUserQuery, `cu.customer_id IS NULL`, nil, "u.email", "u.id", scanInternalUser,
		func(u *InternalUser) (string, string) { return u.Email, u.ID })
}

// RemoveInternalUser takes an internal user's role, grants and focus mode
// away and suspends its account. ENOTFOUND.
func (s *Store) RemoveInternalUser(ctx context.Context, id string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		err := tx.execOne(ctx, "internal user", `DELETE FROM console_users WHERE user_id = $1 AND customer_id IS NULL`, id)
		if err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM customer_grants WHERE grantee_type = 'user' AND grantee_id = $1`,
			`DELETE FROM instance_grants WHERE grantee_type = 'user' AND grantee_id = $1`,
			`DELETE FROM focus_modes WHERE user_id = $1`,
		} {
			if _, err := tx.db.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return tx.SetUserSuspended(ctx, id, now)
	})
}

// ---- grants ----

// GrantsByCustomerIDs returns the customer grants of the customers of ids,
// by customer then grantee (a dataloader batch).
func (s *Store) GrantsByCustomerIDs(ctx context.Context, ids []string) ([]Grant, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var args []any
	cond := scopeCondition(&args, authz.Filter{CustomerIDs: ids}, "customer_id", "") // the customers asked for
	return queryAll(ctx, s.db, scanGrant, `SELECT grantee_type, grantee_id, customer_id, granted_by, granted_at FROM customer_grants
		WHERE `+cond+` ORDER BY customer_id, grantee_type, grantee_id`, args...)
}

// FocusMode is a user's live focus mode.
type FocusMode struct {
	UserID     string
	CustomerID string
	StartedAt  time.Time
	ExpiresAt  time.Time
}

// Focus returns a user's focus mode live at now. ENOTFOUND when off.
func (s *Store) Focus(ctx context.Context, userID string, now time.Time) (*FocusMode, error) {
	var f FocusMode
	err := s.db.QueryRow(ctx, `SELECT user_id, customer_id, started_at, expires_at FROM focus_modes
		WHERE user_id = $1 AND expires_at > $2`, userID, now.UTC()).Scan(&f.UserID, &f.CustomerID, &f.StartedAt, &f.ExpiresAt)
	return &f, wrap(err, "focus mode")
}

// Subscriptions lists a user's notification subscriptions by event type.
func (s *Store) Subscriptions(ctx context.Context, userID string) ([]string, error) {
	return queryAll(ctx, s.db, scanString, `SELECT event_type FROM notification_subscriptions WHERE user_id = $1 ORDER BY event_type`, userID)
}

// ---- e-mail log ----

// Email is one e-mail the platform sent.
type Email struct {
	ID         string
	At         time.Time
	CustomerID string
	Recipient  string
	Kind       string
	Subject    string
	Status     string
	UserID     string
}

// AppendEmail records a sent e-mail.
func (s *Store) AppendEmail(ctx context.Context, e *Email) error {
	_, err := s.db.Exec(ctx, `INSERT INTO email_log (id, at, customer_id, recipient, kind, subject, status, user_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, e.ID, e.At.UTC(), nullString(e.CustomerID), e.Recipient, e.Kind,
		e.Subject, e.Status, nullString(e.UserID))
	return wrap(err, "e-mail")
}

// EmailQuery selects e-mails, newest first: within Scope, one page of at
// most Limit (default 100, at most 1000) after Cursor (the previous page's
// next cursor).
type EmailQuery struct {
	Scope  authz.Filter
	Limit  int
	Cursor string
}

// EmailLog lists one page of sent e-mails, newest first, and the cursor of
// the next page ("" on the last). EINVALID for a malformed cursor.
func (s *Store) EmailLog(ctx context.Context, q EmailQuery) ([]Email, string, error) {
	if err := checkNewestCursor(q.Cursor); err != nil || q.Scope.Empty() {
		return nil, "", err
	}
	var args []any
	cond := scopeCondition(&args, q.Scope, "customer_id", "")
	return newestPage(ctx, s, q.Cursor, q.Limit, `SELECT id, at, COALESCE(customer_id, ''), recipient, kind, subject, status,
		COALESCE(user_id, '') FROM email_log`, cond, args, "at",
		func(r Row) (Email, error) {
			var e Email
			err := r.Scan(&e.ID, &e.At, &e.CustomerID, &e.Recipient, &e.Kind, &e.Subject, &e.Status, &e.UserID)
			return e, err
		}, func(e *Email) (time.Time, string) { return e.At, e.ID })
}

// SetInstanceDatabaseURI records where an instance's database is.
func (s *Store) SetInstanceDatabaseURI(ctx context.Context, id, uri string) error {
	return s.execOne(ctx, "instance", `UPDATE instances SET database_uri = $2 WHERE id = $1`, id, uri)
}

// InstanceDatabaseURI returns where an instance's database is. ENOTFOUND
// when the instance is missing or has none recorded.
func (s *Store) InstanceDatabaseURI(ctx context.Context, id string) (string, error) {
	var uri string
	err := s.db.QueryRow(ctx, `SELECT database_uri FROM instances WHERE id = $1`, id).Scan(&uri)
	if err == nil && uri == "" {
		err = ErrNoRows
	}
	return uri, wrap(err, "database URI")
}

// RenameUser sets a user's display name. ENOTFOUND.
func (s *Store) RenameUser(ctx context.Context, id, name string, now time.Time) error {
	return s.execOne(ctx, "user", `UPDATE users SET name = $2, updated_at = $3 WHERE id = $1`, id, name, now.UTC())
}

// DeleteUser removes a user with its console role, sessions and factors. ENOTFOUND.
func (s *Store) DeleteUser(ctx context.Context, id string) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `DELETE FROM console_users WHERE user_id = $1`, id); err != nil {
			return err
		}
		if err := tx.EndUserCredentials(ctx, id, time.Now()); err != nil {
			return err
		}
		return tx.execOne(ctx, "user", `DELETE FROM users WHERE id = $1`, id)
	})
}
