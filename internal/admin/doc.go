// Package admin holds the console's administration rules (docs/api.md; docs/requirements.md 4.6): one Service with its view types and checks,
// one file per noun, which the REST transport (adminhttp) and the GraphQL resolvers (graph/) call alike.
package admin
