import { defineConfig } from "vitest/config"
import { onConsoleLog } from "./test/helpers/test-output.js"

export default defineConfig({
  test: {
    // Hang bounds, not speed checks (timings are bench/'s): room for a machine busy with other
    // work, where a test that takes 1 s when idle can take 10. A passing test never waits.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    onConsoleLog,
  },
})
