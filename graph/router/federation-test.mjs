// The federation test's driver (graph/federation_test.go), beside the router
// whose packages it uses: composes the platform subgraph with
// @theguild/federation-composition and
// runs queries through Hive Gateway's runtime against the live subgraph.
// Input (stdin, JSON): {"sdl": "...", "url": "http://127.0.0.1:port/graphql",
//   "headers": {...}, "queries": [{"query": "...", "variables": {...},
//   "headers": {... this query's own, added to the common ones}}],
//   "maxCost": <n, optional: the gateway's demand control prices operations
//   with the supergraph's @cost and @listSize and refuses those over n>}
// Output (stdout, JSON): {"supergraph": "...", "results": [<GraphQL responses>]}
// or {"compositionErrors": ["..."]}.
import { parse } from 'graphql';
import { composeServices } from '@theguild/federation-composition';
import { createGatewayRuntime } from '@graphql-hive/gateway';

// answer writes v as JSON and exits once the pipe has taken all of it (an
// exit right after the write would cut an answer over the pipe's buffer).
function answer(v) {
  process.stdout.write(JSON.stringify(v), () => process.exit(0));
}

// stdin is read as a stream: a synchronous read of a pipe fails with EAGAIN
// when the writer has not caught up (a busy machine, a large schema)
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const composed = composeServices([{ name: 'platform', typeDefs: parse(input.sdl), url: input.url }]);
if (composed.errors && composed.errors.length > 0) {
  answer({ compositionErrors: composed.errors.map((e) => e.message) });
  await new Promise(() => {}); // nothing more: answer exits
}
const headers = input.headers || {};
const propagated = new Set(Object.keys(headers));
for (const q of input.queries) for (const name of Object.keys(q.headers || {})) propagated.add(name);
const gateway = createGatewayRuntime({
  supergraph: composed.supergraphSdl,
  logging: false,
  ...(input.maxCost ? { demandControl: { maxCost: input.maxCost, includeExtensionMetadata: true } } : {}),
  // The subgraph authenticates every request: pass the client's credentials on.
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => {
      const out = {};
      for (const name of propagated) {
        const v = request.headers.get(name);
        if (v) out[name] = v;
      }
      return out;
    },
  },
});
const results = [];
for (const { headers: own, ...q } of input.queries) {
  const res = await gateway.fetch('http://gateway.local/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers, ...(own || {}) },
    body: JSON.stringify(q),
  });
  results.push(await res.json());
}
await gateway[Symbol.asyncDispose]?.();
answer({ supergraph: composed.supergraphSdl, results });
