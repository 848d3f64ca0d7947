package admin

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// instances manages instances and their applications at the identity
// provider.
type instances struct {
	*core
	apps  Apps  // the identity provider's applications (WithApps)
	vault Vault // where database URIs are (WithVault)
}

// Instance callback paths registered at the identity provider (R2.5-instance-app, R9-callbacks).
const (
	CallbackPath   = "/auth/callback"
	CallbackPathV3 = "/3/auth/callback"
	signedOutPath  = "/signed-out"
	// BackchannelLogoutPath receives the provider's logout tokens (the
	// tenant backend's route).
	BackchannelLogoutPath = "/auth/backchannel-logout"
)

// Connection is an instance's connection to the identity provider (R2.4-connection).
type Connection struct {
	OIDCClientID    string    `json:"oidcClientId"`
	OIDCRedirectURI string    `json:"oidcRedirectUri"`
	IDPAppID        string    `json:"idpAppId"`
	UpdatedAt       time.Time `json:"updatedAt"`
	// RequireDPoP: the application's tokens are issued only with a DPoP
	// proof, bound to the client's key (D-dpop).
	RequireDPoP bool `json:"requireDpop"`
}

// Instance is an instance as the API shows it, with its connection for
// roles that hold manage_instances (a role reading instances through
// create_tenant does not see it, D-instance-reads).
type Instance struct {
	ID         string      `json:"id"`
	CustomerID string      `json:"customerId"`
	Name       string      `json:"name"`
	URL        string      `json:"url"`
	CreatedAt  time.Time   `json:"createdAt"`
	Connection *Connection `json:"connection,omitempty"`
	// ClientSecret is the secret of a confidential instance application,
	// answered once, when the instance is created.
	ClientSecret string `json:"clientSecret,omitempty"`
}

func newInstance(i *store.InstanceRow) *Instance {
	return &Instance{ID: i.ID, CustomerID: i.CustomerID, Name: i.Name, URL: i.URL, CreatedAt: i.CreatedAt,
		Connection: newConnection(&i.Connection)}
}

func newConnection(c *platform.InstanceConnection) *Connection {
	return &Connection{OIDCClientID: c.OIDCClientID, OIDCRedirectURI: c.OIDCRedirectURI, IDPAppID: c.IDPAppID, UpdatedAt: c.UpdatedAt,
		RequireDPoP: c.RequireDPoP}
}

// newInstanceWithoutConnection is the view of a caller reading instances
// through create_tenant: R4.6-infra keeps the connection from scoped roles.
func newInstanceWithoutConnection(i *store.InstanceRow) *Instance {
	v := newInstance(i)
	v.Connection = nil
	return v
}

// instanceView is how c sees instances: with their connection when it reads
// them through manage_instances, not when through create_tenant (account_manager
// and qa_admin reach the instances of their scope they create tenants on,
// D-instance-reads); the connection and every write stay manage_instances'.
func (s *instances) instanceView(c *access.Caller) func(*store.InstanceRow) *Instance {
	if s.actionOf(c, OpInstanceList) == authz.ManageInstances {
		return newInstance
	}
	return newInstanceWithoutConnection
}

// InstanceInput creates an instance of a customer at URL (the tenant web
// app's address, {instance_url}). DatabaseURI is optional and write-only.
type InstanceInput struct {
	CustomerID  string `json:"customerId"`
	Name        string `json:"name"`
	URL         string `json:"url"`
	DatabaseURI string `json:"databaseUri,omitempty"`
	// AppAuthMethod makes the instance's application confidential
	// (client_secret_basic or client_secret_post) for a server-side web app
	// that keeps a secret; by default ("" or none) it is public, as the
	// tenant web app, which exchanges its code in the browser, needs.
	AppAuthMethod string `json:"appAuthMethod,omitempty"`
	// RequireDPoP makes the application's tokens sender-constrained: issued
	// only with a DPoP proof (RFC 9449, D-dpop).
	RequireDPoP bool `json:"requireDpop,omitempty"`
}

// InstanceUpdate replaces an instance's name and URL; a new URL re-registers
// the callbacks at the identity provider.
type InstanceUpdate struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	DatabaseURI string `json:"databaseUri,omitempty"`
	// RequireDPoP, when set, changes whether the application requires DPoP
	// proofs; absent keeps it.
	RequireDPoP *bool `json:"requireDpop,omitempty"`
}

// DatabaseURI is the answer of resolve-database-uri.
type DatabaseURI struct {
	InstanceID  string `json:"instanceId"`
	DatabaseURI string `json:"databaseUri"`
}

// cleanURL validates an instance URL (platform.CheckInstanceURL); a
// trailing slash is dropped.
func cleanURL(raw string) (string, error) {
	raw = strings.TrimRight(strings.TrimSpace(raw), "/")
	return raw, platform.CheckInstanceURL("url", raw)
}

// instanceFields checks an instance's name, URL and database URI, and
// answers the name and URL cleaned. EINVALID.
func instanceFields(name, url, databaseURI string) (string, string, error) {
	name, err := cleanName("name", name)
	if err != nil {
		return "", "", err
	}
	base, err := cleanURL(url)
	if err != nil {
		return "", "", err
	}
	if len(databaseURI) > 2000 {
		return "", "", platform.Errorf(platform.EINVALID, "databaseUri must be at most 2000 characters")
	}
	return name, base, nil
}

func appInput(name, base string, requireDPoP bool) AppInput {
	return AppInput{Name: name, RedirectURIs: []string{base + CallbackPath, base + CallbackPathV3},
		PostLogoutRedirectURIs: []string{base + signedOutPath}, BackchannelLogoutURI: base + BackchannelLogoutPath,
		RequireDPoP: requireDPoP}
}

// ListInstances lists the instances in the caller's scope.
func (s *instances) ListInstances(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*Instance], error) {
	return s.SearchInstances(ctx, c, customerID, "", p)
}

// SearchInstances lists the instances in the caller's scope (of one
// customer when customerID is set) whose name contains search
// (case-insensitive), by name; an empty search lists all. The scope is
// applied in SQL: account_manager sees its customers' instances, qa_admin
// those of its instance grants on its customers (D-instance-reads).
// EFORBIDDEN for a role that reads instances with neither manage_instances
// nor create_tenant.
func (s *instances) SearchInstances(ctx context.Context, c *access.Caller, customerID, search string, p PageInput) (*Page[*Instance], error) {
	return searchPage(ctx, s.core, c, OpInstanceList, search, p, func(f authz.Filter, search string) ([]store.InstanceRow, string, error) {
		return s.store.ListInstances(ctx, f, customerID, search, p)
	}, s.instanceView(c))
}

// instanceFor loads an instance and checks op on it.
func (s *instances) instanceFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.InstanceRow, error) {
	return decided(ctx, s.core, c, op, instanceResource)(s.store.InstanceRow(ctx, id))
}

// Instance returns one instance, with its connection for roles that hold
// manage_instances. EFORBIDDEN or ENOTFOUND per the scope mode.
func (s *instances) Instance(ctx context.Context, c *access.Caller, id string) (*Instance, error) {
	return viewing(s.instanceView(c))(s.instanceFor(ctx, c, id, OpInstanceGet))
}

// InstancesByIDs returns the instances of ids in key order, nil where
// missing or outside the caller's scope (a dataloader batch).
func (s *instances) InstancesByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*Instance, error) {
	return inKeyOrder(c, ids, func(i *store.InstanceRow) string { return i.ID }, instanceResource, s.instanceView(c))(s.store.InstancesByIDs(ctx, ids))
}

// AppCleanupTimeout bounds the removal of the application registered for
// an instance that was then not stored: the removal goes on when the
// request's context ends (the application must not be left behind), but
// not without end (D-request-bounds).
const AppCleanupTimeout = 10 * time.Second

// CreateInstance registers the instance's application at the identity
// provider with {url}/auth/callback and {url}/3/auth/callback, then stores
// the instance and its connection (R2.5-instance-app). When the provider
// fails nothing is stored; when storing fails the application is removed.
func (s *instances) CreateInstance(ctx context.Context, c *access.Caller, in InstanceInput) (*Instance, error) {
	if err := s.createIn(ctx, c, OpInstanceCreate, in.CustomerID); err != nil {
		return nil, err
	}
	if _, err := s.store.Customer(ctx, in.CustomerID); err != nil {
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return nil, platform.Errorf(platform.EINVALID, "customerId must name an existing customer")
		}
		return nil, err
	}
	if err := s.check(ctx, c, OpInstanceCreate, authz.Resource{CustomerID: in.CustomerID}); err != nil {
		return nil, err
	}
	name, base, err := instanceFields(in.Name, in.URL, in.DatabaseURI)
	if err != nil {
		return nil, err
	}
	ai := appInput(name, base, in.RequireDPoP)
	switch in.AppAuthMethod {
	case "", platform.AuthNone:
	case platform.AuthSecretBasic, platform.AuthSecretPost:
		ai.Kind, ai.AuthMethod = platform.AppWeb, in.AppAuthMethod
	default:
		return nil, platform.Errorf(platform.EINVALID, "appAuthMethod must be none, client_secret_basic or client_secret_post")
	}
	app, err := s.apps.Create(ctx, ai)
	if err != nil {
		return nil, appError(err)
	}
	now := s.stamp()
	row := &store.InstanceRow{Instance: platform.Instance{ID: newID(), CustomerID: in.CustomerID, Name: name, URL: base, CreatedAt: now}}
	row.Connection = platform.InstanceConnection{InstanceID: row.ID, OIDCClientID: app.ClientID,
		OIDCRedirectURI: base + CallbackPath, IDPAppID: app.AppID, UpdatedAt: now, RequireDPoP: in.RequireDPoP}
	err = s.audited(ctx, c, OpInstanceCreate, on(row.CustomerID, "instances", row.ID), func(tx *store.Store) error {
		if err := tx.CreateInstance(ctx, &row.Instance, &row.Connection); err != nil {
			return err
		}
		if in.DatabaseURI != "" {
			return tx.SetInstanceDatabaseURI(ctx, row.ID, in.DatabaseURI)
		}
		return nil
	})
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), AppCleanupTimeout)
		defer cancel()
		if derr := s.apps.Delete(cleanup, app.AppID); derr != nil {
			slog.ErrorContext(ctx, "instance application left behind", "app_id", app.AppID, "err", derr)
		}
		return nil, err
	}
	out := newInstance(row)
	out.ClientSecret = app.ClientSecret
	return out, nil
}

// appError hides the identity provider's internal errors behind one message.
func appError(err error) error {
	if c := platform.ErrorCode(err); c == platform.EINVALID || c == platform.ECONFLICT {
		return err
	}
	slog.Error("identity provider management API", "err", err)
	return &platform.Error{Code: platform.EINTERNAL, Message: "the identity provider did not register the application"}
}

// UpdateInstance renames an instance and moves it to a new URL; a new URL
// updates the application's callbacks and the stored oidcRedirectUri.
func (s *instances) UpdateInstance(ctx context.Context, c *access.Caller, id string, in InstanceUpdate) (*Instance, error) {
	i, err := s.instanceFor(ctx, c, id, OpInstanceUpdate)
	if err != nil {
		return nil, err
	}
	name, base, err := instanceFields(in.Name, in.URL, in.DatabaseURI)
	if err != nil {
		return nil, err
	}
	conn := i.Connection
	dpop := conn.RequireDPoP
	if in.RequireDPoP != nil {
		dpop = *in.RequireDPoP
	}
	if base != i.URL || name != i.Name || dpop != conn.RequireDPoP {
		if conn.IDPAppID != "" {
			if _, err := s.apps.Update(ctx, conn.IDPAppID, appInput(name, base, dpop)); err != nil {
				return nil, appError(err)
			}
			conn.OIDCRedirectURI, conn.UpdatedAt, conn.RequireDPoP = base+CallbackPath, s.now(), dpop
		}
	}
	return reread(ctx, s.core, c, OpInstanceUpdate, on(i.CustomerID, "instances", id), func(tx *store.Store) error {
		if err := tx.UpdateInstance(ctx, id, name, base); err != nil {
			return err
		}
		if conn.OIDCClientID != "" {
			if err := tx.PutConnection(ctx, &conn); err != nil {
				return err
			}
		}
		if in.DatabaseURI != "" {
			return tx.SetInstanceDatabaseURI(ctx, id, in.DatabaseURI)
		}
		return nil
	}, s.store.InstanceRow, id, newInstance)
}

// DeleteInstance removes the instance's application at the identity
// provider, then the instance, its connection and grants; its tenants stay
// without an instance.
func (s *instances) DeleteInstance(ctx context.Context, c *access.Caller, id string) error {
	i, err := s.instanceFor(ctx, c, id, OpInstanceDelete)
	if err != nil {
		return err
	}
	if i.Connection.IDPAppID != "" {
		if err := s.apps.Delete(ctx, i.Connection.IDPAppID); err != nil && platform.ErrorCode(err) != platform.ENOTFOUND {
			return appError(err)
		}
	}
	return s.audited(ctx, c, OpInstanceDelete, on(i.CustomerID, "instances", id), func(tx *store.Store) error { return tx.DeleteInstance(ctx, id) })
}

// Connection returns an instance's connection.
func (s *instances) Connection(ctx context.Context, c *access.Caller, id string) (*Connection, error) {
	i, err := s.instanceFor(ctx, c, id, OpInstanceConnection)
	if err != nil {
		return nil, err
	}
	return newConnection(&i.Connection), nil
}

// RepairConnection re-registers the instance's application with both
// callback paths and stores oidcRedirectUri (repairs legacy connections
// whose oidcRedirectUri is empty, R9-legacy); without an application it
// registers a new one.
func (s *instances) RepairConnection(ctx context.Context, c *access.Caller, id string) (*Connection, error) {
	i, err := s.instanceFor(ctx, c, id, OpInstanceConnectionRepair)
	if err != nil {
		return nil, err
	}
	var app *App
	if i.Connection.IDPAppID != "" {
		app, err = s.apps.Update(ctx, i.Connection.IDPAppID, appInput(i.Name, i.URL, i.Connection.RequireDPoP))
	} else {
		app, err = s.apps.Create(ctx, appInput(i.Name, i.URL, i.Connection.RequireDPoP))
	}
	if err != nil {
		return nil, appError(err)
	}
	return s.putConnection(ctx, c, OpInstanceConnectionRepair, i, platform.InstanceConnection{InstanceID: id, OIDCClientID: app.ClientID,
		OIDCRedirectURI: i.URL + CallbackPath, IDPAppID: app.AppID, UpdatedAt: s.stamp(), RequireDPoP: i.Connection.RequireDPoP})
}

// RotateConnection gives the instance's application a new client id at the
// identity provider (the old one stops working) and stores it.
func (s *instances) RotateConnection(ctx context.Context, c *access.Caller, id string) (*Connection, error) {
	i, err := s.withApp(ctx, c, id, OpInstanceConnectionRotate)
	if err != nil {
		return nil, err
	}
	app, err := s.apps.Rotate(ctx, i.Connection.IDPAppID)
	if err != nil {
		return nil, appError(err)
	}
	conn := i.Connection
	conn.OIDCClientID, conn.UpdatedAt = app.ClientID, s.stamp()
	return s.putConnection(ctx, c, OpInstanceConnectionRotate, i, conn)
}

// putConnection stores conn, the new connection of the instance i, as op
// and answers it.
func (s *instances) putConnection(ctx context.Context, c *access.Caller, op Operation, i *store.InstanceRow,
	conn platform.InstanceConnection) (*Connection, error) {
	err := s.audited(ctx, c, op, on(i.CustomerID, "instances", i.ID), func(tx *store.Store) error { return tx.PutConnection(ctx, &conn) })
	if err != nil {
		return nil, err
	}
	return newConnection(&conn), nil
}

// withApp is instanceFor for an operation on the instance's application at
// the identity provider: ECONFLICT for an instance without one.
func (s *instances) withApp(ctx context.Context, c *access.Caller, id string, op Operation) (*store.InstanceRow, error) {
	i, err := s.instanceFor(ctx, c, id, op)
	if err == nil && i.Connection.IDPAppID == "" {
		err = platform.Errorf(platform.ECONFLICT, "the instance has no application; repair the connection first")
	}
	return i, err
}

// InstanceSecret is a confidential instance application's new client
// secret, answered once by RotateInstanceSecret.
type InstanceSecret struct {
	InstanceID   string `json:"instanceId"`
	CustomerID   string `json:"customerId"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
}

// RotateInstanceSecret gives a confidential instance application a new
// client secret at the identity provider (the old one stops at once) and
// answers it once; nothing is stored. ECONFLICT for an instance without an
// application or whose application has no secret (a public client).
func (s *instances) RotateInstanceSecret(ctx context.Context, c *access.Caller, id string) (*InstanceSecret, error) {
	i, err := s.withApp(ctx, c, id, OpInstanceSecretRotate)
	if err != nil {
		return nil, err
	}
	app, err := s.apps.RotateSecret(ctx, i.Connection.IDPAppID)
	switch platform.ErrorCode(err) {
	case "":
	case platform.ECONFLICT:
		return nil, platform.Errorf(platform.ECONFLICT,
			"the instance's application is a public client without a client secret; only an instance created with client_secret_basic or client_secret_post has one to rotate")
	case platform.ENOTFOUND:
		return nil, platform.Errorf(platform.ECONFLICT, "the identity provider has no application for this instance; repair the connection first")
	default:
		return nil, appError(err)
	}
	if app.ClientSecret == "" {
		return nil, platform.Errorf(platform.EINTERNAL, "the identity provider answered no client secret")
	}
	clientID := app.ClientID
	if clientID == "" {
		clientID = i.Connection.OIDCClientID
	}
	// the secret changed at the identity provider; the record is all there is to write
	if err := s.audited(ctx, c, OpInstanceSecretRotate, on(i.CustomerID, "instances", id), nil); err != nil {
		return nil, err
	}
	return &InstanceSecret{InstanceID: i.ID, CustomerID: i.CustomerID, ClientID: clientID, ClientSecret: app.ClientSecret}, nil
}

// ResolveDatabaseURI returns where the instance's database is (platform_admin
// and infra_ops only); every call is audited.
func (s *instances) ResolveDatabaseURI(ctx context.Context, c *access.Caller, id string) (*DatabaseURI, error) {
	i, err := s.instanceFor(ctx, c, id, OpInstanceDatabaseURIResolve)
	if err != nil {
		return nil, err
	}
	uri, err := s.vault.DatabaseURI(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.audited(ctx, c, OpInstanceDatabaseURIResolve, on(i.CustomerID, "instances", id), nil); err != nil {
		return nil, err
	}
	return &DatabaseURI{InstanceID: id, DatabaseURI: uri}, nil
}

func instanceResource(i *store.InstanceRow) authz.Resource {
	return authz.Resource{CustomerID: i.CustomerID, InstanceID: i.ID}
}

// InstanceResource is the instance id and its customer.
func (s *instances) InstanceResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(instanceResource)(s.store.InstanceRow(ctx, id))
}

// InstancesByCustomerIDs returns each customer's instances (Customer.instances).
func (s *instances) InstancesByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Instance, error) {
	return childBatch(ctx, s.core, c, OpInstanceList, limit, ids, func(i *store.InstanceRow) string { return i.CustomerID },
		s.instanceView(c), s.store.InstancesByCustomerIDs)
}
