package idp

import (
	"context"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/platform/platform/internal/platform"
)

// serviceAudience is the audience of a service account's access token: the
// API of the resource indicator it asked for (RFC 8707): the console's
// (ConsoleURL, or none) answers the console portal's client id, which the
// console API and its GraphQL accept; an instance's URL answers that
// instance's client id, which its data API accepts. A customer's service
// account may ask only for its own customer's instances. Anything else is
// invalid_target.
func (p *storage) serviceAudience(ctx context.Context, app *platform.Application, resource string) ([]string, error) {
	resource = strings.TrimSuffix(resource, "/")
	if resource == "" || resource == strings.TrimSuffix(p.cfg.ConsoleURL, "/") {
		if p.cfg.ConsoleClientID == "" {
			return nil, oidc.ErrInvalidRequest().WithDescription("the console API is not configured at this provider")
		}
		return []string{p.cfg.ConsoleClientID}, nil
	}
	instances, err := p.store.InstancesByURL(ctx, resource)
	if err != nil {
		return nil, err
	}
	customer, err := p.store.ServiceAccountCustomer(ctx, app.UserID)
	if err != nil {
		return nil, err
	}
	for _, in := range instances {
		if in.Connection.OIDCClientID != "" && (customer == "" || customer == in.CustomerID) {
			return []string{in.Connection.OIDCClientID}, nil
		}
	}
	return nil, &oidc.Error{ErrorType: "invalid_target", Description: "resource is not an API this client may call"}
}
