package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// What each kind of record is to the authorization core: the customer, and
// the instance where there is one, that it belongs to.

func customerResource(c *platform.Customer) authz.Resource { return authz.Resource{CustomerID: c.ID} }

func tenantResource(t *store.Tenant) authz.Resource {
	return authz.Resource{CustomerID: t.CustomerID, InstanceID: t.InstanceID}
}

func instanceResource(i *store.InstanceRow) authz.Resource {
	return authz.Resource{CustomerID: i.CustomerID, InstanceID: i.ID}
}

func customerUserResource(u *store.CustomerUser) authz.Resource {
	return authz.Resource{CustomerID: u.CustomerID}
}

func invoiceResource(i *store.Invoice) authz.Resource {
	return authz.Resource{CustomerID: i.CustomerID}
}

func identityProviderResource(c *store.IDPConfig) authz.Resource {
	return authz.Resource{CustomerID: c.CustomerID}
}

func webhookResource(w *store.Webhook) authz.Resource {
	return authz.Resource{CustomerID: w.CustomerID}
}

func serviceAccountResource(a *store.ServiceAccount) authz.Resource {
	return authz.Resource{CustomerID: a.CustomerID}
}

func discrepancyResource(d *store.Discrepancy) authz.Resource {
	return authz.Resource{CustomerID: d.CustomerID}
}

// decided checks op on the record a store call answers and returns it: a
// missing record (ENOTFOUND) answers as an out-of-scope one would, so a
// scoped caller never learns whether an id exists (R4.6-id-scope).
func decided[T any](ctx context.Context, s *Service, c *access.Caller, op Operation,
	resource func(*T) authz.Resource) func(*T, error) (*T, error) {
	return func(row *T, err error) (*T, error) {
		if err != nil {
			return nil, s.checkMissing(ctx, c, op, err)
		}
		if err := s.check(ctx, c, op, resource(row)); err != nil {
			return nil, err
		}
		return row, nil
	}
}

// located answers the resource of the record a store call answers, or its error.
func located[T any](resource func(*T) authz.Resource) func(*T, error) (authz.Resource, error) {
	return func(row *T, err error) (authz.Resource, error) {
		if err != nil {
			return authz.Resource{}, err
		}
		return resource(row), nil
	}
}

// The resources a transport decides on before it calls a service (the REST
// route table, for a route's {id}). ENOTFOUND when the record does not
// exist. The service methods decide again.

// CustomerResource is the customer id.
func (s *Service) CustomerResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(customerResource)(s.store.Customer(ctx, id))
}

// TenantResource is the tenant id's customer and instance.
func (s *Service) TenantResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(tenantResource)(s.store.Tenant(ctx, id))
}

// InstanceResource is the instance id and its customer.
func (s *Service) InstanceResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(instanceResource)(s.store.InstanceRow(ctx, id))
}

// CustomerUserResource is the customer of the customer user id.
func (s *Service) CustomerUserResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(customerUserResource)(s.store.CustomerUser(ctx, id))
}

// InternalUserResource checks that id is an internal user; it names no customer.
func (s *Service) InternalUserResource(ctx context.Context, id string) (authz.Resource, error) {
	_, err := s.store.InternalUser(ctx, id)
	return authz.Resource{}, err
}

// InvoiceResource is the customer of the invoice id.
func (s *Service) InvoiceResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(invoiceResource)(s.store.Invoice(ctx, id))
}

// IdentityProviderResource is the customer of the identity provider id.
func (s *Service) IdentityProviderResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(identityProviderResource)(s.store.IDPConfig(ctx, id))
}

// WebhookResource is the customer of the webhook id.
func (s *Service) WebhookResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(webhookResource)(s.store.Webhook(ctx, id))
}

// ServiceAccountResource is the customer of the service account id.
func (s *Service) ServiceAccountResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(serviceAccountResource)(s.store.ServiceAccount(ctx, id))
}
