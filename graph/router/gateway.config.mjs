// The platform's GraphQL router (D-graphql-router): Hive Gateway serving the
// supergraph compose.mjs composed from the console and data subgraphs.
// Start it with `npm ci && npm start` in this folder (docs/graphql.md,
// Router); the environment names the subgraphs' addresses and the router's:
//
//   CONSOLE_GRAPHQL_URL  the console role's /graphql (http://localhost:8081/graphql)
//   TENANT_GRAPHQL_URL   the tenant role's /graphql (http://localhost:8082/graphql),
//                        running with GRAPHQL_CONSOLE_TOKENS=true
//   ROUTER_HOST, ROUTER_PORT   where the router listens (localhost:4000)
//   ROUTER_TRUSTED_DOCUMENTS   true: execute only the console app's
//                        registered operations (D-trusted-documents), by
//                        their hash; default false, any operation
//
// The caller's Authorization header goes to both subgraphs, which
// authenticate and authorize every request themselves; the router prices
// each operation with the supergraph's @cost and @listSize and refuses one
// over the subgraphs' own budget before any subgraph is asked.
import { readFileSync } from 'node:fs';
import { defineConfig } from '@graphql-hive/gateway';

// MaxComplexity of the subgraphs (graph/handler.go, D-graphql-cost).
const maxCost = 20000;

// The console app's registered operations (hash → document), which its
// build writes beside its page; the hashes are "sha256:<hex>", a client
// may send either form.
function trustedDocuments() {
  const manifest = JSON.parse(
    readFileSync(new URL('../../internal/web/console/dist/persisted-documents.json', import.meta.url), 'utf8'),
  );
  const docs = new Map();
  for (const [hash, doc] of Object.entries(manifest)) docs.set(hash.replace(/^sha256:/, ''), doc);
  return {
    getPersistedOperation: (key) => docs.get(String(key).replace(/^sha256:/, '')) ?? null,
    allowArbitraryDocuments: false,
  };
}

export const gatewayConfig = defineConfig({
  supergraph: './supergraph.graphql',
  host: process.env.ROUTER_HOST || 'localhost',
  port: Number(process.env.ROUTER_PORT || 4000),
  transportEntries: {
    console: { location: process.env.CONSOLE_GRAPHQL_URL || 'http://localhost:8081/graphql' },
    data: { location: process.env.TENANT_GRAPHQL_URL || 'http://localhost:8082/graphql' },
  },
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => {
      const authorization = request.headers.get('authorization');
      return authorization ? { authorization } : {};
    },
  },
  demandControl: { maxCost, includeExtensionMetadata: true },
  ...(process.env.ROUTER_TRUSTED_DOCUMENTS === 'true' ? { persistedDocuments: trustedDocuments() } : {}),
  // The subgraphs' errors carry codes (NOT_FOUND, FORBIDDEN, ...) a client
  // acts on; they never hold internals (graph/errors.go).
  maskedErrors: false,
  logging: process.env.ROUTER_LOG_LEVEL || 'info',
});
