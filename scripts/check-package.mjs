// `pnpm run check:package` in a published package: lints what `pnpm publish` would upload.
//
//   publint --strict   the manifest: exports, files, types, sideEffects, bin…
//   attw               the types every entry point resolves to, in the tarball `pnpm pack`
//                      makes (workspace: ranges replaced, as published)
//
// attw runs with `--profile esm-only`: the packages are ES modules only ("type": "module", no
// "require" condition), for Node ≥ 20.19, where `require()` of an ES module works. That profile
// skips `node10` resolution (which ignores `exports`, so it finds nothing) and `node16` from
// CommonJS (which reports "ESM (dynamic import only)", true by design); `node16` from ESM and
// `bundler` are checked.
//
// Every `bin` must be a file in git, not a build output: pnpm links a workspace package's bins
// when it installs, before the build, and warns "Failed to create bin" once per dependent
// package for a file that does not exist yet (a fresh clone's `pnpm install`).
//
// attw does not expand wildcard exports (`./providers/*`): each file they match is named to it.
//
// `--svelte-entrypoints ./components`: entry points whose declarations re-export `.svelte`
// files. TypeScript resolves `./SignIn.svelte` to `SignIn.svelte.d.ts` only under `bundler`
// resolution, which is what Svelte apps use (a `.svelte` file runs only through a bundler
// anyway); under `node16` it reports an internal resolution error. Those entry points are checked
// in a second run that ignores that one rule; every other entry point gets the full check.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: { "svelte-entrypoints": { type: "string", multiple: true, default: [] } },
})
const svelteEntrypoints = values["svelte-entrypoints"]

/** The subpaths that the package's wildcard exports match, e.g. `./providers/github`. */
function wildcardEntrypoints() {
  const { exports = {} } = JSON.parse(readFileSync("package.json", "utf8"))
  const entrypoints = []
  for (const [subpath, target] of Object.entries(exports)) {
    const types = typeof target === "object" ? target.types : undefined
    if (!subpath.includes("*") || typeof types !== "string") continue
    // "./dist/providers/*.d.ts": the files of ./dist/providers ending in ".d.ts".
    const [prefix, suffix] = types.split("*")
    const directory = dirname(`${prefix}x`)
    const start = prefix.slice(directory.length + 1)
    for (const name of readdirSync(directory)) {
      if (!name.startsWith(start) || !name.endsWith(suffix)) continue
      entrypoints.push(subpath.replace("*", name.slice(start.length, -suffix.length)))
    }
  }
  return entrypoints
}

/** The package's bins that git does not hold (none outside a git checkout). */
function uncommittedBins() {
  const { bin = {}, name } = JSON.parse(readFileSync("package.json", "utf8"))
  const bins = typeof bin === "string" ? { [name.split("/").pop()]: bin } : bin
  const inGit = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { encoding: "utf8" })
  if (inGit.status !== 0) return []
  return Object.entries(bins).filter(
    ([, file]) =>
      spawnSync("git", ["ls-files", "--error-unmatch", file], { stdio: "ignore" }).status !== 0,
  )
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" })
  if (result.status === 0) return true
  console.error(`\n✗ ${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`)
  process.exitCode = 1
  return false
}

/** attw, quiet when clean; on problems, again with its table of every entry point. */
function attw(args, description) {
  if (spawnSync("attw", ["--quiet", ...args], { stdio: "inherit" }).status === 0) {
    console.log(`✓ attw --profile esm-only: ${description}`)
    return true
  }
  return run("attw", ["--format", "table-flipped", ...args])
}

function checkTypes(tarball) {
  const common = ["--profile", "esm-only", tarball]
  const wildcards = wildcardEntrypoints()
  const all = attw(
    [
      ...common,
      ...(wildcards.length ? ["--include-entrypoints", ...wildcards] : []),
      ...(svelteEntrypoints.length ? ["--exclude-entrypoints", ...svelteEntrypoints] : []),
    ],
    [
      "every entry point",
      svelteEntrypoints.length ? `but ${svelteEntrypoints.join(", ")}` : "",
      wildcards.length ? `(${wildcards.length} of them from wildcards)` : "",
    ]
      .filter(Boolean)
      .join(" "),
  )
  if (!all || svelteEntrypoints.length === 0) return
  attw(
    [
      ...common,
      "--entrypoints",
      ...svelteEntrypoints,
      "--ignore-rules",
      "internal-resolution-error",
    ],
    `${svelteEntrypoints.join(", ")} (Svelte components; internal-resolution-error ignored)`,
  )
}

const temp = mkdtempSync(join(tmpdir(), "latch-check-package-"))
try {
  for (const [command, file] of uncommittedBins()) {
    console.error(
      `✗ bin "${command}" is ${file}, which git does not hold: pnpm install, before the build, ` +
        `would warn "Failed to create bin" for every package depending on this one`,
    )
    process.exitCode = 1
  }
  if (run("publint", ["--strict"])) {
    const packed = spawnSync("pnpm", ["pack", "--pack-destination", temp], { encoding: "utf8" })
    const tarball = readdirSync(temp).find((name) => name.endsWith(".tgz"))
    if (packed.status === 0 && tarball) checkTypes(join(temp, tarball))
    else {
      console.error(`✗ pnpm pack failed\n${packed.stdout}${packed.stderr}`)
      process.exitCode = 1
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true })
}
