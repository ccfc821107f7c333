/**
 * `DrizzleAdapter(db, tables?, options?)`: picks the dialect from the Drizzle database object
 * (as Drizzle marks its classes, so that two copies of drizzle-orm still agree) and wraps every
 * method so that a database error reaches core as a `DrizzleAdapterError` naming the method.
 */
import type { Adapter } from "@latch/core/adapters"
import type { WatchOptions } from "@latch/pg-adapter"
import { is } from "drizzle-orm"
import { PgDatabase } from "drizzle-orm/pg-core"
import { MySqlDatabase } from "drizzle-orm/mysql-core"
import { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import { adapterMethods } from "./adapter.js"
import type { Dialect } from "./dialect.js"
import { DrizzleAdapterError } from "./errors.js"
import { mysqlDialect } from "./mysql/dialect.js"
import { pgDialect } from "./pg/dialect.js"
import { sqliteDialect } from "./sqlite/dialect.js"
import { hasPasskeyFields } from "./rows.js"
import type { DrizzleAdapterTables } from "./tables.js"

export interface DrizzleAdapterOptions {
  /** PostgreSQL with a `pg.Pool`: how the session watch checks its listening connection
   * (`@latch/pg-adapter`'s `WatchOptions`: `heartbeatMs`, default 1000). */
  watch?: WatchOptions
  /**
   * PostgreSQL on a driver whose client the session watch cannot listen on (postgres.js, a
   * single `pg.Client`, Neon's HTTP driver…): a `pg.Pool` on the same database, one of whose
   * connections the watch keeps for `LISTEN` (a few, idle, connections: the rest of the adapter
   * still runs on `db`). Without it, such a database has no `watchSessions`.
   */
  listen?: unknown
}

function dialectOf(
  db: unknown,
  tables: DrizzleAdapterTables | undefined,
  options: DrizzleAdapterOptions,
): Dialect {
  if (is(db, PgDatabase)) return pgDialect(db, tables, options)
  if (options.listen !== undefined) {
    throw new TypeError(
      "@latch/drizzle-adapter: the listen option is for PostgreSQL (a pg.Pool the session watch " +
        "listens on); SQLite and MySQL have no LISTEN",
    )
  }
  if (is(db, BaseSQLiteDatabase)) return sqliteDialect(db, tables)
  if (is(db, MySqlDatabase)) return mysqlDialect(db, tables)
  throw new TypeError(
    "@latch/drizzle-adapter: DrizzleAdapter(db) needs a Drizzle database for PostgreSQL " +
      "(drizzle-orm/node-postgres, drizzle-orm/pglite, drizzle-orm/postgres-js…), SQLite " +
      "(drizzle-orm/better-sqlite3, drizzle-orm/libsql, drizzle-orm/d1, drizzle-orm/bun-sqlite…) " +
      "or MySQL / MariaDB (drizzle-orm/mysql2 on a pool)",
  )
}

/**
 * The adapter for a Drizzle database. The tables default to those of
 * `@latch/drizzle-adapter/pg`, `/sqlite` or `/mysql`; pass your own as
 * `@auth/drizzle-adapter` takes them (`{ usersTable, accountsTable, … }`).
 *
 * Offers `watchSessions` (for `session.cache`) on PostgreSQL through a PGlite or a `pg.Pool`
 * (with the triggers of `installSessionTriggers`; another driver with `options.listen`), and on
 * a local SQLite database in one process; not on remote SQLite (Turso, D1) nor on MySQL (README,
 * "The session cache"), which needs a mysql2 pool.
 */
export function DrizzleAdapter(
  db: unknown,
  tables?: DrizzleAdapterTables,
  options: DrizzleAdapterOptions = {},
): Adapter {
  const dialect = dialectOf(db, tables, options)
  const methods = { ...adapterMethods(db, dialect), ...dialect.methods?.() } as Record<
    string,
    (...args: any[]) => Promise<any>
  >
  if (dialect.watchSessions) methods.watchSessions = dialect.watchSessions
  // Core gives Latch's passkey fields only to an adapter with updateAuthenticator: a table made
  // for Auth.js, without those columns, must not claim to store them.
  if (!hasPasskeyFields(dialect.tables.authenticators)) delete methods.updateAuthenticator
  const wrapped: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(methods)) {
    wrapped[name] = async (...args: any[]) => {
      try {
        return await method(...args)
      } catch (error) {
        throw error instanceof DrizzleAdapterError ? error : new DrizzleAdapterError(name, error)
      }
    }
  }
  return wrapped as Adapter
}
