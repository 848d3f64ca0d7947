package admin

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// customers manages customers.
type customers struct{ *core }

// Customer is a customer as the API shows it.
type Customer struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	OrgID     string          `json:"orgId"`
	Settings  json.RawMessage `json:"settings"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

func newCustomer(c *platform.Customer) *Customer {
	return &Customer{ID: c.ID, Name: c.Name, OrgID: c.OrgID, Settings: c.Settings, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// CustomerInput creates a customer. Settings is optional (a JSON object).
type CustomerInput struct {
	Name     string          `json:"name"`
	Settings json.RawMessage `json:"settings,omitempty"`
	// Domains are e-mail domains whose users sign in to this customer's
	// organization through SSO (optional).
	Domains []string `json:"domains,omitempty"`
}

// CustomerPatch changes a customer; nil fields stay.
type CustomerPatch struct {
	Name *string `json:"name,omitempty"`
}

// OwnershipInput names the new owner of a customer.
type OwnershipInput struct {
	UserID string `json:"userId"`
}

// ListCustomers lists the customers in the caller's scope (every role may
// read its customers).
func (s *customers) ListCustomers(ctx context.Context, c *access.Caller, p PageInput) (*Page[*Customer], error) {
	return namePage(ctx, s.core, c, OpCustomerList, p, func(f authz.Filter) ([]platform.Customer, string, error) {
		return s.store.ListCustomers(ctx, f, p)
	}, newCustomer)
}

// Customer returns one customer. ENOTFOUND or EFORBIDDEN per the scope mode.
func (s *customers) Customer(ctx context.Context, c *access.Caller, id string) (*Customer, error) {
	return viewing(newCustomer)(s.customerFor(ctx, c, id, OpCustomerGet))
}

// CustomersByIDs returns the customers of ids in key order, nil where a
// customer does not exist or is outside the caller's scope (a dataloader batch).
func (s *customers) CustomersByIDs(ctx context.Context, c *access.Caller, ids []string) ([]*Customer, error) {
	return s.customersByIDs(ctx, c, ids, store.Full)
}

// PageCustomers returns what a page of tenants shows of their customers:
// the customers of ids in key order, as CustomersByIDs, and with grants
// each one's grants, as GrantsByCustomerIDs (nil without), the two read in
// one statement. brief reads only the customers' ids, names and
// organizations (store.Brief).
func (s *customers) PageCustomers(ctx context.Context, c *access.Caller, ids []string, brief, grants bool) ([]*Customer, [][]*GrantView, error) {
	d := detail(brief)
	if !grants {
		cs, err := s.customersByIDs(ctx, c, ids, d)
		return cs, nil, err
	}
	if err := s.checkRole(ctx, c, OpGrantList); err != nil {
		return nil, nil, err
	}
	rows, gs, err := s.store.CustomersWithGrants(ctx, ids, d)
	if err != nil {
		return nil, nil, err
	}
	cs, _ := customersInKeyOrder(c, ids)(rows, nil)
	return cs, grantsOf(ids, gs), nil
}

func (s *customers) customersByIDs(ctx context.Context, c *access.Caller, ids []string, d store.Detail) ([]*Customer, error) {
	return customersInKeyOrder(c, ids)(s.store.CustomersByIDs(ctx, ids, d))
}

// customersInKeyOrder views the customers of ids in key order, nil where
// missing or outside the caller's scope.
func customersInKeyOrder(c *access.Caller, ids []string) func([]platform.Customer, error) ([]*Customer, error) {
	return inKeyOrder(c, ids, func(c *platform.Customer) string { return c.ID }, customerResource, newCustomer)
}

// detail is store.Brief for a brief read, store.Full otherwise.
func detail(brief bool) store.Detail {
	if brief {
		return store.Brief
	}
	return store.Full
}

// CreateCustomer creates a customer and its organization at the identity
// provider (platform_admin only, R4.6-admin-only).
func (s *customers) CreateCustomer(ctx context.Context, c *access.Caller, in CustomerInput) (*Customer, error) {
	if err := s.check(ctx, c, OpCustomerCreate, authz.Resource{}); err != nil {
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
	var domains []string
	for _, d := range in.Domains {
		d = strings.ToLower(strings.TrimSpace(d))
		if !platform.ValidEmail("x@" + d) {
			return nil, platform.Errorf(platform.EINVALID, "domain %q is not an e-mail domain", d)
		}
		domains = append(domains, d)
	}
	now := s.stamp()
	row := &platform.Customer{ID: newID(), Name: name, OrgID: newID(), Settings: settings, CreatedAt: now, UpdatedAt: now}
	err = s.audited(ctx, c, OpCustomerCreate, on(row.ID, "customers", row.ID), func(tx *store.Store) error {
		if err := tx.CreateOrganization(ctx, &platform.Organization{ID: row.OrgID, Name: name, CreatedAt: now}); err != nil {
			return err
		}
		if err := tx.CreateCustomer(ctx, row); err != nil {
			return err
		}
		for _, d := range domains {
			if err := tx.AddCustomerDomain(ctx, d, row.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newCustomer(row), nil
}

// UpdateCustomer renames a customer (customer settings, R4.6-customer-side).
func (s *customers) UpdateCustomer(ctx context.Context, c *access.Caller, id string, in CustomerPatch) (*Customer, error) {
	if err := s.named().rename(ctx, c, OpCustomerUpdate, id, in.Name); err != nil {
		return nil, err
	}
	return viewing(newCustomer)(s.store.Customer(ctx, id))
}

// DeleteCustomer removes a customer with its organization, users, grants
// (R2.6-cascade), instances and tenants: platform_admin, or the customer's owner.
func (s *customers) DeleteCustomer(ctx context.Context, c *access.Caller, id string) error {
	return s.named().delete(ctx, c, OpCustomerDelete, id)
}

// CustomerSettings returns a customer's settings document.
func (s *customers) CustomerSettings(ctx context.Context, c *access.Caller, id string) (json.RawMessage, error) {
	return s.named().getSettings(ctx, c, OpCustomerSettings, id)
}

// PutCustomerSettings replaces a customer's settings (a JSON object of at most 64 KiB).
func (s *customers) PutCustomerSettings(ctx context.Context, c *access.Caller, id string, settings json.RawMessage) (json.RawMessage, error) {
	return s.named().putSettings(ctx, c, OpCustomerSettingsPut, id, settings)
}

// named is a customer as its name and settings are written.
func (s *customers) named() named[platform.Customer] {
	return named[platform.Customer]{core: s.core, load: s.customerFor, write: (*store.Store).UpdateCustomer, remove: (*store.Store).DeleteCustomer,
		what:     func(cust *platform.Customer) acted { return on(cust.ID, "customers", cust.ID) },
		settings: func(cust *platform.Customer) json.RawMessage { return cust.Settings }}
}

// TransferOwnership makes another user of the same customer its owner; the
// previous owner becomes an admin. Only the customer's owner and
// platform_admin may (R4.6-owner-transfer). EINVALID when the user is not
// one of the customer's users, is suspended, or already the owner.
func (s *customers) TransferOwnership(ctx context.Context, c *access.Caller, id string, in OwnershipInput) (*CustomerUserView, error) {
	cust, err := s.customerFor(ctx, c, id, OpCustomerTransferOwnership)
	if err != nil {
		return nil, err
	}
	if in.UserID == "" {
		return nil, platform.Errorf(platform.EINVALID, "userId is required")
	}
	u, err := s.store.CustomerUser(ctx, in.UserID)
	if platform.ErrorCode(err) == platform.ENOTFOUND || (err == nil && u.CustomerID != id) {
		return nil, platform.Errorf(platform.EINVALID, "userId must name a user of this customer")
	} else if err != nil {
		return nil, err
	}
	switch {
	case u.Role == authz.Owner.String():
		return nil, platform.Errorf(platform.EINVALID, "this user is already the owner")
	case !u.SuspendedAt.IsZero():
		return nil, platform.Errorf(platform.EINVALID, "a suspended user cannot become the owner")
	}
	err = s.audited(ctx, c, OpCustomerTransferOwnership, on(id, "customers", id), func(tx *store.Store) error {
		if err := tx.TransferOwnership(ctx, id, u.ID, s.now()); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, mail.Message{Kind: mail.KindOwnership, To: u.Email, CustomerID: id, UserID: u.ID,
			Org: cust.Name, Name: u.Name})
	})
	if err != nil {
		return nil, err
	}
	u.Role = authz.Owner.String()
	return newCustomerUser(u, s.now()), nil
}

func customerResource(c *platform.Customer) authz.Resource { return authz.Resource{CustomerID: c.ID} }

// CustomerResource is the customer id.
func (s *customers) CustomerResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(customerResource)(s.store.Customer(ctx, id))
}

// SearchCustomers lists the customers in the caller's scope whose name
// contains search (case-insensitive), by name; an empty search lists all.
func (s *customers) SearchCustomers(ctx context.Context, c *access.Caller, search string, p PageInput) (*Page[*Customer], error) {
	search, err := cleanSearch(search)
	if err != nil {
		return nil, err
	}
	if search == "" {
		return s.ListCustomers(ctx, c, p)
	}
	return namePage(ctx, s.core, c, OpCustomerList, p, func(f authz.Filter) ([]platform.Customer, string, error) {
		return s.store.SearchCustomers(ctx, f, search, p)
	}, newCustomer)
}

// cleanSearch trims a search text; EINVALID past 200 characters.
func cleanSearch(search string) (string, error) {
	search = strings.TrimSpace(search)
	if utf8.RuneCountInString(search) > 200 {
		return "", platform.Errorf(platform.EINVALID, "search must be at most 200 characters")
	}
	return search, nil
}
