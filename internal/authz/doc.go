// Package authz decides who may do what: fixed roles, the action catalog, customer and instance scope,
// and Decide, which every REST route, GraphQL field and service calls. It is pure, fast and does no I/O.
package authz
