// The binary of Bun or Deno from its npm package. Both packages carry each platform's binary as
// an optional dependency and put a Node.js wrapper on the PATH (`node_modules/.bin/deno` runs
// `bin.cjs`, which starts the binary as its child). The wrapper is no way to run a server: a
// signal ends the wrapper and leaves the runtime running, orphaned. And pnpm runs no install
// script it was not told to, so the wrapper's postinstall never copied the binary next to it
// either. The binary is taken from the platform package itself.
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

function works(binary) {
  return existsSync(binary) && spawnSync(binary, ["--version"], { encoding: "utf8" }).status === 0
}

/**
 * The binary `name` of the first of `wrapper`'s platform packages that runs here, `wrapper`
 * resolved from the module at `from` (an `import.meta.url`).
 * @param {string} wrapper  the npm package: `bun` or `deno`
 * @param {string} name  the binary's file name
 * @param {string} from
 * @returns {string}
 */
export function runtimeBinary(wrapper, name, from) {
  const key = `${wrapper} ${name} ${from}`
  if (!found.has(key)) found.set(key, lookUp(wrapper, name, from))
  return found.get(key)
}

/** Lookups made, by wrapper, name and `from`: each binary is run (`--version`) once. */
const found = new Map()

function lookUp(wrapper, name, from) {
  const manifestPath = realpathSync(createRequire(from).resolve(`${wrapper}/package.json`))
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"))
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
