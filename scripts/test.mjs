// `npm test`: installs what is missing (pnpm, dependencies, the system packages below), builds,
// then runs every check and test suite: lint, types, the published packages' manifests, types
// (publint, attw) and API reports, unit and integration tests of each package (the adapters'
// against PGlite, throwaway PostgreSQL and MariaDB servers, SQLite files, D1 in workerd and Redis;
// the docs site built, every code block of the docs compiled, its links and search checked),
// the upgrade from the last release (its packages built from git make the data this checkout
// must keep working),
// four apps made with `sv create` and `sv add @latch`, built, served and signed in to, the packed
// packages installed with npm in fresh SvelteKit apps outside the workspace (SvelteKit 2;
// SvelteKit 2.13.0 with Svelte 5.0.0, then Svelte 4.0.0, the lowest the peer ranges allow;
// SvelteKit 3 on Node.js 22, with @latch/sveltekit's tests run against it too), one program of
// sign-in flows on every runtime (Node.js 20, 22 and 24, Bun, Deno, workerd), a SvelteKit app
// deployed with four adapters, each run in its runtime, and the end-to-end tests in a real
// Chromium.
//
// It prints each step's wall time and the total, and fails if the run changed a file git tracks
// (everything a run writes goes to git-ignored folders or the system's temporary directory).
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readdirSync } from "node:fs"
import { has, install, root, run } from "./lib.mjs"

/**
 * Debian packages the tests need, and why. Each is looked for first; only a missing one is
 * installed, so a machine that has them runs the tests without root.
 */
const SYSTEM_PACKAGES = [
  {
    name: "chromium",
    why: "the browser of the end-to-end tests (Playwright drives Debian's build)",
    present: () => Boolean(process.env.CHROMIUM_PATH) || has("chromium"),
  },
  {
    name: "postgresql",
    why: "a real PostgreSQL server for the adapter's tests and the two-instance tests",
    present: () => {
      const postgres = "/usr/lib/postgresql"
      return (
        Boolean(process.env.PG_BIN) ||
        (existsSync(postgres) &&
          readdirSync(postgres).some((v) => existsSync(`${postgres}/${v}/bin/initdb`)))
      )
    },
  },
  {
    name: "mariadb-server",
    why: "a real MariaDB server for @latch/drizzle-adapter's MySQL tests (each run starts its own, in a temporary directory, on a free port)",
    present: () => has("mariadbd") || existsSync("/usr/sbin/mariadbd"),
  },
  {
    name: "redis-server",
    why: "a real Redis server for @latch/redis-store's tests (each run starts its own on a free port)",
    present: () => has("redis-server"),
  },
]

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !p.present())
  if (missing.length === 0) return
  const names = missing.map((p) => p.name)
  console.log(`• installing Debian's ${names.join(", ")} with apt-get, for the tests:`)
  for (const p of missing) console.log(`    ${p.name}: ${p.why}`)
  const isRoot = process.getuid?.() === 0
  if (!isRoot && !canSudo()) {
    console.error(
      `\n✗ installing them needs root. Run, then npm test again:\n` +
        `    sudo apt-get install --no-install-recommends ${names.join(" ")}\n` +
        `  (or set CHROMIUM_PATH / PG_BIN to a Chromium / PostgreSQL bin directory you have)`,
    )
    process.exit(1)
  }
  const apt = (...args) =>
    run(
      isRoot ? "apt-get" : "sudo",
      isRoot ? args : ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args],
      {
        env: { DEBIAN_FRONTEND: "noninteractive" },
      },
    )
  apt("update")
  apt("install", "-y", "--no-install-recommends", ...names)
}

/** Whether sudo works without asking for a password (the run takes no input). */
const canSudo = () =>
  has("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0

/**
 * The state of the checkout as git sees it: changed and new (not ignored) files, and the content
 * of the changes, so that a file already changed before the run and changed again is seen too.
 * Empty outside a git checkout.
 */
function checkoutState() {
  const git = (...args) =>
    spawnSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 })
  const status = git("status", "--porcelain", "--untracked-files=all")
  if (status.status !== 0) return ""
  const diff = git("diff", "HEAD", "--binary").stdout ?? ""
  return `${status.stdout}\n${createHash("sha256").update(diff).digest("hex")}`
}

const started = Date.now()
const times = []
const seconds = (ms) => Math.round(ms / 1000)
const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${seconds(ms % 60_000)} s`

/** Runs one step of the test command, and keeps its wall time. */
function step(label, command, args) {
  const start = Date.now()
  run(command, args)
  const elapsed = Date.now() - start
  times.push([label, elapsed])
  console.log(`\n⏱ ${label}: ${seconds(elapsed)} s (${minutes(Date.now() - started)} so far)\n`)
}

/**
 * Runs commands at the same time (each one process on its own core: ESLint and tsc), their
 * output kept and printed whole, one after the other, once each ends; stops if one failed.
 */
async function together(label, commands) {
  const start = Date.now()
  const results = await Promise.all(
    commands.map(
      ([command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { cwd: root, env: process.env })
          let output = ""
          child.stdout.on("data", (chunk) => (output += chunk))
          child.stderr.on("data", (chunk) => (output += chunk))
          child.on("close", (code) => {
            process.stdout.write(output)
            resolve({ command: `${command} ${args.join(" ")}`, code })
          })
        }),
    ),
  )
  const failed = results.find((result) => result.code !== 0)
  if (failed) {
    console.error(`\n✗ ${failed.command} failed (exit ${failed.code})`)
    process.exit(failed.code ?? 1)
  }
  const elapsed = Date.now() - start
  times.push([label, elapsed])
  console.log(`\n⏱ ${label}: ${seconds(elapsed)} s (${minutes(Date.now() - started)} so far)\n`)
}

const before = checkoutState()
install()
ensureSystemPackages()
step("build", "pnpm", ["run", "build"])
// The demo, once: the reliability checks and the end-to-end tests run this build.
step("build the demo", "pnpm", ["--filter", "latch-demo", "run", "build"])
process.env.LATCH_DEMO_BUILT = "1"
await together("lint and types", [
  ["pnpm", ["run", "lint"]],
  ["pnpm", ["-r", "--if-present", "run", "typecheck"]],
])
step("package checks", "pnpm", ["-r", "--if-present", "run", "check:package"])
// The published packages' API reports (types per entry point, cookies, error codes, events,
// schemas) against the committed ones, and the changesets' bumps against what changed
// (docs/stability.md). All packages in one process: each package's declarations are parsed once.
step("API reports", "pnpm", ["run", "api:check"])
step("package suites", "pnpm", [
  "-r",
  "--if-present",
  "--workspace-concurrency=1",
  "--filter=!latch-e2e",
  "--filter=!latch-runtimes",
  "--filter=!latch-deploy",
  "--filter=!latch-upgrade",
  "run",
  "test",
])
// The last release's packages, built from git, make a database and cookies through real flows;
// this checkout's migrate runs on them twice, and its Auth keeps every user signed in
// (tools/upgrade/README.md).
step("upgrade from the last release", "pnpm", ["--filter", "latch-upgrade", "run", "test"])
// Four apps made with `sv create` and `sv add @latch`, built, served and signed in to.
step("sv add @latch", "pnpm", ["--filter", "@latch/sv", "run", "test:apps"])
// One program of sign-in flows through Auth() on Node.js 20/22/24, Bun, Deno and workerd.
step("runtimes", "pnpm", ["--filter", "latch-runtimes", "run", "test"])
// A SvelteKit app built with adapter-node, -cloudflare, -vercel (edge) and -netlify (edge), each
// run in its runtime and signed in to over HTTP.
step("deployments", "pnpm", ["--filter", "latch-deploy", "run", "test"])
step("install check: SvelteKit 2", process.execPath, ["scripts/pack-check.mjs"])
step("install check: the peer ranges' floor", process.execPath, [
  "scripts/pack-check.mjs",
  "--kit",
  "floor",
])
step("SvelteKit 3", process.execPath, ["scripts/kit3-check.mjs"])
step("end-to-end (Chromium)", "pnpm", ["--filter", "latch-e2e", "run", "test"])

if (checkoutState() !== before) {
  const now = spawnSync("git", ["status", "--short"], { cwd: root, encoding: "utf8" }).stdout
  console.error(
    `\n✗ the run changed the checkout (a test must write only to git-ignored folders or the ` +
      `system's temporary directory); git status now:\n${now}`,
  )
  process.exit(1)
}
console.log("\nwall time of each step:")
for (const [label, elapsed] of times) console.log(`  ${label.padEnd(40)} ${seconds(elapsed)} s`)
console.log(`\n✓ all checks and tests passed in ${minutes(Date.now() - started)}`)
