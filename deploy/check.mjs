// Builds the app with each adapter, runs every output in its own runtime on 127.0.0.1, and signs
// in over HTTP: a table of deployment × step, and a non-zero exit when any cell is not ✓.
//   node check.mjs               build, then check
//   node check.mjs --build-only  build only
//   node check.mjs --no-build    check the outputs already built
import { randomBytes } from "node:crypto"
import { availableParallelism } from "node:os"
import { hashPassword } from "@latch/sveltekit/providers/password"
import { inParallel, offline, tail } from "./check/run.mjs"
import { freePort, startServer } from "./check/servers.mjs"
import { runSteps, SEED, steps, WEAK_SECRET, weakSecretRefused } from "./check/steps.mjs"
import { builds, servers } from "./check/targets.mjs"

const args = new Set(process.argv.slice(2))
const started = performance.now()
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const buildErrors = {}
if (!args.has("--no-build")) {
  const since = performance.now()
  const names = Object.keys(builds)
  // Vite builds take a core each: as many at once as there are cores.
  const results = await inParallel(
    names.map((name) => () => builds[name]()),
    Math.max(1, availableParallelism()),
  )
  results.forEach((result, index) => {
    if (!result.ok) buildErrors[names[index]] = result.error.message
  })
  const network = offline ? "without network (unshare -n)" : "with network (no unshare here)"
  console.log(`built ${names.join(", ")} in ${seconds(since)}, ${network}`)
  for (const [name, message] of Object.entries(buildErrors))
    console.log(`build ${name} failed:\n${message}`)
  if (args.has("--build-only")) process.exit(Object.keys(buildErrors).length ? 1 : 0)
}

// Every deployment gets the same secret, its own AUTH_URL, and a password hash made here by Node
// for the seeded account: signing in with it proves a Node-made hash verifies in that runtime.
const seedPassword = `seed-${randomBytes(9).toString("base64url")}`
const baseEnv = {
  AUTH_SECRET: randomBytes(33).toString("base64"),
  SEED_PASSWORD_HASH: await hashPassword(seedPassword),
}

const since = performance.now()
const rows = await Promise.all(
  servers.map(async (target) => {
    if (buildErrors[target.build]) {
      return { target, failure: `build failed:\n${buildErrors[target.build]}` }
    }
    let log = ""
    let results
    try {
      results = await withServer(target, baseEnv, async (url, server) => {
        const results = await runSteps({ url, seedPassword })
        log += server.log()
        return results
      })
      results["weak secret"] = await withServer(
        target,
        { ...baseEnv, AUTH_SECRET: WEAK_SECRET },
        async (url, server) => {
          const result = await weakSecretRefused({ url }).then(
            () => ({ ok: true }),
            (error) => ({ ok: false, error: error.message }),
          )
          if (!result.ok) log += `(the server with a weak secret)\n${server.log()}`
          return result
        },
      )
    } catch (error) {
      return { target, failure: `did not start: ${tail(error.message, 30)}` }
    }
    return { target, results, log }
  }),
)

/** Starts the target's server on a free port with `env`, runs `use(url, server)`, stops it. */
async function withServer(target, env, use) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = await startServer(target.command(port, { ...env, AUTH_URL: url }), port)
  try {
    return await use(url, server)
  } finally {
    await server.stop()
  }
}

const width = Math.max(...servers.map((s) => s.name.length))
const names = [...steps.map((step) => step.name), "weak secret"]
console.log(`\n${"".padEnd(width)}  ${names.join("  ")}`)
let failed = 0
for (const { target, results } of rows) {
  const cells = names.map((name) => {
    const result = results?.[name]
    const mark = !result ? "✗" : result.ok ? "✓" : result.skipped ? "·" : "✗"
    if (mark !== "✓") failed++
    return mark.padStart(Math.ceil(name.length / 2) + 1).padEnd(name.length)
  })
  console.log(`${target.name.padEnd(width)}  ${cells.join("  ")}`)
}
console.log(`(✓ held, ✗ failed, · not run: a step it needs failed; seeded account ${SEED.email})`)

for (const { target, results, failure, log } of rows) {
  const problems = failure
    ? [failure]
    : Object.entries(results)
        .filter(([, result]) => !result.ok && !result.skipped)
        .map(([name, result]) => `${name}: ${result.error}`)
  if (problems.length === 0) continue
  console.log(`\n── ${target.name}`)
  for (const problem of problems) console.log(`  ✗ ${problem}`)
  if (log) console.log(`  server log (last lines):\n${tail(log, 15).replace(/^/gm, "    | ")}`)
}

const total = rows.length * names.length
console.log(
  `\nran in ${seconds(since)} (${seconds(started)} with builds)\n${total - failed} passed, ${failed} failed`,
)
process.exit(failed ? 1 : 0)
