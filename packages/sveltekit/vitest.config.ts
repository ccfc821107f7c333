import { svelte } from "@sveltejs/vite-plugin-svelte"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const stub = (name: string) => fileURLToPath(new URL(`./test/stubs/${name}.ts`, import.meta.url))

export default defineConfig({
  plugins: [svelte()],
  resolve: {
    alias: {
      "$app/environment": stub("app-environment"),
      "$app/paths": stub("app-paths"),
      "$app/forms": stub("app-forms"),
      "$app/navigation": stub("app-navigation"),
      "$app/server": stub("app-server"),
      "$app/state": stub("app-state"),
      "$env/dynamic/private": stub("env-dynamic-private"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/app/**"],
    // Hang bounds, not speed checks: room for a machine busy with other work.
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files
    // one at a time (most of a test's time is spent waiting on its servers).
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
