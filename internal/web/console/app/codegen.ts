import type { CodegenConfig } from "@graphql-codegen/cli";
import { addTypenameSelectionDocumentTransform } from "@graphql-codegen/client-preset";

// Typed operations from the console subgraph's schema (../../../../schema;
// the data subgraph's, in schema/data, is not the console's) and the
// operations written in src/**/*.ts(x); the output is committed. Each
// operation carries its SHA-256 hash, and src/gql/persisted-documents.json
// maps every hash to its document: the trusted documents the console's
// /graphql executes (D-trusted-documents), which the build copies into
// ../dist for the server to embed.
const config: CodegenConfig = {
  schema: ["../../../../schema/*.graphqls", "schema-federation.graphqls"],
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: "sha256" } },
      // The registered documents select __typename everywhere, as urql's
      // document cache adds it to what it sends: a mutation's answer names
      // the types whose cached lists it invalidates.
      documentTransforms: [addTypenameSelectionDocumentTransform],
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { Time: "string", JSON: "unknown" },
      },
    },
  },
  hooks: {},
};
export default config;
