package graph

// The schema is under schema/, the configuration in gqlgen.yml at the
// module root; gqlgen runs there (it resolves the configuration's paths
// from its working directory).
//go:generate go -C .. run github.com/99designs/gqlgen generate --config gqlgen.yml
