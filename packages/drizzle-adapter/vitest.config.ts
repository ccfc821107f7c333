import { defineConfig } from "vitest/config"
import { onConsoleLog } from "../core/test/helpers/test-output.js"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files
    // one at a time (most of a test's time is spent waiting on the databases).
    maxWorkers: "100%",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    onConsoleLog,
  },
})
