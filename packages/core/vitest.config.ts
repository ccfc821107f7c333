import { defineConfig } from "vitest/config"
import { onConsoleLog } from "./test/helpers/test-output.js"

export default defineConfig({
  test: {
    // Hang bounds, not speed checks (timings are bench/'s): room for a machine busy with other
    // work, where a test that takes 1 s when idle can take 10. A passing test never waits.
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files
    // one at a time (most of a test's time is spent waiting on its servers).
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    onConsoleLog,
  },
})
