package store

import (
	"context"
	"database/sql"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

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

// connectionColumns are the columns of instance_connections in
// platform.InstanceConnection's order.
const connectionColumns = `instance_id, oidc_client_id, oidc_redirect_uri, idp_app_id, updated_at`

// instanceRowFrom is where an instance and its connection are read from.
const instanceRowFrom = ` FROM instances i LEFT JOIN instance_connections c ON c.instance_id = i.id`

// CreateInstance stores an instance and its connection in one transaction.
func (s *Tenancy) CreateInstance(ctx context.Context, in *platform.Instance, conn *platform.InstanceConnection) error {
	return s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `INSERT INTO instances (id, customer_id, name, url, created_at) VALUES ($1, $2, $3, $4, $5)`,
			in.ID, in.CustomerID, in.Name, in.URL, in.CreatedAt.UTC()); err != nil {
			return wrap(err, "instance")
		}
		return tx.PutConnection(ctx, conn)
	})
}

// InstanceRow returns one instance with its connection. ENOTFOUND.
func (s *Tenancy) InstanceRow(ctx context.Context, id string) (*InstanceRow, error) {
	return queryOne(ctx, s.db, "instance", scanInstanceRow, `SELECT `+instanceRowColumns+instanceRowFrom+` WHERE i.id = $1`, id)
}

// ListInstances lists instances within f (optionally of one customer, and
// only those whose name contains search, case-insensitive; % and _ match
// themselves) by (name, id).
func (s *Tenancy) ListInstances(ctx context.Context, f authz.Filter, customerID, search string, p PageQuery) ([]InstanceRow, string, error) {
	if f.Empty() {
		return nil, "", nil
	}
	args := []any{customerID}
	cond := `($1 = '' OR i.customer_id = $1) AND ` + scopeCondition(&args, f, "i.customer_id", "i.id")
	if search != "" {
		cond += ` AND ` + containsCondition(&args, search, "i.name")
	}
	return keysetPage(ctx, s.db, p, `SELECT `+instanceRowColumns+instanceRowFrom, cond, args, "i.name", "i.id", scanInstanceRow,
		func(i *InstanceRow) (string, string) { return i.Name, i.ID })
}

// InstancesByIDs returns the instances of ids that exist (a dataloader batch).
func (s *Tenancy) InstancesByIDs(ctx context.Context, ids []string) ([]InstanceRow, error) {
	return byIDs(ctx, s.db, scanInstanceRow, `SELECT `+instanceRowColumns+instanceRowFrom, "i.id", ids)
}

// UpdateInstance sets an instance's name and URL. ENOTFOUND.
func (s *Tenancy) UpdateInstance(ctx context.Context, id, name, url string) error {
	return s.execOne(ctx, "instance", `UPDATE instances SET name = $2, url = $3 WHERE id = $1`, id, name, url)
}

// PutConnection stores an instance's connection, replacing the previous one.
func (s *Tenancy) PutConnection(ctx context.Context, c *platform.InstanceConnection) error {
	_, err := s.db.Exec(ctx, `INSERT INTO instance_connections (`+connectionColumns+`) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (instance_id) DO UPDATE SET oidc_client_id = EXCLUDED.oidc_client_id,
		oidc_redirect_uri = EXCLUDED.oidc_redirect_uri, idp_app_id = EXCLUDED.idp_app_id, updated_at = EXCLUDED.updated_at`,
		c.InstanceID, c.OIDCClientID, c.OIDCRedirectURI, c.IDPAppID, c.UpdatedAt.UTC())
	return wrap(err, "instance connection")
}

// ConnectionByClientID returns the instance connection of an OIDC client id. ENOTFOUND.
func (s *Tenancy) ConnectionByClientID(ctx context.Context, clientID string) (*platform.InstanceConnection, error) {
	var c platform.InstanceConnection
	err := s.db.QueryRow(ctx, `SELECT `+connectionColumns+` FROM instance_connections WHERE oidc_client_id = $1`, clientID).
		Scan(&c.InstanceID, &c.OIDCClientID, &c.OIDCRedirectURI, &c.IDPAppID, &c.UpdatedAt)
	return &c, wrap(err, "instance connection")
}

// DeleteInstance removes an instance and its connection and grants; its
// tenants stay, without an instance. ENOTFOUND.
func (s *Tenancy) DeleteInstance(ctx context.Context, id string) error {
	return s.execOne(ctx, "instance", `DELETE FROM instances WHERE id = $1`, id)
}

// SetInstanceDatabaseURI records where an instance's database is.
func (s *Tenancy) SetInstanceDatabaseURI(ctx context.Context, id, uri string) error {
	return s.execOne(ctx, "instance", `UPDATE instances SET database_uri = $2 WHERE id = $1`, id, uri)
}

// InstanceDatabaseURI returns where an instance's database is. ENOTFOUND
// when the instance is missing; ECONFLICT when it has none recorded (a
// state of the instance, which its administrator changes, not a missing
// record).
func (s *Tenancy) InstanceDatabaseURI(ctx context.Context, id string) (string, error) {
	var uri string
	err := s.db.QueryRow(ctx, `SELECT database_uri FROM instances WHERE id = $1`, id).Scan(&uri)
	if err == nil && uri == "" {
		return "", platform.Errorf(platform.ECONFLICT, "no database URI is recorded for this instance; set databaseUri on the instance first")
	}
	return uri, wrap(err, "instance")
}

// InstancesByURL returns the instances served at url (an API resource
// indicator, RFC 8707), with their connections.
func (s *Tenancy) InstancesByURL(ctx context.Context, url string) ([]InstanceRow, error) {
	return queryAll(ctx, s.db, scanInstanceRow, `SELECT `+instanceRowColumns+instanceRowFrom+` WHERE i.url = $1 ORDER BY i.id`, url)
}
