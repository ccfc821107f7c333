// The docs site's test (`pnpm --filter latch-docs test`, a step of the package suites): its unit
// tests, then the site built (reference, pages, search index), then its three checks: every code
// block compiles (and the runnable ones run), every internal link and anchor resolves, and the
// search index finds known terms. Each step's wall time is printed. Needs the packages built.
import { spawnSync } from "node:child_process"
import { docsDir } from "../src/lib/content/paths.js"

const steps = [
  ["unit tests", "pnpm", ["exec", "vitest", "run"]],
  ["build", "pnpm", ["run", "build"]],
  ["code blocks", process.execPath, ["scripts/check-code.mjs"]],
  ["links", process.execPath, ["scripts/check-links.mjs"]],
  ["search", process.execPath, ["scripts/check-search.mjs"]],
]
const started = Date.now()
const times = []
let failed = 0
for (const [label, command, args] of steps) {
  const start = Date.now()
  const result = spawnSync(command, /** @type {string[]} */ (args), {
    cwd: docsDir,
    stdio: "inherit",
  })
  times.push(`  ${label.padEnd(12)} ${((Date.now() - start) / 1000).toFixed(1)} s`)
  if (result.status !== 0) {
    failed++
    console.error(`✗ docs: ${label} failed`)
    // Without a build there is nothing to check.
    if (label === "build") break
  }
}
console.log(
  `\ndocs site, wall time of each step:\n${times.join("\n")}\n  total        ${((Date.now() - started) / 1000).toFixed(1)} s`,
)
process.exit(failed ? 1 : 0)
