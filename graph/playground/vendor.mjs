// Copies GraphiQL and React's browser builds from node_modules (installed
// from package-lock.json with `npm ci`) into assets/, which the Go binary
// embeds (graph/playground.go): the playground loads nothing from another
// host. Run `npm ci && npm run vendor` after changing package.json, and
// commit assets/ with the lock file.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const pkgVersion = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
const files = {
  "graphiql.min.js": "graphiql/graphiql.min.js",
  "graphiql.min.css": "graphiql/graphiql.min.css",
  "react.production.min.js": "react/umd/react.production.min.js",
  "react-dom.production.min.js": "react-dom/umd/react-dom.production.min.js",
};
mkdirSync("assets", { recursive: true });
const versions = [];
for (const [to, from] of Object.entries(files)) {
  copyFileSync("node_modules/" + from, "assets/" + to);
}
for (const pkg of ["graphiql", "react", "react-dom"]) {
  versions.push(`${pkg} ${pkgVersion(pkg)} (MIT)`);
}
writeFileSync("assets/VERSIONS.txt", versions.join("\n") + "\n");
const { getIntrospectionQuery } = require("graphql");
// The query GraphiQL sends (graphql-js's standard one with deprecated input
// values), for the test that the depth limit lets it pass.
writeFileSync("../testdata/introspection.graphql", getIntrospectionQuery({ inputValueDeprecation: true }) + "\n");
