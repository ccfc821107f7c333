/**
 * The databases the tests run on, each made empty and given its tables by Drizzle Kit's own
 * migration generator (`drizzle-kit/api`) from the schema modules: what `drizzle-kit generate`
 * writes for an app that spreads them into its schema.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { createClient, type Client } from "@libsql/client"
import Database from "better-sqlite3"
import { drizzle as betterSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as d1 } from "drizzle-orm/d1"
import { drizzle as libsql } from "drizzle-orm/libsql"
import { drizzle as mysql2 } from "drizzle-orm/mysql2"
import { drizzle as nodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as pglite } from "drizzle-orm/pglite"
import { drizzle as postgresJs } from "drizzle-orm/postgres-js"
import { Miniflare } from "miniflare"
import mysql from "mysql2/promise"
import pg from "pg"
import postgres from "postgres"
import type { DrizzleAdapterOptions } from "../src/index.js"
import * as mysqlSchema from "../src/mysql/schema.js"
import * as pgSchema from "../src/pg/schema.js"
import * as sqliteSchema from "../src/sqlite/schema.js"
import { startPostgres } from "../../pg-adapter/test/postgres-server.js"
import { startMariadb } from "./mariadb-server.js"
import { mysqlMigration, pgMigration, sqliteMigration } from "./migrations.js"

export { mysqlMigration, pgMigration, sqliteMigration } from "./migrations.js"

export type DialectName = "pg" | "sqlite" | "mysql"

export interface TestDatabase {
  dialect: DialectName
  db: any
  /** What the tests pass as `DrizzleAdapter`'s options. */
  options?: DrizzleAdapterOptions
  /** Runs migration statements. */
  apply(statements: string[]): Promise<void>
  close(): Promise<void>
}

export async function openPGlite(): Promise<TestDatabase> {
  const client = new PGlite()
  const db = pglite(client)
  return {
    dialect: "pg",
    db,
    apply: async (statements) => {
      for (const statement of statements) await client.exec(statement)
    },
    close: () => client.close(),
  }
}

/**
 * One PostgreSQL server per test file, shared by its databases (node-postgres, postgres.js), each
 * in a database of its own: a cluster's start is the slow part. The file stops it in its last
 * `afterAll` (stopSharedPostgres).
 */
let shared: ReturnType<typeof startPostgres> | undefined
let databaseCount = 0

async function postgresDatabase() {
  const server = await (shared ??= startPostgres())
  return server.createDatabase(`latch_${++databaseCount}`)
}

export async function stopSharedPostgres() {
  const server = shared
  shared = undefined
  if (server) await (await server).destroy()
}

export async function openPostgres(): Promise<TestDatabase> {
  const connectionString = await postgresDatabase()
  const pool = new pg.Pool({ connectionString, max: 10 })
  const db = nodePostgres(pool)
  return {
    dialect: "pg",
    db,
    apply: async (statements) => {
      for (const statement of statements) await pool.query(statement)
    },
    close: () => pool.end(),
  }
}

/**
 * postgres.js (`drizzle-orm/postgres-js`) on a real server; the session watch listens on a small
 * `pg.Pool` given as `listen`, as the README says (postgres.js's own listening API is not the
 * watch's).
 */
export async function openPostgresJs(): Promise<TestDatabase> {
  const connectionString = await postgresDatabase()
  // The triggers' installation says "does not exist, skipping" as a notice: not the test's output.
  const client = postgres(connectionString, { max: 10, onnotice: () => {} })
  const listen = new pg.Pool({ connectionString, max: 2 })
  return {
    dialect: "pg",
    db: postgresJs(client),
    options: { listen },
    apply: async (statements) => {
      for (const statement of statements) await client.unsafe(statement)
    },
    close: async () => {
      await client.end()
      await listen.end()
    },
  }
}

export async function openMariadb(): Promise<TestDatabase & { pool: mysql.Pool }> {
  const server = await startMariadb()
  const pool = mysql.createPool({ uri: server.uri, connectionLimit: 10 })
  const db = mysql2(pool)
  return {
    dialect: "mysql",
    db,
    pool,
    // On one connection, as Drizzle Kit's `migrate` runs a migration: a `SET` holds for the rest.
    apply: async (statements) => {
      const connection = await pool.getConnection()
      try {
        for (const statement of statements) await connection.query(statement)
      } finally {
        connection.release()
      }
    },
    close: async () => {
      await pool.end()
      await server.destroy()
    },
  }
}

function tempFile(name: string) {
  const dir = mkdtempSync(join(tmpdir(), "latch-drizzle-"))
  return { path: join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export async function openBetterSqlite(): Promise<TestDatabase> {
  const file = tempFile("app.db")
  const client = new Database(file.path)
  client.pragma("journal_mode = WAL")
  const db = betterSqlite(client)
  return {
    dialect: "sqlite",
    db,
    apply: async (statements) => {
      for (const statement of statements) client.exec(statement)
    },
    close: async () => {
      client.close()
      file.remove()
    },
  }
}

export async function openLibsql(): Promise<TestDatabase & { client: Client }> {
  const file = tempFile("app.db")
  const client = createClient({ url: `file:${file.path}` })
  await client.execute("pragma journal_mode = wal")
  const db = libsql(client)
  return {
    dialect: "sqlite",
    db,
    client,
    apply: async (statements) => {
      for (const statement of statements) await client.execute(statement)
    },
    close: async () => {
      client.close()
      file.remove()
    },
  }
}

/**
 * Cloudflare D1 as Workers run it: the D1 engine inside workerd (miniflare starts it, with an
 * in-memory database), reached from Node through the binding's proxy, which forwards every
 * `prepare`, `batch` and `run` to the real binding in workerd.
 */
export async function openD1(): Promise<TestDatabase> {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response() }",
    d1Databases: ["DB"],
  })
  const binding = await mf.getD1Database("DB")
  return {
    dialect: "sqlite",
    db: d1(binding),
    apply: async (statements) => {
      for (const statement of statements) await binding.prepare(statement).run()
    },
    close: () => mf.dispose(),
  }
}

/**
 * Whether better-sqlite3 runs too (`pnpm --filter @latch/drizzle-adapter run test:full`). It is a
 * native module that these machines build from its sources (a few minutes, once per install:
 * native-sqlite.ts), so the test command runs SQLite files through libsql only — the same
 * dialect module and SQL, another driver — and the full run adds better-sqlite3's synchronous
 * driver.
 */
export const FULL = process.env.DRIZZLE_FULL === "1"

/** Every database of this package's tests, by name. */
export const databases = [
  { name: "PostgreSQL (PGlite)", open: openPGlite, watch: true },
  { name: "PostgreSQL (node-postgres)", open: openPostgres, watch: true },
  { name: "PostgreSQL (postgres.js)", open: openPostgresJs, watch: true },
  ...(FULL ? [{ name: "SQLite (better-sqlite3)", open: openBetterSqlite, watch: true }] : []),
  { name: "SQLite (libsql, local file)", open: openLibsql, watch: true },
  // Many isolates write D1 and none hears the others: no session watch (README, "D1").
  { name: "Cloudflare D1 (workerd)", open: openD1, watch: false },
  // MySQL tells no connection what another changed: no session watch (README, "Session cache").
  { name: "MariaDB (mysql2)", open: openMariadb, watch: false },
] as const

/** Latch's whole schema, for `dialect`. */
export const schemaOf = (dialect: DialectName) =>
  dialect === "pg" ? pgSchema : dialect === "mysql" ? mysqlSchema : sqliteSchema

/** Creates Latch's tables in an empty database. */
export async function createTables(database: TestDatabase) {
  const statements =
    database.dialect === "pg"
      ? await pgMigration(pgSchema)
      : database.dialect === "mysql"
        ? await mysqlMigration(mysqlSchema)
        : await sqliteMigration(sqliteSchema)
  await database.apply(statements)
}
