import { defineConfig } from "vitest/config"
import { onConsoleLog } from "../core/test/helpers/test-output.js"

const src = new URL("./src", import.meta.url).pathname

export default defineConfig({
  // The README's example imports the package by its name, as an app does: its sources, unbuilt.
  resolve: {
    alias: [
      { find: /^@latch\/drizzle-adapter$/, replacement: `${src}/index.ts` },
      { find: /^@latch\/drizzle-adapter\/(pg|sqlite|mysql)$/, replacement: `${src}/$1/schema.ts` },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // bun:sqlite exists only in Bun: `bun test` runs test/bun/ (test/bun/run.mjs); node:sqlite
    // only in Node 22 and later: test/node-sqlite/run.mjs runs that folder on Node 22.
    exclude: ["test/bun/**", "test/node-sqlite/**", "**/node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files
    // one at a time (most of a test's time is spent waiting on the databases).
    maxWorkers: "100%",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    onConsoleLog,
  },
})
