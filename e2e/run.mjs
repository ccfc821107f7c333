// `pnpm --filter latch-e2e test` (and `npm test`'s last step): picks the suite's ports, then runs
// Playwright with the arguments given (`node run.mjs tests/oidc.spec.ts --project=jwt-sessions`).
//
// The suite starts eight servers of its own on consecutive ports from E2E_PORT_BASE (see
// playwright.config.ts), and never uses one it did not start: a foreign server answering on one
// of those ports would have the tests pass or fail against someone else's app. So the ports are
// checked here first, on 127.0.0.1 and on ::1 (the browser opens the demo at `localhost`, which
// can resolve to either):
//
// - E2E_PORT_BASE set: its eight ports must be free, or the run stops and says which is taken;
// - unset: 4173 and up when those are free, otherwise a free block elsewhere (another checkout's
//   suite, a `vite preview` or anything else may hold 4173 on a shared machine).
//
// A server that takes a port between this check and Playwright's start makes Playwright refuse
// to start (`reuseExistingServer` is off): never a run against it.
import { spawn } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chooseBase, DEFAULT_BASE, PORTS } from "./ports.mjs"

const base = await chooseBase(process.env.E2E_PORT_BASE).catch((error) => {
  console.error(`✗ e2e: ${error.message}`)
  process.exit(1)
})
if (base !== DEFAULT_BASE) console.log(`• e2e: ports ${base}–${base + PORTS - 1}`)

// The servers' logs of this run only (playwright.config.ts); their last lines when it fails.
const logs = join(import.meta.dirname, "server-logs")
rmSync(logs, { recursive: true, force: true })
mkdirSync(logs)

const playwright = join(import.meta.dirname, "node_modules/.bin/playwright")
const child = spawn(playwright, ["test", ...process.argv.slice(2)], {
  stdio: "inherit",
  cwd: import.meta.dirname,
  env: { ...process.env, E2E_PORT_BASE: String(base) },
})
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => {
  const failed = code !== 0 || signal !== null
  if (failed) printLogTails()
  process.exit(failed ? (code ?? 1) : 0)
})

/** The last lines of each server's log, after a failed run. */
function printLogTails() {
  for (const file of readdirSync(logs)) {
    const lines = readFileSync(join(logs, file), "utf8").trimEnd().split("\n").filter(Boolean)
    if (lines.length === 0) continue
    console.log(
      `\n── e2e/server-logs/${file} (last ${Math.min(lines.length, 30)} of ${lines.length} lines)`,
    )
    for (const line of lines.slice(-30)) console.log(`   ${line}`)
  }
}
