package graph

// The schema is under schema/, the configuration in gqlgen.yml at the
// module root; graph/gen runs gqlgen there (it resolves the configuration's
// paths from its working directory) for the whole graph and each subgraph.
//go:generate go -C .. run ./graph/gen
