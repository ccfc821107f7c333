/**
 * `@latch/adapter-test` on every database: PGlite, a real PostgreSQL server through a `pg.Pool`
 * and through postgres.js, better-sqlite3 and libsql on files, Cloudflare D1 in workerd, and a
 * real MariaDB server through a mysql2 pool, each with the tables Drizzle Kit generates.
 * (bun:sqlite runs the same suite under `bun test`, test/bun/; node:sqlite on Node 22,
 * test/node-sqlite/.)
 */
import { runAdapterConformance } from "@latch/adapter-test"
import { installSessionTriggers } from "../src/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DrizzleAdapter } from "../src/index.js"
import { createTables, databases, stopSharedPostgres, type TestDatabase } from "./databases.js"
import { itWhere } from "./it-where.js"

for (const { name, open, watch } of databases) {
  let database: TestDatabase
  runAdapterConformance(
    `DrizzleAdapter on ${name}`,
    async () => {
      database = await open()
      await createTables(database)
      if (database.dialect === "pg") await installSessionTriggers(database.db)
      return {
        adapter: DrizzleAdapter(database.db, undefined, database.options),
        teardown: () => database.close(),
      }
    },
    { describe, it: itWhere(it, watch), expect, beforeAll, afterAll },
  )
}

afterAll(stopSharedPostgres)
