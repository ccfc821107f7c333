/**
 * The README's example: an app schema spreading Latch's SQLite tables beside its own, Drizzle
 * Kit's migration of it, and the adapter on it with the session cache.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createClient } from "@libsql/client"
import { pushSQLiteSchema } from "drizzle-kit/api"
import { drizzle } from "drizzle-orm/libsql"
import { expect, it } from "vitest"
import * as sqliteSchema from "../src/sqlite/schema.js"
import { authConfig } from "./example/db.js"
import * as schema from "./example/schema.js"
import { sqliteMigration } from "./databases.js"

it("the README's schema migrates, and its adapter stores a user with a note", async () => {
  const dir = mkdtempSync(join(tmpdir(), "latch-drizzle-example-"))
  try {
    const { db, config } = authConfig(join(dir, "app.db"))
    for (const statement of await sqliteMigration(schema)) await db.run(statement)
    const adapter = config.adapter!
    const user = await adapter.createUser!({
      id: "ada",
      email: "ada@example.com",
      emailVerified: null,
    })
    await db.insert(schema.notes).values({ ownerId: user.id, body: "hello" })
    expect(await db.select().from(schema.notes)).toMatchObject([{ ownerId: "ada" }])
    expect(typeof adapter.watchSessions).toBe("function")
    db.$client.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// The README tells SQLite apps to `generate` and `migrate`, not `push`, for what this shows: on a
// database already at Latch's schema, Drizzle Kit's push plans to rebuild `authenticator` (and
// to create its unique index twice). When a Drizzle Kit release stops doing so, this fails, and
// the README's advice is to be revisited.
it("README: Drizzle Kit's push on SQLite rebuilds the authenticator table of an up-to-date database", async () => {
  const dir = mkdtempSync(join(tmpdir(), "latch-drizzle-push-"))
  const client = createClient({ url: `file:${join(dir, "push.db")}` })
  try {
    for (const statement of await sqliteMigration(sqliteSchema)) await client.execute(statement)
    const plan = await pushSQLiteSchema(sqliteSchema, drizzle(client))
    expect(plan.statementsToExecute).toContain("DROP TABLE `authenticator`;")
  } finally {
    client.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
