#!/usr/bin/env node
// The `latch` command (`npx @latch/core secret`; src/cli.ts). This small file is the package's
// `bin`, rather than the built dist/cli.js, because pnpm links a workspace package's bins when it
// installs, before anything is built: a bin in dist/ made a fresh install warn once per package
// that depends on @latch/core.
import { existsSync } from "node:fs"

const cli = new URL("../dist/cli.js", import.meta.url)
if (existsSync(cli)) {
  await import(cli.href)
} else {
  // Only in a checkout of the repository, before its first build (the package ships dist/).
  process.stderr.write("latch: @latch/core is not built yet: run `pnpm run build` first\n")
  process.exitCode = 1
}
