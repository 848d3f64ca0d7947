package admin

import (
	"context"

	"github.com/platform/platform/internal/authz"
)

// The resources a transport decides on before it calls a service (the REST
// route table, for a route's {id}): each method finds the customer, and the
// instance where there is one, that a record belongs to. ENOTFOUND when the
// record does not exist. The service methods decide again.

// CustomerResource is the customer id.
func (s *Service) CustomerResource(ctx context.Context, id string) (authz.Resource, error) {
	c, err := s.store.Customer(ctx, id)
	return ownedBy(c.ID, err)
}

// TenantResource is the tenant id's customer and instance.
func (s *Service) TenantResource(ctx context.Context, id string) (authz.Resource, error) {
	t, err := s.store.Tenant(ctx, id)
	if err != nil {
		return authz.Resource{}, err
	}
	return authz.Resource{CustomerID: t.CustomerID, InstanceID: t.InstanceID}, nil
}

// InstanceResource is the instance id and its customer.
func (s *Service) InstanceResource(ctx context.Context, id string) (authz.Resource, error) {
	i, err := s.store.InstanceRow(ctx, id)
	if err != nil {
		return authz.Resource{}, err
	}
	return authz.Resource{CustomerID: i.CustomerID, InstanceID: i.ID}, nil
}

// CustomerUserResource is the customer of the customer user id.
func (s *Service) CustomerUserResource(ctx context.Context, id string) (authz.Resource, error) {
	u, err := s.store.CustomerUser(ctx, id)
	return ownedBy(u.CustomerID, err)
}

// InternalUserResource checks that id is an internal user; it names no customer.
func (s *Service) InternalUserResource(ctx context.Context, id string) (authz.Resource, error) {
	_, err := s.store.InternalUser(ctx, id)
	return authz.Resource{}, err
}

// InvoiceResource is the customer of the invoice id.
func (s *Service) InvoiceResource(ctx context.Context, id string) (authz.Resource, error) {
	i, err := s.store.Invoice(ctx, id)
	return ownedBy(i.CustomerID, err)
}

// IdentityProviderResource is the customer of the identity provider id.
func (s *Service) IdentityProviderResource(ctx context.Context, id string) (authz.Resource, error) {
	c, err := s.store.IDPConfig(ctx, id)
	return ownedBy(c.CustomerID, err)
}

// WebhookResource is the customer of the webhook id.
func (s *Service) WebhookResource(ctx context.Context, id string) (authz.Resource, error) {
	w, err := s.store.Webhook(ctx, id)
	return ownedBy(w.CustomerID, err)
}

// ServiceAccountResource is the customer of the service account id.
func (s *Service) ServiceAccountResource(ctx context.Context, id string) (authz.Resource, error) {
	a, err := s.store.ServiceAccount(ctx, id)
	return ownedBy(a.CustomerID, err)
}

// ownedBy is the resource of a record of customerID, or the error of its load.
func ownedBy(customerID string, err error) (authz.Resource, error) {
	if err != nil {
		return authz.Resource{}, err
	}
	return authz.Resource{CustomerID: customerID}, nil
}
