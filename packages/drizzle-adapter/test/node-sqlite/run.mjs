// Runs test/node-sqlite/ with vitest on Node.js 22 (node:sqlite is not in Node 20, which runs the
// rest of the package's tests). Node 22 is the npm registry's `node` package, installed once into
// node_modules/.cache, as the runtimes check finds it.
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { nodeBinary } from "../../../../scripts/install-lib.mjs"

const node = await nodeBinary(22)
const cwd = fileURLToPath(new URL("../..", import.meta.url))
const vitest = join(
  dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
)
const config = fileURLToPath(new URL("vitest.config.ts", import.meta.url))
const { status } = spawnSync(node, [vitest, "run", "--config", config], { cwd, stdio: "inherit" })
process.exit(status ?? 1)
