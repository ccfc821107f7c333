// `pnpm run lint`'s import-cycle check: no module of a published package reaches itself again
// through its imports. A cycle makes the order modules run in depend on which one an app happens
// to import first (a value read before the module that exports it has run is `undefined`, or a
// `ReferenceError`), and it ties modules together that the bundler could keep apart.
//
// What counts: every `import … from`, `export … from` and `import("…")` that is still there once
// TypeScript has removed the types — a lazy `import()` is part of the cycle too (it only moves
// the failure to the first request that takes that path). `import type` and `export type` do not
// count: they are gone at run time, so a cycle through one costs nothing. `--types` also lists
// the cycles that exist only through types, for information.
//
// Run as `node scripts/cycles.mjs` (every packages/*/src) or with the folders to check.
// dpdm builds the graphs; its `@dpdm-ignore` comment is refused, so nothing is hidden from it.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { parseCircular, parseDependencyTree } from "dpdm"
import { root } from "./lib.mjs"

const SOURCE = /\.(c|m)?(j|t)sx?$/
const DECLARATION = /\.d\.(c|m)?ts$/

/** The source files under `dir`, without declaration files and installed packages. */
function sources(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => SOURCE.test(file) && !DECLARATION.test(file))
    .filter((file) => !file.split(/[\\/]/).includes("node_modules"))
    .map((file) => join(dir, file))
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The cycles among the modules of `dir` (imports of other packages are not followed). */
async function cyclesIn(dir, { types }) {
  const files = sources(dir)
  const context = resolve(dir, "..")
  const tree = await parseDependencyTree(files, {
    context,
    include: new RegExp(`^${escape(dir)}[\\\\/]`),
    exclude: /[\\/]node_modules[\\/]/,
    // Transformed: the types removed, as the compiler emits the module.
    transform: !types,
    skipDynamicImports: false,
    onProgress: () => {},
  })
  const ignored = files.filter((file) => readFileSync(file, "utf8").includes("@dpdm-ignore"))
  // dpdm names modules relative to the context: name them from where the command runs.
  const named = (id) => relative(process.cwd(), resolve(context, id))
  const cycles = parseCircular(tree, false).map((cycle) => [...cycle, cycle[0]].map(named))
  return { cycles, ignored: ignored.map((file) => relative(process.cwd(), file)) }
}

const args = process.argv.slice(2)
const listTypes = args.includes("--types")
const named = args.filter((arg) => !arg.startsWith("--"))
const dirs = named.length
  ? named.map((dir) => resolve(dir))
  : readdirSync(join(root, "packages"))
      .map((name) => join(root, "packages", name, "src"))
      .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())

let failed = false
for (const dir of dirs) {
  const { cycles, ignored } = await cyclesIn(dir, { types: false })
  for (const cycle of cycles) {
    failed = true
    console.error(`✗ import cycle: ${cycle.join(" → ")}`)
  }
  for (const file of ignored) {
    failed = true
    console.error(`✗ ${file}: an @dpdm-ignore comment hides an import from the cycle check`)
  }
  if (listTypes) {
    for (const cycle of (await cyclesIn(dir, { types: true })).cycles)
      console.log(`  through types only: ${cycle.join(" → ")}`)
  }
}
if (failed) {
  console.error("\nMove what both sides need into a module of its own (see README, Contributing).")
  process.exit(1)
}
console.log(`No import cycles in ${dirs.map((dir) => relative(process.cwd(), dir)).join(", ")}`)
