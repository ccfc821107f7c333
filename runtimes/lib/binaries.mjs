// The runtimes' binaries, every one from the npm registry. Node.js 20 is the one running this;
// 22 and 24 come from the registry's `node` package (scripts/install-lib.mjs installs them once
// into node_modules/.cache). Bun and Deno are devDependencies of this package: their npm packages
// carry each platform's binary as an optional dependency, which pnpm installs with no install
// script (pnpm 10 runs none it was not told to), so the binary is looked up here in the
// platform package itself rather than through the wrapper's postinstall.
import { spawnSync } from "node:child_process"
import { existsSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { nodeBinary } from "../../scripts/install-lib.mjs"

const require = createRequire(import.meta.url)

function works(binary) {
  return existsSync(binary) && spawnSync(binary, ["--version"], { encoding: "utf8" }).status === 0
}

/** The binary `name` of the first of `wrapper`'s platform packages installed here that runs. */
function fromPlatformPackage(wrapper, name) {
  const manifestPath = realpathSync(require.resolve(`${wrapper}/package.json`))
  const manifest = require(manifestPath)
  const fromWrapper = createRequire(manifestPath)
  const tried = []
  for (const platform of Object.keys(manifest.optionalDependencies ?? {})) {
    let dir
    try {
      dir = dirname(fromWrapper.resolve(`${platform}/package.json`))
    } catch {
      continue
    }
    for (const binary of [join(dir, "bin", name), join(dir, name)]) {
      if (works(binary)) return binary
      tried.push(binary)
    }
  }
  throw new Error(
    `no runnable ${name} binary in ${wrapper}'s platform packages (${tried.join(", ") || "none installed"}): run pnpm install`,
  )
}

/** The binary of a runtime: `node20`, `node22`, `node24`, `bun` or `deno`. */
export async function binary(name) {
  if (name.startsWith("node")) return nodeBinary(Number(name.slice(4)))
  return fromPlatformPackage(name, name)
}

/** `--version` of a binary, first line. */
export function versionOf(binary) {
  return spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0].trim()
}
