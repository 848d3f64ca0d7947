// Composes the platform's two subgraphs into supergraph.graphql with
// @theguild/federation-composition (D-graphql-router): the console
// subgraph (ROLE=console) and the data subgraph (ROLE=tenant), from the SDL
// each serves as _service { sdl }, which graph/testdata/sdl keeps current
// (go test ./graph -update). The URLs are the roles' defaults; the gateway
// takes others from CONSOLE_GRAPHQL_URL and TENANT_GRAPHQL_URL
// (gateway.config.mjs). .ci/run runs it and fails when the committed
// supergraph differs: `npm run compose` after a schema change.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'graphql';
import { composeServices } from '@theguild/federation-composition';

export const subgraphs = [
  { name: 'console', sdl: '../testdata/sdl/console.graphql', url: 'http://localhost:8081/graphql' },
  { name: 'data', sdl: '../testdata/sdl/tenant.graphql', url: 'http://localhost:8082/graphql' },
];

const composed = composeServices(
  subgraphs.map((s) => ({ name: s.name, typeDefs: parse(readFileSync(new URL(s.sdl, import.meta.url), 'utf8')), url: s.url })),
);
if (composed.errors && composed.errors.length > 0) {
  for (const e of composed.errors) console.error(e.message);
  process.exit(1);
}
writeFileSync(new URL('supergraph.graphql', import.meta.url), composed.supergraphSdl.trimEnd() + '\n');
