/**
 * better-sqlite3 is a native module. pnpm runs its install script only when the workspace allows
 * it (`onlyBuiltDependencies`), and its script first downloads a prebuilt binary, which these
 * machines cannot (only the npm registry is reachable). So when the binding is missing, build it
 * here from its bundled sources with node-gyp, against the headers installed with Node
 * (`<prefix>/include/node`), so node-gyp downloads nothing. Needs make and a C++ compiler; takes
 * a few minutes, once.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)

/** node-gyp: the copy npm bundles next to the running Node, or one on the PATH. */
function nodeGyp(): string[] {
  const prefix = dirname(dirname(process.execPath))
  for (const candidate of [
    join(prefix, "lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"),
    "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js",
  ]) {
    if (existsSync(candidate)) return [process.execPath, candidate]
  }
  return ["node-gyp"]
}

export function ensureBetterSqlite(): void {
  const root = dirname(require.resolve("better-sqlite3/package.json"))
  if (existsSync(join(root, "build/Release/better_sqlite3.node"))) return
  const prefix = dirname(dirname(process.execPath))
  if (!existsSync(join(prefix, "include/node/node.h"))) {
    throw new Error(
      `better-sqlite3 is not built, and Node's headers are not in ${prefix}/include/node`,
    )
  }
  const [command, ...args] = nodeGyp()
  const built = spawnSync(command!, [...args, "rebuild", "--release", `--nodedir=${prefix}`], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  })
  if (built.status !== 0) {
    throw new Error(
      `building better-sqlite3 failed:\n${(built.stdout + built.stderr).slice(-4000)}`,
    )
  }
}
