/**
 * `@latch/adapter-test` on bun:sqlite (`drizzle-orm/bun-sqlite`), a SQLite file in WAL mode with
 * the tables Drizzle Kit generates. Bun's own runner gives the suite its `describe`, `it`,
 * `expect` and hooks; `bun test` runs this file (run.mjs), vitest leaves test/bun/ alone.
 */
import { Database } from "bun:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { runAdapterConformance } from "@latch/adapter-test"
import { drizzle } from "drizzle-orm/bun-sqlite"
import { DrizzleAdapter } from "../../src/index.js"
import * as schema from "../../src/sqlite/schema.js"
import { sqliteMigration } from "../migrations.js"

async function open() {
  const dir = mkdtempSync(join(tmpdir(), "latch-drizzle-bun-"))
  const client = new Database(join(dir, "app.db"))
  client.run("pragma journal_mode = wal")
  // bun:sqlite, unlike better-sqlite3 and libsql, leaves SQLite's default of not enforcing
  // foreign keys (README, "Errors").
  client.run("pragma foreign_keys = on")
  for (const statement of await sqliteMigration(schema)) client.run(statement)
  const close = () => {
    client.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { db: drizzle(client), close }
}

/** Bun's `it`, calling each case with no argument: Bun takes a function that declares one as
 * waiting for a `done` callback, and the suite's cases declare the runner's context. */
const itOfBun = (name: string, fn: () => Promise<void> | void, timeout?: number) =>
  it(name, () => fn(), timeout)

runAdapterConformance(
  "DrizzleAdapter on SQLite (bun:sqlite, file)",
  async () => {
    const { db, close } = await open()
    return { adapter: DrizzleAdapter(db), teardown: close }
  },
  { describe, it: itOfBun, expect, beforeAll, afterAll },
)

describe("DrizzleAdapter on bun:sqlite, under concurrent callers", () => {
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

  it("refuses recovery codes for a user that does not exist, keeping none", async () => {
    const userId = `user-${randomUUID()}`
    await expect(adapter.setRecoveryCodes!(userId, ["a".repeat(64)])).rejects.toThrow(
      /setRecoveryCodes failed/,
    )
    expect(await adapter.useRecoveryCode!(userId, "a".repeat(64))).toBe(false)
  })
})
