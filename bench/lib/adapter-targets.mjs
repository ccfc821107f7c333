// The databases of the adapter benchmark, each empty, given Latch's tables and the bench user:
// PGlite and a PostgreSQL server through @latch/pg-adapter, the same server through
// @latch/drizzle-adapter (node-postgres), a SQLite file through libsql, and a MariaDB server
// through mysql2 — the servers from Debian's packages (latch-test-servers), on 127.0.0.1. Each
// target's `adapter()` makes a new adapter object (so a session cache of its own: an instance
// of the app); `instance()` also opens a connection of its own where the driver allows, as a
// second process would.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter, installSessionTriggers } from "@latch/drizzle-adapter"
import * as mysqlSchema from "@latch/drizzle-adapter/mysql"
import * as pgSchema from "@latch/drizzle-adapter/pg"
import * as sqliteSchema from "@latch/drizzle-adapter/sqlite"
import { migrate, PostgresAdapter } from "@latch/pg-adapter"
import { createClient as createLibsql } from "@libsql/client"
import { drizzle as libsql } from "drizzle-orm/libsql"
import { drizzle as mysqlDrizzle } from "drizzle-orm/mysql2"
import { drizzle as nodePostgres } from "drizzle-orm/node-postgres"
import {
  generateDrizzleJson,
  generateMigration,
  generateMySQLDrizzleJson,
  generateMySQLMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from "drizzle-kit/api"
import { startMariadb, startPostgres } from "latch-test-servers"
import mysql from "mysql2/promise"
import pg from "pg"
import { memoryAdapter } from "./memory-adapter.mjs"

const POOL_SIZE = 10

/** Latch's tables as `drizzle-kit generate` writes them for an app spreading the schema. */
const migrations = {
  pg: async () => generateMigration(generateDrizzleJson({}), generateDrizzleJson(pgSchema)),
  sqlite: async () =>
    generateSQLiteMigration(
      await generateSQLiteDrizzleJson({}),
      await generateSQLiteDrizzleJson(sqliteSchema),
    ),
  mysql: async () =>
    generateMySQLMigration(
      await generateMySQLDrizzleJson({}),
      await generateMySQLDrizzleJson(mysqlSchema),
    ),
}

/**
 * Opens every target; `cleanup` gets what closes them (run in reverse). `user` is created in
 * each. Returns `{ targets, postgresVersion, mariadbVersion }`.
 */
export async function openTargets(cleanup, user) {
  const seed = async (adapter) => {
    await adapter.createUser({ ...user, emailVerified: null })
    return adapter
  }
  const targets = []

  const memory = memoryAdapter()
  await seed(memory)
  targets.push({
    id: "memory",
    label: "in-process memory adapter (floor)",
    adapter: () => memory,
    instance: () => memory,
  })

  const pglite = new PGlite()
  cleanup.push(() => pglite.close())
  await migrate(pglite)
  await seed(PostgresAdapter(pglite))
  targets.push({
    id: "pglite",
    label: "PGlite, `@latch/pg-adapter`",
    watch: "PGlite's `listen`",
    adapter: () => PostgresAdapter(pglite),
    instance: () => PostgresAdapter(pglite),
  })

  const server = await startPostgres({
    database: "latch_bench",
    systemUser: "latchbench",
    signals: true,
  })
  cleanup.push(() => server.destroy())
  const pools = []
  const pool = (connectionString) => {
    const made = new pg.Pool({ connectionString, max: POOL_SIZE })
    pools.push(made)
    return made
  }
  cleanup.push(() => Promise.all(pools.map((made) => made.end())))
  const pgUrl = server.connectionString
  const pgPool = pool(pgUrl)
  await migrate(pgPool)
  await seed(PostgresAdapter(pgPool))
  const postgresVersion = (await pgPool.query("show server_version")).rows[0].server_version
  targets.push({
    id: "postgres",
    label: "PostgreSQL server, `@latch/pg-adapter` (pg.Pool)",
    watch: "triggers + `LISTEN`",
    adapter: () => PostgresAdapter(pgPool),
    instance: () => PostgresAdapter(pool(pgUrl)),
  })

  const drizzleUrl = await server.createDatabase("latch_drizzle")
  const drizzlePool = pool(drizzleUrl)
  const drizzleDb = nodePostgres(drizzlePool)
  for (const statement of await migrations.pg()) await drizzlePool.query(statement)
  await installSessionTriggers(drizzleDb)
  await seed(DrizzleAdapter(drizzleDb))
  targets.push({
    id: "drizzle-pg",
    label: "PostgreSQL server, `@latch/drizzle-adapter` (node-postgres)",
    watch: "triggers + `LISTEN`",
    adapter: () => DrizzleAdapter(drizzleDb),
    instance: () => DrizzleAdapter(nodePostgres(pool(drizzleUrl))),
  })

  const dir = mkdtempSync(join(tmpdir(), "latch-bench-sqlite-"))
  const file = `file:${join(dir, "app.db")}`
  const libsqlClients = []
  const openLibsql = () => {
    const client = createLibsql({ url: file })
    libsqlClients.push(client)
    return client
  }
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  cleanup.push(() => libsqlClients.forEach((client) => client.close()))
  const sqliteClient = openLibsql()
  await sqliteClient.execute("pragma journal_mode = wal")
  for (const statement of await migrations.sqlite()) await sqliteClient.execute(statement)
  const sqliteDb = libsql(sqliteClient)
  await seed(DrizzleAdapter(sqliteDb))
  targets.push({
    id: "sqlite",
    label: "SQLite file, `@latch/drizzle-adapter` (libsql)",
    watch: "in-process (one process only)",
    adapter: () => DrizzleAdapter(sqliteDb),
    instance: () => DrizzleAdapter(libsql(openLibsql())),
  })

  const mariadb = await startMariadb({ database: "latch_bench", signals: true })
  cleanup.push(() => mariadb.destroy())
  const mysqlPools = []
  const mysqlPool = () => {
    const made = mysql.createPool({ uri: mariadb.uri, connectionLimit: POOL_SIZE })
    mysqlPools.push(made)
    return made
  }
  cleanup.push(() => Promise.all(mysqlPools.map((made) => made.end())))
  const mariadbPool = mysqlPool()
  {
    // One connection, as Drizzle Kit's `migrate` runs a migration: a `SET` holds for the rest.
    const connection = await mariadbPool.getConnection()
    try {
      for (const statement of await migrations.mysql()) await connection.query(statement)
    } finally {
      connection.release()
    }
  }
  const mariadbDb = mysqlDrizzle(mariadbPool, { mode: "default" })
  await seed(DrizzleAdapter(mariadbDb))
  const [[{ version: mariadbVersion }]] = await mariadbPool.query("select version() as version")
  targets.push({
    id: "mariadb",
    label: "MariaDB server, `@latch/drizzle-adapter` (mysql2 pool)",
    adapter: () => DrizzleAdapter(mariadbDb),
    instance: () => DrizzleAdapter(mysqlDrizzle(mysqlPool(), { mode: "default" })),
  })

  return { targets, postgresVersion, mariadbVersion }
}
