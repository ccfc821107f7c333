// The `runtimes` check: one program of sign-in flows (src/) through @latch/core's `Auth()` on
// every runtime it supports — Node.js 20, 22 and 24, Bun, Deno with only --allow-net and with no
// permission at all, workerd without and with nodejs_compat — and a table of runtime × flow.
// Fails on any ✗. `--only deno,bun` runs the runtimes whose names start with one of those;
// `--stub-optional` (diagnosis, never the check) bundles nodemailer as an empty module.
// @latch/core must be built (`pnpm run build`).
import { existsSync } from "node:fs"
import { availableParallelism } from "node:os"
import { binary, versionOf } from "./lib/binaries.mjs"
import { bundle } from "./lib/bundle.mjs"
import { startOAuthServer } from "./lib/oauth-server.mjs"
import { currentCompatibilityDate, runProcess, runWorker } from "./lib/runners.mjs"
import { printTable } from "./lib/table.mjs"

const core = new URL("../packages/core/dist/index.js", import.meta.url)
if (!existsSync(core)) {
  console.error("✗ @latch/core is not built: run `pnpm run build` first")
  process.exit(1)
}
const onlyAt = process.argv.indexOf("--only")
const only = onlyAt === -1 ? null : process.argv[onlyAt + 1].split(",")
const started = Date.now()

const files = await bundle(["node", "bun", "deno", "workerd"], {
  stub: process.argv.includes("--stub-optional"),
})
const server = await startOAuthServer()
const today = currentCompatibilityDate()

/** Each runtime: its column name, its binary (for the processes), how it runs the program. */
function runtimes() {
  const options = (name, offline = false) =>
    JSON.stringify({ server: server.origin, client: name, offline })
  const worker = (name, compatibilityDate, compatibilityFlags) => ({
    name,
    version: `workerd ${compatibilityDate}${compatibilityFlags.length ? " nodejs_compat" : ""}`,
    run: () =>
      runWorker(files.workerd, {
        compatibilityDate,
        compatibilityFlags,
        bindings: { SERVER: server.origin, CLIENT: name },
      }),
  })
  const deno = (name, permissions, offline) => ({
    name,
    binary: "deno",
    flags: permissions.join(" ") || "(no permission)",
    run: (deno) =>
      runProcess(deno, ["run", "--no-prompt", ...permissions, files.deno, options(name, offline)], {
        env: { DENO_NO_UPDATE_CHECK: "1" },
      }),
  })
  return [
    ...[20, 22, 24].map((major) => ({
      name: `node${major}`,
      binary: `node${major}`,
      run: (node) => runProcess(node, [files.node, options(`node${major}`)]),
    })),
    { name: "bun", binary: "bun", run: (bun) => runProcess(bun, [files.bun, options("bun")]) },
    deno("deno-net", ["--allow-net=127.0.0.1"], false),
    deno("deno-none", [], true),
    worker("workerd", today, []),
    worker("workerd-compat", today, ["nodejs_compat"]),
    // Before 2024-09-23, nodejs_compat is its first version (no process.getBuiltinModule).
    worker("workerd-compat-2024-09-22", "2024-09-22", ["nodejs_compat"]),
  ].filter(({ name }) => !only || only.some((prefix) => name.startsWith(prefix)))
}

/** Runs `tasks` two at a time (the check shares two cores). */
async function pool(tasks, width = Math.min(2, availableParallelism())) {
  const results = new Array(tasks.length)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const index = next++
        results[index] = await tasks[index]()
      }
    }),
  )
  return results
}

const selected = runtimes()
// Binaries first, one after another (Node.js 22 and 24 install into the cache on first use).
for (const runtime of selected) {
  if (!runtime.binary) continue
  runtime.path = await binary(runtime.binary)
  const version = versionOf(runtime.path).replace(/ \(.*/, "")
  runtime.version = `${runtime.binary.replace(/\d+$/, "")} ${version} ${runtime.flags ?? ""}`
}
const rows = await pool(
  selected.map((runtime) => async () => {
    const began = Date.now()
    try {
      const results = await runtime.run(runtime.path)
      return { ...runtime, results, ms: Date.now() - began }
    } catch (error) {
      return { ...runtime, failure: String(error.message ?? error), ms: Date.now() - began }
    }
  }),
)
await server.close()

const failed = printTable(rows)
if (server.refusals.length)
  console.log(`\nthe authorization server refused: ${server.refusals.join("; ")}`)
console.log(`\nruntimes check: ${Math.round((Date.now() - started) / 1000)} s`)
process.exit(failed ? 1 : 0)
