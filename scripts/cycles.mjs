// `pnpm run lint`'s import-cycle check: no module of a published package reaches itself again
// through its imports. A cycle makes the order modules run in depend on which one an app happens
// to import first (a value read before the module that exports it has run is `undefined`, or a
// `ReferenceError`), and it ties modules together that the bundler could keep apart.
//
// What counts: every `import … from`, `export … from` and `import("…")` — a lazy `import()` is
// part of the cycle too (it only moves the failure to the first request that takes that path) —
// and every `import type` and `export type`. A cycle through types alone costs nothing at run
// time, but it is the same tangle for a reader and for the compiler (two modules that can only
// be understood, checked and moved together), and it is where a runtime cycle starts: the first
// value imported along it closes one. Such a cycle is reported apart ("through types"), since its
// fix is different: move the declarations both sides need into a module of types of their own.
//
// Run as `node scripts/cycles.mjs` (every packages/*/src) or with the folders to check.
// dpdm builds the graphs; its `@dpdm-ignore` comment is refused, so nothing is hidden from it.
// A type imported in place (`import("./other.js").Name`), which dpdm does not see, is added to
// the graph of types (scripts/import-types.mjs).
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { parseCircular, parseDependencyTree } from "dpdm"
import { addImportTypeEdges } from "./import-types.mjs"
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
  if (types) addImportTypeEdges(tree, context, files)
  const ignored = files.filter((file) => readFileSync(file, "utf8").includes("@dpdm-ignore"))
  // dpdm names modules relative to the context: name them from where the command runs.
  const named = (id) => relative(process.cwd(), resolve(context, id))
  const cycles = parseCircular(tree, false).map((cycle) => [...cycle, cycle[0]].map(named))
  return { cycles, ignored: ignored.map((file) => relative(process.cwd(), file)) }
}

/** A cycle's modules in a row, from the first by name (dpdm may start one anywhere). */
function key(cycle) {
  const ring = cycle.slice(0, -1)
  const start = ring.indexOf([...ring].sort()[0])
  return [...ring.slice(start), ...ring.slice(0, start)].join(" → ")
}

const args = process.argv.slice(2)
const options = args.filter((arg) => arg.startsWith("--"))
if (options.length) {
  // `--types` listed the cycles through types, once allowed; every cycle is reported now.
  console.error(`✗ unknown option ${options.join(" ")}: give only the folders to check`)
  process.exit(2)
}
const dirs = args.length
  ? args.map((dir) => resolve(dir))
  : readdirSync(join(root, "packages"))
      .map((name) => join(root, "packages", name, "src"))
      .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())

let failed = false
let throughTypes = false
for (const dir of dirs) {
  const { cycles, ignored } = await cyclesIn(dir, { types: false })
  for (const cycle of cycles) {
    failed = true
    console.error(`✗ import cycle: ${cycle.join(" → ")}`)
  }
  // The graph with the types kept holds every cycle above too: report only the others.
  const running = new Set(cycles.map(key))
  for (const cycle of (await cyclesIn(dir, { types: true })).cycles) {
    if (running.has(key(cycle))) continue
    failed = true
    throughTypes = true
    console.error(`✗ import cycle through types: ${cycle.join(" → ")}`)
  }
  for (const file of ignored) {
    failed = true
    console.error(`✗ ${file}: an @dpdm-ignore comment hides an import from the cycle check`)
  }
}
if (failed) {
  console.error("\nMove what both sides need into a module of its own (see README, Contributing).")
  if (throughTypes) {
    console.error(
      "For a cycle through types: declare the types in a module that imports nothing of the\n" +
        "modules using them (e.g. packages/core/src/types/), and re-export them where they were.",
    )
  }
  process.exit(1)
}
console.log(`No import cycles in ${dirs.map((dir) => relative(process.cwd(), dir)).join(", ")}`)
