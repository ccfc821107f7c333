import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { onConsoleLog } from "../../packages/core/test/helpers/test-output.js"

const core = fileURLToPath(new URL("../../packages/core/src", import.meta.url))
const pgAdapter = fileURLToPath(new URL("../../packages/pg-adapter/src", import.meta.url))

export default defineConfig({
  // Latch from its sources (one copy, whatever was last built); Auth.js as published.
  resolve: {
    alias: [
      { find: /^@latch\/core$/, replacement: `${core}/index.ts` },
      { find: /^@latch\/core\/(.*)$/, replacement: `${core}/$1.ts` },
      { find: /^@latch\/pg-adapter$/, replacement: `${pgAdapter}/index.ts` },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files
    // one at a time (most of a test's time is spent waiting on its servers).
    maxWorkers: "100%",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    onConsoleLog,
  },
})
