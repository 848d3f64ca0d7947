// Package graph is the GraphQL API (D-graphql-admin): an Apollo Federation v2
// subgraph over the same services as the REST routes. The schema lives in
// schema/, gqlgen generates graph/generated and graph/model from it, and
// the resolvers here parse arguments, call one service method and map the
// result; the directives @authz and @redact put the authorization core in
// front of fields, and the services decide again.
package graph

import (
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/data"
)

// Resolver holds the resolvers' dependencies: the services the REST routes
// call as well. Admin is nil on the tenant role, which serves no admin
// routes either; Data is nil on the console role.
type Resolver struct {
	Access *access.Service
	Admin  *admin.Service
	Data   *data.Service
}
