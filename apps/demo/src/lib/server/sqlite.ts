// The demo on Drizzle + SQLite (LATCH_DEMO_DATABASE=sqlite): a libsql client on a local file in
// a git-ignored folder, Latch's tables from `@latch/drizzle-adapter/sqlite` as an app spreads
// them into its own Drizzle schema, and `DrizzleAdapter`.
import { mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { createClient } from "@libsql/client"
import { DrizzleAdapter } from "@latch/drizzle-adapter"
import * as schema from "@latch/drizzle-adapter/sqlite"
import { drizzle } from "drizzle-orm/libsql"

/** Where the database file is: LATCH_DEMO_SQLITE_FILE, or .data/sqlite/demo.db. */
export function sqliteFile(env: Record<string, string | undefined>): string {
  return resolve(env.LATCH_DEMO_SQLITE_FILE || ".data/sqlite/demo.db")
}

/**
 * Creates the tables that are missing. An app runs `drizzle-kit generate` and `migrate` (or
 * `push`); the demo has no migrations folder to keep, so it asks Drizzle Kit's generator
 * (`drizzle-kit/api`) for the statements that take the database from the tables it has to
 * Latch's schema. Loaded only here: Drizzle Kit is large, and PostgreSQL runs never need it.
 */
async function createTables(client: ReturnType<typeof createClient>): Promise<void> {
  const { generateSQLiteDrizzleJson, generateSQLiteMigration } = await import("drizzle-kit/api")
  const existing = await client.execute(
    "select name from sqlite_master where type = 'table' and name = 'user'",
  )
  // The demo's tables are all made at once, in one batch: with `user` there, they all are.
  if (existing.rows.length > 0) return
  const statements = await generateSQLiteMigration(
    await generateSQLiteDrizzleJson({}),
    await generateSQLiteDrizzleJson(schema),
  )
  await client.batch(statements, "write")
}

export async function openSqlite(env: Record<string, string | undefined>) {
  const file = sqliteFile(env)
  mkdirSync(dirname(file), { recursive: true })
  const client = createClient({ url: `file:${file}` })
  // Write-ahead logging: pages read sessions while a sign-in writes.
  await client.execute("pragma journal_mode = wal")
  await createTables(client)
  const adapter = DrizzleAdapter(drizzle(client, { schema }))
  return { adapter, close: async () => client.close() }
}
