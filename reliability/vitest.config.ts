import { defineConfig } from "vitest/config"

// The checks start real servers (PostgreSQL, two demo processes, SMTP): one file at a time.
export default defineConfig({
  test: {
    include: ["*.test.ts", "test/**/*.test.{ts,mjs}"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
})
