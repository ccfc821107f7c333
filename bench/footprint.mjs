// Static cost on the server: what `@latch/sveltekit` and `@auth/sveltekit` add to a fresh
// SvelteKit app's node_modules (packages and bytes, installed with npm in a temporary directory
// outside the workspace), and how long `import()` of each package takes in a fresh Node process.
import { spawnSync } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import {
  BenchError,
  isMain,
  median,
  QUICK,
  ratio,
  ratios,
  runAsScript,
  verdict,
  versionOf,
} from "./lib/common.mjs"

const ROOT = fileURLToPath(new URL("../", import.meta.url))
const IMPORT_ROUNDS = QUICK ? 5 : 15 // odd, so each median is one measured spawn
const IMPORT_GOAL = 0.5 // Latch's import time at most half of Auth.js's

/** The fresh app: SvelteKit as `npx sv create` sets it up, at the versions the bench uses. */
const APP_PACKAGES = [
  "@sveltejs/kit",
  "@sveltejs/adapter-node",
  "@sveltejs/vite-plugin-svelte",
  "svelte",
  "vite",
]

/** What each library adds: npm dependencies, given the directory holding Latch's tarballs. */
const LIBRARIES = [
  {
    id: "latch",
    name: "Latch",
    dependencies: (tarballs) => ({
      "@latch/core": `file:${tarballs["@latch/core"]}`,
      "@latch/sveltekit": `file:${tarballs["@latch/sveltekit"]}`,
    }),
    imports: ["@latch/core", "@latch/sveltekit"],
  },
  {
    id: "authjs",
    name: "Auth.js",
    dependencies: () => ({ "@auth/sveltekit": versionOf("@auth/sveltekit") }),
    imports: ["@auth/core", "@auth/sveltekit"],
  },
]

/**
 * Stand-ins for the modules SvelteKit provides to server code at run time (both libraries import
 * them), so that Node can import the packages outside a SvelteKit build: tiny packages named
 * `$app` and `$env` in node_modules, the same for both.
 */
const SVELTEKIT_STUBS = {
  $app: {
    "environment.js": "export const browser = false, building = false, dev = false, version = ''",
    // `resolve` for @latch/sveltekit (SvelteKit 3 has no `base`), `base` for @auth/sveltekit.
    "paths.js": "export const base = '', assets = ''; export const resolve = (path) => path",
  },
  $env: { "dynamic/private.js": "export const env = process.env" },
}

/** The child of an `import()` measurement: the time of one `await import(specifier)`. */
const IMPORT_SCRIPT = `const specifier = process.argv[2]
const start = performance.now()
await import(specifier)
const ms = performance.now() - start
process.stdout.write(JSON.stringify({ ms }))
`

/**
 * Counting the modules an import loads, in a separate process (loader hooks slow every import
 * down, so the timed processes run without them): a load hook appends each module's URL to the
 * file named by `LATCH_BENCH_MODULES`.
 */
const COUNT_HOOKS = `import { appendFileSync } from "node:fs"
export async function load(url, context, nextLoad) {
  appendFileSync(process.env.LATCH_BENCH_MODULES, url + "\\n")
  return nextLoad(url, context)
}
`
const COUNT_REGISTER = `import { register } from "node:module"
register("./count-hooks.mjs", import.meta.url)
`

function fail(message) {
  throw new BenchError(message)
}

/** A clean environment for npm and the measured Node processes: no inherited Node options. */
function cleanEnv() {
  const env = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" }
  for (const name of Object.keys(env)) {
    if (
      /^(NODE_OPTIONS|NODE_COMPILE_CACHE|npm_package_|npm_lifecycle_|npm_config_user_agent)/.test(
        name,
      )
    )
      delete env[name]
  }
  return env
}

function exec(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: cleanEnv() })
  if (result.status !== 0)
    fail(
      `${command} ${args.join(" ")} in ${cwd} failed (exit ${result.status ?? result.signal}):\n` +
        `${result.stdout}\n${result.stderr}`,
    )
  return result.stdout
}

/** `pnpm pack` of @latch/core and @latch/sveltekit into `dir`; their paths by package name. */
function packLatch(dir) {
  const tarballs = {}
  for (const [name, folder] of [
    ["@latch/core", "packages/core"],
    ["@latch/sveltekit", "packages/sveltekit"],
  ]) {
    const before = new Set(readdirSync(dir))
    exec("pnpm", ["pack", "--pack-destination", dir], path.join(ROOT, folder))
    const made = readdirSync(dir).filter((file) => file.endsWith(".tgz") && !before.has(file))
    if (made.length !== 1) fail(`pnpm pack of ${name} made ${made.join(", ") || "nothing"}`)
    tarballs[name] = path.join(dir, made[0])
  }
  return tarballs
}

/**
 * The packages installed under `nodeModules` (recursively, nested ones included) by path, with
 * name, version and bytes (their own files, nested node_modules excluded), and the bytes of the
 * whole tree: apparent size and allocated blocks, each file counted once however many hard
 * links it has.
 */
function inventory(nodeModules) {
  const packages = new Map()
  const seen = new Set()
  let bytes = 0
  let blocks = 0
  // Counts a file once; returns its apparent size if it is new, 0 if counted already.
  function count(file) {
    const stat = lstatSync(file)
    const key = `${stat.dev}:${stat.ino}`
    if (seen.has(key)) return 0
    seen.add(key)
    bytes += stat.size
    blocks += stat.blocks * 512
    return stat.size
  }
  // Adds up the files under `dir` (a nested node_modules is scanned as such, not added up);
  // returns the apparent bytes of those new.
  function walk(dir) {
    let own = 0
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (!entry.isDirectory()) own += count(full)
      else if (entry.name === "node_modules") scan(full)
      else own += walk(full)
    }
    return own
  }
  // A node_modules directory: each child is a package, a scope of packages, or npm's own files
  // (`.bin`, `.package-lock.json`), which are counted but belong to no package.
  function scan(dir) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (!entry.isDirectory()) count(full)
      else if (entry.name.startsWith(".")) walk(full)
      else if (!entry.name.startsWith("@")) addPackage(full)
      else
        for (const scoped of readdirSync(full, { withFileTypes: true })) {
          if (scoped.isDirectory()) addPackage(path.join(full, scoped.name))
          else count(path.join(full, scoped.name))
        }
    }
  }
  function addPackage(dir) {
    let manifest
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"))
    } catch {
      walk(dir) // not a package: counted, owned by none
      return
    }
    packages.set(path.relative(nodeModules, dir), {
      name: manifest.name,
      version: manifest.version,
      bytes: walk(dir),
    })
  }
  scan(nodeModules)
  return { packages, bytes, blocks }
}

/** Creates `dir` as a fresh app with `dependencies` and installs it with npm (`lock`: reused). */
function install(dir, appVersions, dependencies, lock) {
  mkdirSync(dir)
  const manifest = {
    name: `fresh-sveltekit-app-${path.basename(dir)}`,
    version: "0.0.0",
    private: true,
    type: "module",
    devDependencies: appVersions,
    ...(dependencies ? { dependencies } : {}),
  }
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  if (lock) copyFileSync(lock, path.join(dir, "package-lock.json"))
  exec("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir)
  return inventory(path.join(dir, "node_modules"))
}

/**
 * Makes the relative imports of a package's `.js` files resolvable by Node: a specifier without
 * an extension (\`from "./env"\`, which bundlers resolve and Node does not) gets the \`.js\` of the
 * file it names. Nothing else changes. Returns how many specifiers were changed.
 */
function addExtensions(packageDir) {
  let changed = 0
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") visit(full)
        continue
      }
      if (!entry.name.endsWith(".js")) continue
      const source = readFileSync(full, "utf8")
      const fixed = source.replace(
        /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
        (match, before, quote, specifier) => {
          if (path.extname(specifier) || !existsSync(path.join(dir, `${specifier}.js`)))
            return match
          changed++
          return `${before}${quote}${specifier}.js${quote}`
        },
      )
      if (fixed !== source) writeFileSync(full, fixed)
    }
  }
  visit(packageDir)
  return changed
}

function addStubs(dir) {
  for (const [name, files] of Object.entries(SVELTEKIT_STUBS)) {
    const root = path.join(dir, "node_modules", name)
    const exports = {}
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      writeFileSync(path.join(root, file), `${source}\n`)
      exports[`./${file.replace(/\.js$/, "")}`] = `./${file}`
    }
    writeFileSync(
      path.join(root, "package.json"),
      JSON.stringify({ name, version: "0.0.0", type: "module", exports }),
    )
  }
  writeFileSync(path.join(dir, "import-time.mjs"), IMPORT_SCRIPT)
  writeFileSync(path.join(dir, "count-hooks.mjs"), COUNT_HOOKS)
  writeFileSync(path.join(dir, "count-register.mjs"), COUNT_REGISTER)
}

/**
 * The modules `import(specifier)` loads from node_modules (the stand-ins of SvelteKit's modules
 * aside), counted per package: `{ total, byPackage: { name: count } }`.
 */
function modulesOf(dir, specifier) {
  const list = path.join(dir, `modules-${specifier.replace(/[^a-z]/g, "-")}.txt`)
  writeFileSync(list, "")
  const result = spawnSync(
    process.execPath,
    ["--import", "./count-register.mjs", "import-time.mjs", specifier],
    { cwd: dir, encoding: "utf8", env: { ...cleanEnv(), LATCH_BENCH_MODULES: list } },
  )
  if (result.status !== 0) fail(`counting the modules of ${specifier} failed:\n${result.stderr}`)
  const byPackage = {}
  for (const url of readFileSync(list, "utf8").split("\n")) {
    const at = url.lastIndexOf("/node_modules/")
    if (!url.startsWith("file:") || at < 0) continue
    const parts = url.slice(at + "/node_modules/".length).split("/")
    const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]
    if (name in SVELTEKIT_STUBS) continue
    byPackage[name] = (byPackage[name] ?? 0) + 1
  }
  const total = Object.values(byPackage).reduce((sum, n) => sum + n, 0)
  return { total, byPackage }
}

/** One fresh `node import-time.mjs specifier` in `dir`: the milliseconds of the import. */
function importOnce(dir, specifier) {
  const result = spawnSync(process.execPath, ["import-time.mjs", specifier], {
    cwd: dir,
    encoding: "utf8",
    env: cleanEnv(),
  })
  if (result.status !== 0) fail(`import("${specifier}") failed in ${dir}:\n${result.stderr}`)
  return JSON.parse(result.stdout).ms
}

const MB = 1e6
const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`
const kb = (bytes) => (bytes >= MB ? mb(bytes) : `${Math.round(bytes / 1000)} kB`)

export async function runFootprint() {
  const started = performance.now()
  const tmp = mkdtempSync(path.join(os.tmpdir(), "latch-bench-footprint-"))
  try {
    const appVersions = Object.fromEntries(APP_PACKAGES.map((name) => [name, versionOf(name)]))
    console.log(`\nfresh SvelteKit apps in ${tmp} (npm install)…`)
    const tarballs = packLatch(tmp)
    const base = install(path.join(tmp, "base"), appVersions)
    const lock = path.join(tmp, "base", "package-lock.json")
    const installed = {}
    for (const library of LIBRARIES) {
      const dir = path.join(tmp, library.id)
      installed[library.id] = install(dir, appVersions, library.dependencies(tarballs), lock)
      addStubs(dir)
      library.fixed = library.imports
        .map((name) => [name, addExtensions(path.join(dir, "node_modules", name))])
        .filter(([, count]) => count)
    }

    // What each adds to the baseline (and whether it changed any package already there).
    const added = {}
    for (const library of LIBRARIES) {
      const after = installed[library.id]
      const packages = [...after.packages]
        .filter(([where, p]) => base.packages.get(where)?.version !== p.version)
        .map(([where, p]) => ({ where, ...p }))
        .sort((a, b) => b.bytes - a.bytes)
      const replaced = packages.filter((p) => base.packages.has(p.where))
      const removed = [...base.packages.keys()].filter((where) => !after.packages.has(where))
      if (replaced.length || removed.length)
        console.warn(
          `note: ${library.id} changed the baseline's packages: ` +
            [...replaced.map((p) => p.where), ...removed].join(", "),
        )
      added[library.id] = {
        packages,
        bytes: after.bytes - base.bytes,
        blocks: after.blocks - base.blocks,
      }
    }

    // import() times: fresh processes, one warm-up each (file cache), then rounds in rotation.
    const candidates = LIBRARIES.flatMap((library) =>
      library.imports.map((specifier) => ({
        library: library.id,
        specifier,
        dir: path.join(tmp, library.id),
        times: [],
      })),
    )
    for (const candidate of candidates) {
      importOnce(candidate.dir, candidate.specifier)
      candidate.modules = modulesOf(candidate.dir, candidate.specifier)
    }
    for (let round = 0; round < IMPORT_ROUNDS; round++) {
      for (let i = 0; i < candidates.length; i++) {
        const candidate = candidates[(round + i) % candidates.length]
        candidate.times.push(importOnce(candidate.dir, candidate.specifier))
      }
    }
    const timeOf = (specifier) => candidates.find((c) => c.specifier === specifier)
    const pairs = [
      ["@latch/core", "@auth/core"],
      ["@latch/sveltekit", "@auth/sveltekit"],
    ].map(([ours, theirs]) => {
      const r = ratios(timeOf(ours).times, timeOf(theirs).times)
      return {
        ours,
        theirs,
        oursMs: median(timeOf(ours).times),
        theirsMs: median(timeOf(theirs).times),
        ...r,
        verdict: verdict(r, IMPORT_GOAL, { atMost: true }),
      }
    })
    const seconds = (performance.now() - started) / 1000
    return report({ base, added, pairs, candidates, appVersions, seconds })
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

function report({ base, added, pairs, candidates, appVersions, seconds }) {
  const { latch, authjs } = added
  const fixes = LIBRARIES.flatMap((l) => l.fixed)
  const fixedText = fixes.length
    ? `Node cannot import ${fixes.map(([name]) => `\`${name}\``).join(", ")} as published: ${fixes.length > 1 ? "they import" : "it imports"}
${fixes.length > 1 ? "their" : "its"} own modules without a file extension (\`from "./env"\`), which bundlers resolve and
Node does not. In the installed copy, the benchmark adds \`.js\` to those relative specifiers
(${fixes.map(([name, count]) => `${count} in \`${name}\``).join(", ")}) and changes nothing else.
`
    : ""
  const fewerBytes = latch.bytes < authjs.bytes ? "met" : "missed"

  console.table(
    Object.fromEntries(
      LIBRARIES.map((l) => [
        l.id,
        {
          packages: added[l.id].packages.length,
          bytes: mb(added[l.id].bytes),
          "on disk (blocks)": mb(added[l.id].blocks),
        },
      ]),
    ),
  )
  console.table(
    Object.fromEntries(
      candidates.map((c) => [
        c.specifier,
        {
          "median ms": median(c.times).toFixed(1),
          "min–max": `${Math.min(...c.times).toFixed(1)}–${Math.max(...c.times).toFixed(1)}`,
          modules: c.modules.total,
        },
      ]),
    ),
  )
  for (const p of pairs)
    console.log(
      `${p.ours}/${p.theirs} import time: ${ratio(p.median)} (95% CI ${ratio(p.low)}–${ratio(p.high)}), goal ≤ ${IMPORT_GOAL}: ${p.verdict}`,
    )
  const [core, kit] = pairs
  const summary =
    `Server: \`import()\` takes ${core.oursMs.toFixed(1)} ms for @latch/core and ` +
    `${core.theirsMs.toFixed(1)} ms for @auth/core (${ratio(core.median)}×; goal ≤ 0.5: ${core.verdict}), ` +
    `${kit.oursMs.toFixed(1)} and ${kit.theirsMs.toFixed(1)} ms for the SvelteKit packages ` +
    `(${ratio(kit.median)}×: ${kit.verdict}); a fresh SvelteKit app gains ${latch.packages.length} ` +
    `packages / ${mb(latch.bytes)} with Latch, ${authjs.packages.length} / ${mb(authjs.bytes)} ` +
    `with Auth.js (goal: fewer bytes, ${fewerBytes})`
  console.log(summary)

  const goals = [
    ...pairs.map((p) => ({
      area: "Static",
      label: `\`import("${p.ours}")\` ÷ \`import("${p.theirs}")\`, fresh Node process`,
      goal: `≤ ${IMPORT_GOAL}×`,
      value: `${ratio(p.median)}× (95% CI ${ratio(p.low)}–${ratio(p.high)}; ${p.oursMs.toFixed(1)} vs ${p.theirsMs.toFixed(1)} ms)`,
      verdict: p.verdict,
    })),
    {
      area: "Static",
      label: "bytes added to a fresh SvelteKit app's node_modules",
      goal: "fewer than Auth.js",
      value: `${mb(latch.bytes)} (${latch.packages.length} packages) vs ${mb(authjs.bytes)} (${authjs.packages.length} packages)`,
      verdict: fewerBytes,
    },
  ]

  const list = (library) =>
    added[library].packages
      .map(
        (p) =>
          `\`${p.name}@${p.version}\`${p.where.includes("/node_modules/") ? " (nested)" : ""} ${kb(p.bytes)}`,
      )
      .join(", ")
  const importRows = pairs
    .map(
      (p) =>
        `| \`${p.ours}\` vs \`${p.theirs}\` | ${p.oursMs.toFixed(1)} ms | ${p.theirsMs.toFixed(1)} ms | **${ratio(p.median)}** | ${ratio(p.low)}–${ratio(p.high)} | ≤ ${IMPORT_GOAL}: ${p.verdict} |`,
    )
    .join("\n")
  const moduleRows = candidates
    .map(
      (c) =>
        `| \`${c.specifier}\` | ${c.modules.total} | ${Object.entries(c.modules.byPackage)
          .sort((a, b) => b[1] - a[1])
          .map(([name, count]) => `${name} ${count}`)
          .join(", ")} |`,
    )
    .join("\n")

  const markdown = `## What the server installs and loads

**A fresh SvelteKit app gains ${latch.packages.length} packages and ${mb(latch.bytes)} in
\`node_modules\` with Latch, ${authjs.packages.length} packages and ${mb(authjs.bytes)} with Auth.js.
\`import("@latch/core")\` takes ${ratio(core.median)}× the time of \`import("@auth/core")\`
(${core.oursMs.toFixed(1)} vs ${core.theirsMs.toFixed(1)} ms), \`import("@latch/sveltekit")\`
${ratio(kit.median)}× that of \`import("@auth/sveltekit")\`.**

What is measured (\`bench/footprint.mjs\`), in a temporary directory outside the workspace,
removed at the end: a fresh SvelteKit app's \`package.json\` (${Object.entries(appVersions)
    .map(([name, version]) => `\`${name}@${version}\``)
    .join(", ")}, the versions the bench uses) installed with npm — the
baseline (${base.packages.size} packages, ${mb(base.bytes)}) — and two copies of it, with the baseline's
\`package-lock.json\`, installed with npm with one library more: Latch's \`@latch/core\` and
\`@latch/sveltekit\` from tarballs made by \`pnpm pack\` of this repository (as they would be
published), and \`@auth/sveltekit@${versionOf("@auth/sveltekit")}\` from the registry. A package is a
directory with a \`package.json\` under a \`node_modules\` (nested ones included); "added" are
those not in the baseline at the same place and version (none of the baseline's changed). Bytes
are the apparent sizes of every file under \`node_modules\`, each counted once however many hard
links it has, after minus before; "on disk" counts allocated blocks instead.

| Library | Packages added | Bytes added | On disk | The packages |
| --- | ---: | ---: | ---: | --- |
${LIBRARIES.map((l) => `| ${l.name} | ${added[l.id].packages.length} | **${mb(added[l.id].bytes)}** | ${mb(added[l.id].blocks)} | ${list(l.id)} |`).join("\n")}

\`import()\` time: in each installed app, a fresh \`node\` process runs \`await import(specifier)\`
between two \`performance.now()\` readings and prints the difference (no compile cache, no
inherited \`NODE_OPTIONS\`). One warm-up process per package, then ${IMPORT_ROUNDS} rounds start one
process per package each, in an order rotating by round; the figure is the median, each ratio
the median of the per-round ratios. Both SvelteKit packages import SvelteKit's run-time modules
(\`$app/environment\`, \`$app/paths\`, \`$env/dynamic/private\`), which only a SvelteKit build
provides: the same one-line stand-ins, installed as packages \`$app\` and \`$env\`, serve both.
Each package's figure includes what it imports (\`@sveltejs/kit\` for both SvelteKit packages).
${fixedText}

| Import | Latch | Auth.js | Latch ÷ Auth.js (median) | 95% CI | Goal |
| --- | ---: | ---: | ---: | ---: | --- |
${importRows}

What each import loads — the modules from \`node_modules\` (the stand-ins aside), counted by a load
hook in one more process per package, apart from the timed ones (hooks slow imports down). Most
of an import's time is Node resolving, reading, compiling and linking modules, so it follows
their number:

| Import | Modules | By package |
| --- | ---: | --- |
${moduleRows}

This part took ${seconds.toFixed(0)} s, npm's downloads included.
`
  return { markdown, summary, goals, seconds }
}

if (isMain(import.meta.url)) runAsScript(runFootprint)
