/**
 * The adapter inside a real Worker: test/d1-worker/worker.ts bundled by esbuild as Wrangler
 * bundles for Workers (conditions `workerd`, `worker`, `browser`; Node.js built-ins not bundled),
 * run in workerd at its newest compatibility date without `nodejs_compat`, on a D1 binding with
 * the tables Drizzle Kit generates.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build } from "esbuild"
import { Miniflare } from "miniflare"
import { afterAll, beforeAll, expect, it } from "vitest"
import * as schema from "../src/sqlite/schema.js"
import { sqliteMigration } from "./migrations.js"

/** The newest compatibility date the installed workerd knows (its version is 1.YYYYMMDD.n). */
function compatibilityDate() {
  const require = createRequire(createRequire(import.meta.url).resolve("miniflare"))
  const day = (require("workerd/package.json") as { version: string }).version.split(".")[1]!
  return `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`
}

const dir = mkdtempSync(join(tmpdir(), "latch-d1-worker-"))
let mf: Miniflare

beforeAll(async () => {
  const outfile = join(dir, "worker.mjs")
  await build({
    entryPoints: [new URL("./d1-worker/worker.ts", import.meta.url).pathname],
    outfile,
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["browser", "module", "main"],
    external: ["node:*"],
    logLevel: "error",
  })
  mf = new Miniflare({
    modules: true,
    scriptPath: outfile,
    modulesRoot: dir,
    compatibilityDate: compatibilityDate(),
    d1Databases: ["DB"],
  })
  const d1 = await mf.getD1Database("DB")
  for (const statement of await sqliteMigration(schema)) await d1.prepare(statement).run()
})

afterAll(async () => {
  await mf?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

it("runs in a Worker on D1: single use, counting and a user's deletion hold under concurrency", async () => {
  const response = await mf.dispatchFetch("http://localhost/")
  const text = await response.text()
  expect(response.status, text.slice(0, 400)).toBe(200)
  expect(JSON.parse(text)).toEqual({
    sessionUser: true,
    sessionId: "string",
    counts: Array.from({ length: 20 }, (_, i) => i + 1),
    tokenUses: 1,
    codeUses: 1,
    deleted: true,
    afterDelete: null,
    codesAfterDelete: false,
    watchSessions: "undefined",
  })
})
