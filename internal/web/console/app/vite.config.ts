import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The build goes to ../dist, committed and embedded by the console service
// (internal/web). File names carry no hashes and the build has no
// timestamps, so the same sources give the same bytes and CI can compare
// them; the service sends the assets with Cache-Control: no-cache.
export default defineConfig({
  plugins: [react()],
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
        entryFileNames: "assets/app.js",
        chunkFileNames: "assets/[name].js",
        assetFileNames: "assets/[name][extname]",
      },
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["src/test-setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
