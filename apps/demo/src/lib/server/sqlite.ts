// The demo on Drizzle + SQLite (LATCH_DEMO_DATABASE=sqlite): a libsql client on a local file in
// a git-ignored folder, Latch's tables from `@latch/drizzle-adapter/sqlite` as an app spreads
// them into its own Drizzle schema, and `DrizzleAdapter`.
import { mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { createClient, type Client } from "@libsql/client"
import { DrizzleAdapter } from "@latch/drizzle-adapter"
import * as schema from "@latch/drizzle-adapter/sqlite"
import { drizzle } from "drizzle-orm/libsql"

/** Where the database file is: LATCH_DEMO_SQLITE_FILE, or .data/sqlite/demo.db. */
export function sqliteFile(env: Record<string, string | undefined>): string {
  return resolve(env.LATCH_DEMO_SQLITE_FILE || ".data/sqlite/demo.db")
}

/**
 * Brings the database file to Latch's schema: creates the tables on a new file, and adds what a
 * newer release added (a table, a column, an index) to a file an older demo made, rows kept. An
 * app runs `drizzle-kit generate` and `migrate`; the demo has no migrations folder to keep, so it
 * describes the file's tables to Drizzle Kit's generator (`drizzle-kit/api`) as the schema minus
 * what the file lacks, and runs the statements the generator writes from there. (Not Drizzle
 * Kit's `push`: on SQLite it rebuilds the `authenticator` table on every run.) Loaded only here:
 * Drizzle Kit is large, and PostgreSQL runs never need it.
 */
async function migrateTables(client: Client): Promise<void> {
  const { generateSQLiteDrizzleJson, generateSQLiteMigration } = await import("drizzle-kit/api")
  const wanted = await generateSQLiteDrizzleJson(schema)
  // The snapshot's tables, as far as this reads them (drizzle-kit/api types them loosely).
  type Tables = Record<
    string,
    { columns: Record<string, unknown>; indexes: Record<string, unknown> }
  >
  const present = structuredClone(wanted)
  const presentTables = present.tables as unknown as Tables
  const { rows } = await client.execute(
    "select type, name, tbl_name from sqlite_master where type in ('table', 'index')",
  )
  const tables = new Set(rows.filter((row) => row.type === "table").map((row) => String(row.name)))
  const indexes = new Set(rows.filter((row) => row.type === "index").map((row) => String(row.name)))
  for (const [name, table] of Object.entries(presentTables)) {
    if (!tables.has(name)) {
      delete presentTables[name]
      continue
    }
    const info = await client.execute(`pragma table_info("${name}")`)
    const columns = new Set(info.rows.map((row) => String(row.name)))
    for (const column of Object.keys(table.columns)) {
      if (!columns.has(column)) delete table.columns[column]
    }
    for (const index of Object.keys(table.indexes)) {
      if (!indexes.has(index)) delete table.indexes[index]
    }
  }
  const statements = await generateSQLiteMigration(present, wanted)
  if (statements.length > 0) await client.batch(statements, "write")
}

export async function openSqlite(env: Record<string, string | undefined>) {
  const file = sqliteFile(env)
  mkdirSync(dirname(file), { recursive: true })
  const client = createClient({ url: `file:${file}` })
  // Write-ahead logging: pages read sessions while a sign-in writes.
  await client.execute("pragma journal_mode = wal")
  await migrateTables(client)
  const adapter = DrizzleAdapter(drizzle(client, { schema }))
  return { adapter, close: async () => client.close() }
}
