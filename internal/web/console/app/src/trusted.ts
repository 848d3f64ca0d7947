import { makeOperation, mapExchange, type Operation } from "@urql/core";

// withHash names an operation by the SHA-256 codegen computed for its
// document (presetConfig.persistedDocuments), its key in the manifest of
// the console's trusted documents: extensions.persistedQuery.sha256Hash,
// which makes urql leave the text out of the request.
export function withHash(op: Operation): Operation {
  const sha256Hash = (op.query as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (op.kind === "teardown" || !sha256Hash) return op;
  return makeOperation(op.kind, { ...op, extensions: { ...op.extensions, persistedQuery: { version: 1, sha256Hash } } }, op.context);
}

// trustedOperations sends each operation as its hash alone: the console's
// /graphql executes only the app's registered documents
// (D-trusted-documents). Synchronous, so an operation reaches the network
// exactly when it would without it.
export const trustedOperations = mapExchange({ onOperation: withHash });
