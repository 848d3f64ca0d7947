package admin

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// tenants manages tenants, their members and migrations.
type tenants struct{ *core }

// Tenant is a tenant as the API shows it; instanceId is null when it runs on none.
type Tenant struct {
	ID         string          `json:"id"`
	CustomerID string          `json:"customerId"`
	InstanceID *string         `json:"instanceId"`
	Name       string          `json:"name"`
	Settings   json.RawMessage `json:"settings"`
	CreatedAt  time.Time       `json:"createdAt"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}

func newTenant(t *store.Tenant) *Tenant {
	return &Tenant{ID: t.ID, CustomerID: t.CustomerID, InstanceID: orNull(t.InstanceID), Name: t.Name, Settings: t.Settings,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

// TenantInput creates a tenant of a customer, optionally on one of its instances.
type TenantInput struct {
	CustomerID string          `json:"customerId"`
	InstanceID string          `json:"instanceId,omitempty"`
	Name       string          `json:"name"`
	Settings   json.RawMessage `json:"settings,omitempty"`
}

// TenantPatch changes a tenant; nil fields stay.
type TenantPatch struct {
	Name *string `json:"name,omitempty"`
}

// TenantFilter narrows a tenant list to one customer or instance.
type TenantFilter struct {
	CustomerID string
	InstanceID string
	Search     string // only tenants whose name contains it (case-insensitive)
	Brief      bool   // ids, customers, instances and names only: no settings, no times (store.Brief)
}

// TransferInput names a tenant's destination customer and, optionally, an
// instance of that customer.
type TransferInput struct {
	CustomerID string `json:"customerId"`
	InstanceID string `json:"instanceId,omitempty"`
}

// MemberInput sets a tenant member's role: admin, member or viewer.
type MemberInput struct {
	Role string `json:"role"`
}

// MigrationInput requests a migration run to a target version.
type MigrationInput struct {
	TargetVersion string `json:"targetVersion"`
}

// TenantMember is a member of a tenant.
type TenantMember struct {
	UserID  string    `json:"userId"`
	Email   string    `json:"email"`
	Name    string    `json:"name"`
	Role    string    `json:"role"`
	AddedAt time.Time `json:"addedAt"`
}

// TenantMigration is a requested migration run.
type TenantMigration struct {
	ID            string    `json:"id"`
	TenantID      string    `json:"tenantId"`
	TargetVersion string    `json:"targetVersion"`
	Status        string    `json:"status"`
	RequestedBy   string    `json:"requestedBy"`
	RequestedAt   time.Time `json:"requestedAt"`
}

var memberRoles = map[string]bool{"admin": true, "member": true, "viewer": true}

// ListTenants lists the tenants in the caller's scope, the scope applied in
// SQL. A role holding trigger_migration and not manage_tenant reads them
// too (OpTenantList, D-tenant-reads).
func (s *tenants) ListTenants(ctx context.Context, c *access.Caller, f TenantFilter, p PageInput) (*Page[*Tenant], error) {
	return searchPage(ctx, s.core, c, OpTenantList, f.Search, p, func(scope authz.Filter, search string) ([]store.Tenant, string, error) {
		return s.store.ListTenants(ctx, store.TenantQuery{Scope: scope, CustomerID: f.CustomerID, InstanceID: f.InstanceID, Search: search, Page: p, Detail: detail(f.Brief)})
	}, newTenant)
}

// tenantFor loads a tenant and checks op on it.
func (s *tenants) tenantFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.Tenant, error) {
	return decided(ctx, s.core, c, op, tenantResource)(s.store.Tenant(ctx, id))
}

// Tenant returns one tenant (OpTenantGet, D-tenant-reads).
func (s *tenants) Tenant(ctx context.Context, c *access.Caller, id string) (*Tenant, error) {
	return viewing(newTenant)(s.tenantFor(ctx, c, id, OpTenantGet))
}

// TenantsByIDs returns the tenants of ids in key order, nil where missing
// or outside the caller's scope (a dataloader batch).
func (s *tenants) TenantsByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*Tenant, error) {
	return inKeyOrder(c, ids, func(t *store.Tenant) string { return t.ID }, tenantResource, newTenant)(s.store.TenantsByIDs(ctx, ids))
}

// CreateTenant creates a tenant of in.CustomerID, on in.InstanceID when
// set (an instance of that customer). No portal role may (R5.7-no-tenant).
func (s *tenants) CreateTenant(ctx context.Context, c *access.Caller, in TenantInput) (*Tenant, error) {
	if err := s.createIn(ctx, c, OpTenantCreate, in.CustomerID); err != nil {
		return nil, err
	}
	if _, err := s.store.Customer(ctx, in.CustomerID); err != nil {
		return nil, s.checkMissing(ctx, c, OpTenantCreate, err)
	}
	if in.InstanceID != "" {
		inst, err := s.store.InstanceRow(ctx, in.InstanceID)
		if err == nil && inst.CustomerID != in.CustomerID {
			err = platform.Errorf(platform.ENOTFOUND, "instance not found")
		}
		if err != nil {
			if platform.ErrorCode(err) == platform.ENOTFOUND {
				if cerr := s.check(ctx, c, OpTenantCreate, authz.Resource{CustomerID: in.CustomerID}); cerr != nil {
					return nil, cerr
				}
				return nil, platform.Errorf(platform.EINVALID, "instanceId must name an instance of the customer")
			}
			return nil, err
		}
	}
	if err := s.check(ctx, c, OpTenantCreate, authz.Resource{CustomerID: in.CustomerID, InstanceID: in.InstanceID}); err != nil {
		return nil, err
	}
	name, err := cleanName("name", in.Name)
	if err != nil {
		return nil, err
	}
	settings, err := newSettings(in.Settings)
	if err != nil {
		return nil, err
	}
	now := s.stamp()
	t := &store.Tenant{ID: newID(), CustomerID: in.CustomerID, InstanceID: in.InstanceID, Name: name, Settings: settings,
		CreatedAt: now, UpdatedAt: now}
	err = s.audited(ctx, c, OpTenantCreate, on(t.CustomerID, "tenants", t.ID), func(tx *store.Store) error { return tx.CreateTenant(ctx, t) })
	if err != nil {
		return nil, err
	}
	return newTenant(t), nil
}

// UpdateTenant renames a tenant.
func (s *tenants) UpdateTenant(ctx context.Context, c *access.Caller, id string, in TenantPatch) (*Tenant, error) {
	if err := s.named().rename(ctx, c, OpTenantUpdate, id, in.Name); err != nil {
		return nil, err
	}
	return viewing(newTenant)(s.store.Tenant(ctx, id))
}

// DeleteTenant removes a tenant and its data (R5.7-no-tenant: no portal role).
func (s *tenants) DeleteTenant(ctx context.Context, c *access.Caller, id string) error {
	return s.named().delete(ctx, c, OpTenantDelete, id)
}

// TenantSettings returns a tenant's settings document.
func (s *tenants) TenantSettings(ctx context.Context, c *access.Caller, id string) (json.RawMessage, error) {
	return s.named().getSettings(ctx, c, OpTenantSettings, id)
}

// PutTenantSettings replaces a tenant's settings (a JSON object).
func (s *tenants) PutTenantSettings(ctx context.Context, c *access.Caller, id string, settings json.RawMessage) (json.RawMessage, error) {
	return s.named().putSettings(ctx, c, OpTenantSettingsPut, id, settings)
}

// named is a tenant as its name and settings are written; its events are its customer's.
func (s *tenants) named() named[store.Tenant] {
	return named[store.Tenant]{core: s.core, load: s.tenantFor, write: (*store.Store).UpdateTenant, remove: (*store.Store).DeleteTenant,
		what:     func(t *store.Tenant) acted { return on(t.CustomerID, "tenants", t.ID) },
		settings: func(t *store.Tenant) json.RawMessage { return t.Settings }}
}

// TenantMembers lists a tenant's members.
func (s *tenants) TenantMembers(ctx context.Context, c *access.Caller, id string) ([]TenantMember, error) {
	if _, err := s.tenantFor(ctx, c, id, OpTenantMembers); err != nil {
		return nil, err
	}
	return listing(newTenantMember)(s.store.TenantMembers(ctx, id))
}

func newTenantMember(m *store.TenantMember) TenantMember {
	return TenantMember{UserID: m.UserID, Email: m.Email, Name: m.Name, Role: m.Role, AddedAt: m.AddedAt}
}

// PutTenantMember adds a user of the tenant's customer as a member or
// changes its role. EINVALID for an unknown role or a user of another customer.
func (s *tenants) PutTenantMember(ctx context.Context, c *access.Caller, id, userID string, in MemberInput) (*TenantMember, error) {
	t, err := s.tenantFor(ctx, c, id, OpTenantMemberPut)
	if err != nil {
		return nil, err
	}
	if !memberRoles[in.Role] {
		return nil, platform.Errorf(platform.EINVALID, "role must be one of admin, member, viewer")
	}
	u, err := s.store.CustomerUser(ctx, userID)
	if platform.ErrorCode(err) == platform.ENOTFOUND || (err == nil && u.CustomerID != t.CustomerID) {
		return nil, platform.Errorf(platform.EINVALID, "the user must be a user of the tenant's customer")
	} else if err != nil {
		return nil, err
	}
	m := &store.TenantMember{TenantID: id, UserID: userID, Role: in.Role, AddedAt: s.stamp()}
	err = s.audited(ctx, c, OpTenantMemberPut, on(t.CustomerID, "tenants", id, "members", userID), func(tx *store.Store) error {
		return tx.PutTenantMember(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	return &TenantMember{UserID: u.ID, Email: u.Email, Name: u.Name, Role: in.Role, AddedAt: m.AddedAt}, nil
}

// RemoveTenantMember removes a member. ENOTFOUND when the user is none.
func (s *tenants) RemoveTenantMember(ctx context.Context, c *access.Caller, id, userID string) error {
	t, err := s.tenantFor(ctx, c, id, OpTenantMemberRemove)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, OpTenantMemberRemove, on(t.CustomerID, "tenants", id, "members", userID), func(tx *store.Store) error {
		return tx.DeleteTenantMember(ctx, id, userID)
	})
}

// TransferTenant moves a tenant to another customer (platform_admin only,
// R4.6-admin-only). The decision is on the tenant: a cross-customer move
// leaves any one-customer lens, so focus mode does not limit the destination. EINVALID for the same customer, a missing destination,
// or an instance that is not the destination's.
func (s *tenants) TransferTenant(ctx context.Context, c *access.Caller, id string, in TransferInput) (*Tenant, error) {
	t, err := s.tenantFor(ctx, c, id, OpTenantTransfer)
	if err != nil {
		return nil, err
	}
	if _, err := s.destination(ctx, t.CustomerID, in.CustomerID, "tenant"); err != nil {
		return nil, err
	}
	if in.InstanceID != "" {
		inst, err := s.store.InstanceRow(ctx, in.InstanceID)
		if platform.ErrorCode(err) == platform.ENOTFOUND || (err == nil && inst.CustomerID != in.CustomerID) {
			return nil, platform.Errorf(platform.EINVALID, "instanceId must name an instance of the destination customer")
		} else if err != nil {
			return nil, err
		}
	}
	// the event is the customer's the tenant leaves, on which it was decided
	return reread(ctx, s.core, c, OpTenantTransfer, on(t.CustomerID, "tenants", id), func(tx *store.Store) error {
		return tx.MoveTenant(ctx, id, in.CustomerID, in.InstanceID, s.now())
	}, s.store.Tenant, id, newTenant)
}

// TriggerMigration requests a migration run on a tenant.
func (s *tenants) TriggerMigration(ctx context.Context, c *access.Caller, id string, in MigrationInput) (*TenantMigration, error) {
	t, err := s.tenantFor(ctx, c, id, OpTenantMigrate)
	if err != nil {
		return nil, err
	}
	v := strings.TrimSpace(in.TargetVersion)
	if v == "" {
		v = "latest"
	}
	if len(v) > 64 {
		return nil, platform.Errorf(platform.EINVALID, "targetVersion must be at most 64 characters")
	}
	m := &store.TenantMigration{ID: newID(), TenantID: id, TargetVersion: v, Status: "requested", RequestedBy: c.UserID,
		RequestedAt: s.stamp()}
	err = s.audited(ctx, c, OpTenantMigrate, on(t.CustomerID, "tenants", id, "migrations", m.ID), func(tx *store.Store) error {
		return tx.CreateTenantMigration(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	return newMigration(m), nil
}

func newMigration(m *store.TenantMigration) *TenantMigration {
	return &TenantMigration{ID: m.ID, TenantID: m.TenantID, TargetVersion: m.TargetVersion, Status: m.Status,
		RequestedBy: m.RequestedBy, RequestedAt: m.RequestedAt}
}

// TenantMigrations lists a tenant's requested runs, newest first.
func (s *tenants) TenantMigrations(ctx context.Context, c *access.Caller, id string) ([]*TenantMigration, error) {
	if _, err := s.tenantFor(ctx, c, id, OpTenantMigrations); err != nil {
		return nil, err
	}
	rows, err := s.store.TenantMigrations(ctx, id)
	if err != nil {
		return nil, err
	}
	return views(rows, newMigration), nil
}

func tenantResource(t *store.Tenant) authz.Resource {
	return authz.Resource{CustomerID: t.CustomerID, InstanceID: t.InstanceID}
}

// TenantResource is the tenant id's customer and instance.
func (s *tenants) TenantResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(tenantResource)(s.store.Tenant(ctx, id))
}

// TenantsByCustomerIDs returns each customer's tenants (Customer.tenants).
func (s *tenants) TenantsByCustomerIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Tenant, error) {
	return childBatch(ctx, s.core, c, OpTenantList, limit, ids, func(t *store.Tenant) string { return t.CustomerID }, newTenant,
		s.store.TenantsByCustomerIDs)
}

// TenantsByInstanceIDs returns the tenants on each instance (Instance.tenants).
func (s *tenants) TenantsByInstanceIDs(ctx context.Context, c *access.Caller, limit int, ids []string) ([][]*Tenant, error) {
	return childBatch(ctx, s.core, c, OpTenantList, limit, ids, func(t *store.Tenant) string { return t.InstanceID }, newTenant,
		s.store.TenantsByInstanceIDs)
}
