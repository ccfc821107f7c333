import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // The release's build is loaded by Node.js as it is, not transformed: what an app runs.
    server: { deps: { external: [/latch-release-/] } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
