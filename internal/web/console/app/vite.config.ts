import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vitest/config";
import react from "@vitejs/plugin-react";

// trustedDocuments puts the operations' manifest (hash → document, written
// by codegen) beside the page in ../dist, outside the served assets: the
// console's /graphql executes only these documents (D-trusted-documents).
function trustedDocuments(): Plugin {
  return {
    name: "trusted-documents",
    apply: "build",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "persisted-documents.json",
        source: readFileSync("src/gql/persisted-documents.json", "utf8"),
      });
    },
  };
}

// The build goes to ../dist, committed and embedded by the console service
// (internal/web). The assets' names carry a hash of their content and the
// build has no timestamps, so the same sources give the same bytes and CI
// can compare them; the service sends the assets as immutable, compressed
// once at start (D-console-caching), and the page with a validator.
export default defineConfig({
  plugins: [react(), trustedDocuments()],
  base: "/app/",
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        entryFileNames: "assets/app-[hash].js",
        chunkFileNames: "assets/[name]-[hash].js",
        assetFileNames: "assets/[name]-[hash][extname]",
      },
    },
  },
  test: {
    environment: "jsdom",
    // one document per worker, not per test file: building jsdom was most
    // of the run's time (each test unmounts what it rendered, test-setup.ts)
    isolate: false,
    // a bound against hanging, not a measure of speed: CI runs these beside
    // both databases' Go tests on two cores
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ["src/test-setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
