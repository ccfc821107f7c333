/**
 * `@latch/adapter-test` on node:sqlite through Drizzle's `sqlite-proxy` (db.ts, the README's
 * setup), on a SQLite file with the tables Drizzle Kit generates. Runs on Node.js 22 (run.mjs):
 * Node 20 has no node:sqlite.
 */
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runAdapterConformance } from "@latch/adapter-test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { drizzle } from "drizzle-orm/sqlite-proxy"
import { DrizzleAdapter } from "../../src/index.js"
import * as schema from "../../src/sqlite/schema.js"
import { itWhere } from "../it-where.js"
import { sqliteMigration } from "../migrations.js"
import { nodeSqliteDrizzle } from "./db.js"
import { openSync } from "./node-sqlite.js"

async function open() {
  const dir = mkdtempSync(join(tmpdir(), "latch-drizzle-node-sqlite-"))
  const sqlite = await openSync(join(dir, "app.db"))
  sqlite.exec("pragma journal_mode = wal")
  for (const statement of await sqliteMigration(schema)) sqlite.exec(statement)
  const close = () => {
    sqlite.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { db: nodeSqliteDrizzle(sqlite), close }
}

runAdapterConformance(
  "DrizzleAdapter on SQLite (node:sqlite through sqlite-proxy)",
  async () => {
    const { db, close } = await open()
    return { adapter: DrizzleAdapter(db), teardown: close }
  },
  // No session watch behind sqlite-proxy (below): its cases are not declared.
  { describe, it: itWhere(it, false), expect, beforeAll, afterAll },
)

describe("DrizzleAdapter on node:sqlite through sqlite-proxy", () => {
  let database: Awaited<ReturnType<typeof open>>
  let adapter: ReturnType<typeof DrizzleAdapter>
  beforeAll(async () => {
    database = await open()
    adapter = DrizzleAdapter(database.db)
  })
  afterAll(() => database.close())

  it("gives 50 concurrent incrementCounter calls 50 different values", async () => {
    const key = `counter-${randomUUID()}`
    const expires = new Date(Date.now() + 3_600_000)
    const values = await Promise.all(
      Array.from({ length: 50 }, () => adapter.incrementCounter!(key, expires)),
    )
    expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  })

  it("deletes a user with all they own in one batch", async () => {
    const id = `user-${randomUUID()}`
    await adapter.createUser!({ id, email: `${id}@example.com`, emailVerified: null })
    await adapter.setPasswordHash!(id, "hash")
    await adapter.createSession!({
      sessionToken: `t-${id}`,
      userId: id,
      expires: new Date(Date.now() + 60_000),
    })
    expect(await adapter.deleteUser!(id)).toMatchObject({ id })
    expect(await adapter.getPasswordHash!(id)).toBeNull()
    expect(await adapter.getSessionAndUser!(`t-${id}`)).toBeNull()
  })

  it("offers no session watch: a proxy's database may be written by other processes", () => {
    expect(adapter.watchSessions).toBeUndefined()
  })

  it("refuses sqlite-proxy without its batch callback, naming it", () => {
    const db = drizzle(async () => ({ rows: [] }))
    expect(() => DrizzleAdapter(db)).toThrow(/sqlite-proxy needs its batch callback/)
  })
})
