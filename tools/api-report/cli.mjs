#!/usr/bin/env node
// The API reports of the published packages (docs/stability.md).
//
//   node tools/api-report/cli.mjs check [--package <dir>]   regenerate, compare with the
//       committed reports (packages/<pkg>/api/), then the bump check; fails on a difference
//   node tools/api-report/cli.mjs update [--package <dir>]  regenerate and write them
//   --base <ref>   the bump check compares with this commit's reports instead of the last
//                  release's (or the merge base with main)
//
// Root scripts: `pnpm run api:check`, `pnpm run api:update`. The packages must be built.
import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { checkBump, changesetBumps } from "./lib/bump.mjs"
import { differences, writeReports } from "./lib/compare.mjs"
import { publishedPackages } from "./lib/packages.mjs"
import { packageReports } from "./lib/reports.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    package: { type: "string", multiple: true, default: [] },
    base: { type: "string" },
  },
})
const command = positionals[0]
if (command !== "check" && command !== "update") {
  console.error(
    "usage: node tools/api-report/cli.mjs check|update [--package <dir>] [--base <ref>]",
  )
  process.exit(2)
}

const wanted = values.package.map((dir) => resolve(dir))
const packages = publishedPackages(root).filter(
  (pkg) => wanted.length === 0 || wanted.includes(pkg.dir),
)
if (wanted.length > packages.length) {
  console.error(`✗ --package names no published package: ${values.package.join(", ")}`)
  process.exit(2)
}

const started = Date.now()
let failed = false
for (const pkg of packages) {
  if (!existsSync(join(pkg.dir, "dist"))) {
    console.error(`✗ ${pkg.name} is not built: run \`pnpm run build\` first`)
    process.exit(1)
  }
  const reports = await packageReports(pkg)
  if (command === "update") {
    writeReports(pkg, reports)
    console.log(`✓ ${pkg.name}: ${reports.size} reports written`)
    continue
  }
  const found = differences(root, pkg, reports)
  if (found.length === 0) {
    console.log(`✓ ${pkg.name}: ${reports.size} reports match`)
    continue
  }
  failed = true
  console.error(`\n✗ ${pkg.name}: the API reports differ from what the build exports`)
  for (const { file, problem, diff } of found) {
    console.error(`\n  ${file} ${problem}`)
    if (diff) console.error(diff.replace(/^/gm, "    "))
  }
}
const seconds = ((Date.now() - started) / 1000).toFixed(1)

if (command === "check" && failed) {
  console.error(
    `\nIf the change is meant, update the reports and commit them with the change:\n` +
      `    pnpm run api:update\n` +
      `A removal or change is breaking: it needs a changeset with the bump docs/stability.md ` +
      `asks for.`,
  )
  process.exit(1)
}
if (command === "check") {
  const changesets = changesetBumps(join(root, ".changeset"))
  for (const pkg of packages) {
    const { ok, message } = checkBump(root, pkg, changesets, values.base)
    if (ok) console.log(`✓ ${message}`)
    else {
      failed = true
      console.error(`\n✗ ${message}`)
    }
  }
}
console.log(`\n${command === "check" ? "checked" : "generated"} in ${seconds} s`)
if (failed) process.exit(1)
