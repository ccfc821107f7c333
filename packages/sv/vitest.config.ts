import { defineConfig } from "vitest/config"
// @ts-expect-error a plain ES module of the package's, without declarations
import { dependencyVersions } from "./versions.mjs"

export default defineConfig({
  define: { __LATCH_VERSIONS__: JSON.stringify(dependencyVersions()) },
  test: {
    include: ["test/**/*.test.ts"],
  },
})
