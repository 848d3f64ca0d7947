package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/platform/platform/graph/consolegraph"
	"github.com/platform/platform/graph/datagraph"
	"github.com/platform/platform/graph/generated"
	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/data"
)

// executableSchema is the graph the services of r serve
// (D-graphql-subgraphs): the whole graph with both (ROLE=all), the console
// subgraph with the admin service alone (ROLE=console), the data subgraph
// with the data service alone (ROLE=tenant). The three are generated from
// one configuration (graph/gen) and served by the same resolvers; only the
// roots below differ, and the data subgraph's Tenant entity, which it
// resolves by the data service's rule.
func executableSchema(r Resolver) graphql.ExecutableSchema {
	res := &r
	d := &directives{access: r.Access}
	if r.Admin != nil {
		d.manages = r.Admin.ManagesGroup
	}
	switch {
	case r.Admin != nil && r.Data != nil:
		c := generated.Config{Resolvers: res}
		c.Directives.Authz, c.Directives.Redact = d.authz, d.redact
		return generated.NewExecutableSchema(c)
	case r.Admin != nil:
		c := consolegraph.Config{Resolvers: consoleRoot{res}}
		c.Directives.Authz, c.Directives.Redact = d.authz, d.redact
		return consolegraph.NewExecutableSchema(c)
	default:
		return datagraph.NewExecutableSchema(datagraph.Config{Resolvers: dataRoot{res}})
	}
}

// consoleRoot is the console subgraph's resolver root.
type consoleRoot struct{ *Resolver }

func (r consoleRoot) Customer() consolegraph.CustomerResolver { return &customerResolver{r.Resolver} }
func (r consoleRoot) CustomerUser() consolegraph.CustomerUserResolver {
	return &customerUserResolver{r.Resolver}
}
func (r consoleRoot) Entity() consolegraph.EntityResolver { return &entityResolver{r.Resolver} }
func (r consoleRoot) Focus() consolegraph.FocusResolver   { return &focusResolver{r.Resolver} }
func (r consoleRoot) Grant() consolegraph.GrantResolver   { return &grantResolver{r.Resolver} }
func (r consoleRoot) IdentityProvider() consolegraph.IdentityProviderResolver {
	return &identityProviderResolver{r.Resolver}
}
func (r consoleRoot) IdentityProviderInput() consolegraph.IdentityProviderInputResolver {
	return &identityProviderInputResolver{r.Resolver}
}
func (r consoleRoot) IdentityProviderPatch() consolegraph.IdentityProviderPatchResolver {
	return &identityProviderPatchResolver{r.Resolver}
}
func (r consoleRoot) Instance() consolegraph.InstanceResolver { return &instanceResolver{r.Resolver} }
func (r consoleRoot) Me() consolegraph.MeResolver             { return &meResolver{r.Resolver} }
func (r consoleRoot) Mutation() consolegraph.MutationResolver { return &mutationResolver{r.Resolver} }
func (r consoleRoot) Query() consolegraph.QueryResolver       { return &queryResolver{r.Resolver} }
func (r consoleRoot) Tenant() consolegraph.TenantResolver     { return &tenantResolver{r.Resolver} }
func (r consoleRoot) Usage() consolegraph.UsageResolver       { return &usageResolver{r.Resolver} }
func (r consoleRoot) Webhook() consolegraph.WebhookResolver   { return &webhookResolver{r.Resolver} }

// dataRoot is the data subgraph's resolver root.
type dataRoot struct{ *Resolver }

func (r dataRoot) CxIssue() datagraph.CxIssueResolver { return &cxIssueResolver{r.Resolver} }
func (r dataRoot) Entity() datagraph.EntityResolver   { return &dataEntityResolver{r.Resolver} }
func (r dataRoot) MasterRecord() datagraph.MasterRecordResolver {
	return &masterRecordResolver{r.Resolver}
}
func (r dataRoot) Mutation() datagraph.MutationResolver { return &mutationResolver{r.Resolver} }
func (r dataRoot) Query() datagraph.QueryResolver       { return &queryResolver{r.Resolver} }
func (r dataRoot) Tenant() datagraph.TenantResolver     { return &tenantResolver{r.Resolver} }

// dataEntityResolver resolves the data subgraph's entities. A Tenant
// reference resolves when the caller may read the tenant's data
// (D-data-access), to null otherwise: a router's reference to another
// customer's tenant reaches none of its data. The tenants' cx schedules
// come with them, for Tenant.cxSchedules.
type dataEntityResolver struct{ *Resolver }

func (r *dataEntityResolver) FindManyMasterRecordByIDs(ctx context.Context, reps []*model.MasterRecordByIDsInput) ([]*data.Record, error) {
	return (&entityResolver{r.Resolver}).FindManyMasterRecordByIDs(ctx, reps)
}

func (r *dataEntityResolver) FindManyTenantByIDs(ctx context.Context, reps []*model.TenantByIDsInput) ([]*admin.Tenant, error) {
	svc, c, err := r.dataCaller(ctx)
	if err != nil {
		return nil, err
	}
	keys := ids(reps, func(x *model.TenantByIDsInput) string { return x.ID })
	refs, err := svc.TenantsByIDs(ctx, c, keys)
	if err != nil {
		return nil, err
	}
	out := make([]*admin.Tenant, len(refs))
	for i, ref := range refs {
		if ref != nil {
			out[i] = &admin.Tenant{ID: ref.ID, CustomerID: ref.CustomerID}
		}
	}
	if l := loadersFrom(ctx); l != nil && l.tenantData != nil {
		l.tenantData.prime(keys, refs)
	}
	return out, nil
}
