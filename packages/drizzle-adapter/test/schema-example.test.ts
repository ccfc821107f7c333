/**
 * The README's example: an app schema spreading Latch's SQLite tables beside its own, Drizzle
 * Kit's migration of it, and the adapter on it with the session cache.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it } from "vitest"
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
