// `pnpm --filter latch-e2e test` (and `npm test`'s last step): picks the suite's ports, then runs
// Playwright with the arguments given (`node run.mjs tests/oidc.spec.ts --project=jwt-sessions`).
//
// The suite starts nine servers of its own on consecutive ports from E2E_PORT_BASE (see
// playwright.config.ts), and never uses one it did not start: a foreign server answering on one
// of those ports would have the tests pass or fail against someone else's app. So the ports are
// checked here first, on 127.0.0.1 and on ::1 (the browser opens the demo at `localhost`, which
// can resolve to either):
//
// - E2E_PORT_BASE set: its nine ports must be free, or the run stops and says which is taken;
// - unset: 4173 and up when those are free, otherwise a free block elsewhere (another checkout's
//   suite, a `vite preview` or anything else may hold 4173 on a shared machine).
//
// A server that takes a port between this check and Playwright's start makes Playwright refuse
// to start (`reuseExistingServer` is off): never a run against it.
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chooseBase, DEFAULT_BASE, PORTS } from "./ports.mjs"

const args = process.argv.slice(2)
/**
 * Without a --project of its own, the suite runs as two Playwright processes side by side, each
 * on its own ports with its own servers (playwright.config.ts, E2E_GROUP): the database demo's
 * project, and the JWT demo's with the two instances' and the demo on SQLite's. Most of a test's time is waiting on its
 * servers, so the two share the machine's cores well; one process would run them in turn.
 */
const split = !args.some((arg) => arg.startsWith("--project")) && !args.includes("--list")
/** The projects of each group ("sqlite" is also part of "jwt", whose process runs it). */
const PROJECTS = {
  sqlite: ["--project=sqlite"],
  database: ["--project=database-sessions"],
  jwt: ["--project=jwt-sessions", "--project=two-instances", "--project=sqlite"],
}
/**
 * With --project, the first group above that holds all those projects: only its servers start
 * (`--project=sqlite` needs neither the other demos nor the two instances' PostgreSQL).
 */
const asked = args.filter((arg) => arg.startsWith("--project=")).map((arg) => arg.slice(10))
const onlyGroup = Object.keys(PROJECTS).find(
  (group) =>
    asked.length > 0 && asked.every((project) => PROJECTS[group].includes(`--project=${project}`)),
)
const groups = split ? ["database", "jwt"] : [onlyGroup]

const bases = []
try {
  bases.push(await chooseBase(process.env.E2E_PORT_BASE))
  if (split) {
    const next = String(bases[0] + PORTS)
    bases.push(await chooseBase(process.env.E2E_PORT_BASE ? next : undefined, bases[0] + PORTS))
  }
} catch (error) {
  console.error(`✗ e2e: ${error.message}`)
  process.exit(1)
}
if (bases[0] !== DEFAULT_BASE || split) {
  console.log(`• e2e: ports ${bases.map((base) => `${base}–${base + PORTS - 1}`).join(", ")}`)
}

// The servers' logs of this run only (playwright.config.ts); their last lines when it fails.
const logs = join(import.meta.dirname, "server-logs")
rmSync(logs, { recursive: true, force: true })
mkdirSync(logs)

// Both groups run the same build of the demo: made once, before either starts.
const env = { ...process.env }
if (split && env.LATCH_DEMO_BUILT !== "1") {
  const built = spawnSync("pnpm", ["--filter", "latch-demo", "build"], {
    cwd: import.meta.dirname,
    stdio: ["ignore", "ignore", "inherit"],
  })
  if (built.status !== 0) process.exit(built.status ?? 1)
  env.LATCH_DEMO_BUILT = "1"
}

const playwright = join(import.meta.dirname, "node_modules/.bin/playwright")
const children = groups.map((group, index) =>
  spawn(
    playwright,
    ["test", ...(split ? [...PROJECTS[group], "--pass-with-no-tests"] : []), ...args],
    {
      stdio: "inherit",
      cwd: import.meta.dirname,
      env: {
        ...env,
        E2E_PORT_BASE: String(bases[index]),
        ...(group && { E2E_GROUP: group }),
      },
    },
  ),
)
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => children.forEach((child) => child.kill(signal)))
}
const codes = await Promise.all(
  children.map(
    (child) =>
      new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal ? 1 : code))),
  ),
)
const failed = codes.some((code) => code !== 0)
if (failed) printLogTails()
process.exit(failed ? 1 : 0)

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
