// Command gen runs gqlgen for the whole graph and for each of its two
// subgraphs (D-graphql-subgraphs), from the one configuration gqlgen.yml at
// the module root, where it runs (graph/generate.go):
//
//   - the whole graph, schema/*.graphqls and schema/data/*.graphqls, as
//     gqlgen.yml says: graph/generated (ROLE=all's endpoint), the models in
//     graph/model and the resolvers in graph/;
//   - the console subgraph, schema/*.graphqls: graph/consolegraph;
//   - the data subgraph, schema/data/*.graphqls with the definitions both
//     hold (schema/directives.graphqls) and its declaration of the Tenant
//     entity (schema/data/subgraph/): graph/datagraph.
//
// The subgraphs' executable schemas bind to the same models and are served
// by the same resolvers, so each field is written once.
package main

import (
	"fmt"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

// subgraph is one subgraph's executable schema: its schema files and the
// package gqlgen writes it to.
type subgraph struct {
	schema []string
	dir    string
}

var subgraphs = []subgraph{
	{schema: []string{"schema/*.graphqls"}, dir: "consolegraph"},
	{schema: []string{"schema/data/*.graphqls", "schema/directives.graphqls", "schema/data/subgraph/*.graphqls"}, dir: "datagraph"},
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	whole, err := config.LoadConfig("gqlgen.yml")
	if err != nil {
		return err
	}
	// gqlgen compiles what it wrote to check it, and the resolvers' package
	// imports every executable: while one is still the previous schema's,
	// that check fails. Each pass skips it; the build after go generate
	// (go vet, the tests, .ci/run) compiles all of it.
	whole.SkipValidation = true
	if err := api.Generate(whole); err != nil {
		return fmt.Errorf("the whole graph: %w", err)
	}
	for _, s := range subgraphs {
		cfg, err := config.LoadConfig("gqlgen.yml")
		if err != nil {
			return err
		}
		cfg.SchemaFilename, cfg.Sources, cfg.SkipValidation = s.schema, nil, true
		if err := config.CompleteConfig(cfg); err != nil {
			return err
		}
		cfg.Exec.Filename, cfg.Exec.Package = "graph/"+s.dir+"/exec.go", s.dir
		cfg.Federation.Filename, cfg.Federation.Package = "graph/"+s.dir+"/federation.go", s.dir
		// The models and resolvers are the whole graph's.
		cfg.AutoBind = append(cfg.AutoBind, whole.Model.ImportPath())
		cfg.Model, cfg.Resolver = config.PackageConfig{}, config.ResolverConfig{}
		// The federation scalar the model generator binds in the whole graph.
		cfg.Models.Add("FieldSet", "github.com/99designs/gqlgen/graphql.String")
		if err := api.Generate(cfg); err != nil {
			return fmt.Errorf("the %s subgraph: %w", s.dir, err)
		}
	}
	return nil
}
