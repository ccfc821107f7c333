import { defineConfig } from "vitest/config"
import { onConsoleLog } from "../core/test/helpers/test-output.js"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    onConsoleLog,
  },
})
