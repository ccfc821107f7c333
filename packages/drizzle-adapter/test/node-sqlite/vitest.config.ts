import { defineConfig } from "vitest/config"

// The node:sqlite suite alone, run on Node.js 22 by run.mjs.
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/node-sqlite/**/*.test.ts"],
    testTimeout: 20_000,
  },
})
