import type { CodegenConfig } from "@graphql-codegen/cli";

// Typed operations from the server's schema (../../../../schema) and the
// operations written in src/**/*.ts(x); the output is committed.
const config: CodegenConfig = {
  schema: ["../../../../schema/*.graphqls", "schema-federation.graphqls"],
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
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
